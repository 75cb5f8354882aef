// A small JSON file of things kept per profile and service, { "<profile> <baseUrl>": entry }:
// what the client learned about a service (traits.json), the numbers this profile linked
// (links.json). A console, a sync worker and a command may all write one at once: every change is
// made to what the file holds now, under its lock, and written by an atomic rename.
import { readJsonFile, writePrivateFile } from './files.js';
import { withLockSync } from './lock.js';

export interface PerServiceFile<T> {
  path: string;
  /** What to tell someone whose file cannot be read. */
  whatToDo: string;
  /** An entry as stored, or undefined when it is not one. */
  entry(value: unknown): T | undefined;
}

const keyOf = (profile: string, baseUrl: string) => `${profile} ${baseUrl.replace(/\/+$/, '')}`;

function readAll<T>(file: PerServiceFile<T>): Map<string, T> {
  const raw = readJsonFile(file.path, file.whatToDo);
  const all = new Map<string, T>();
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      const entry = file.entry(v);
      if (entry !== undefined) all.set(k, entry);
    }
  }
  return all;
}

/** The entry of this profile's service; undefined when there is none, or the file is unreadable (it only costs what was kept). */
export function readEntry<T>(file: PerServiceFile<T>, profile: string, baseUrl: string): T | undefined {
  try {
    return readAll(file).get(keyOf(profile, baseUrl));
  } catch {
    return undefined;
  }
}

/** Replaces the entry of this profile's service with `change(what it holds now)`; returns the new entry. A damaged file is started afresh. */
export function changeEntry<T>(file: PerServiceFile<T>, profile: string, baseUrl: string, change: (now: T | undefined) => T): T {
  return withLockSync(file.path, () => {
    let all: Map<string, T>;
    try {
      all = readAll(file);
    } catch {
      all = new Map();
    }
    const key = keyOf(profile, baseUrl);
    const next = change(all.get(key));
    all.set(key, next);
    writePrivateFile(file.path, `${JSON.stringify(Object.fromEntries(all), null, 2)}\n`);
    return next;
  });
}

/** A JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
