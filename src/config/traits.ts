// Learned service traits (src/api/traits.ts), kept per profile and base URL:
// <stateDir>/traits.json = { "<profile> <baseUrl>": ServiceTraits }. Every change is merged into
// what the file holds now, under its lock, and written by an atomic rename: a console, a sync
// worker and `doctor` may all learn at once.
import { join } from 'node:path';
import { mergeTraits, type ServiceTraits } from '../api/traits.js';
import { readJsonFile, writePrivateFile } from './files.js';
import { withLockSync } from './lock.js';
import { stateDir, type Env } from './paths.js';

export function traitsFile(env: Env = process.env): string {
  return join(stateDir(env), 'traits.json');
}

const keyOf = (profile: string, baseUrl: string) => `${profile} ${baseUrl.replace(/\/+$/, '')}`;

function readAll(path: string): Map<string, ServiceTraits> {
  const raw = readJsonFile(path, 'delete it: Switchboard learns these again as it talks to the service');
  const all = new Map<string, ServiceTraits>();
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) if (v && typeof v === 'object' && !Array.isArray(v)) all.set(k, v as ServiceTraits);
  }
  return all;
}

/** What was learned about this profile's service ({} when nothing yet, or the file is unreadable). */
export function loadTraits(profile: string, baseUrl: string, env: Env = process.env): ServiceTraits {
  try {
    return readAll(traitsFile(env)).get(keyOf(profile, baseUrl)) ?? {};
  } catch {
    // A damaged file only costs what was learned; the next write replaces it.
    return {};
  }
}

/** Merges `patch` into what is kept for this profile's service; returns the result. */
export function rememberTraits(profile: string, baseUrl: string, patch: Partial<ServiceTraits>, env: Env = process.env): ServiceTraits {
  const path = traitsFile(env);
  return withLockSync(path, () => {
    let all: Map<string, ServiceTraits>;
    try {
      all = readAll(path);
    } catch {
      all = new Map();
    }
    const key = keyOf(profile, baseUrl);
    const next = mergeTraits(all.get(key) ?? {}, { ...patch, learnedAt: new Date().toISOString() });
    all.set(key, next);
    writePrivateFile(path, `${JSON.stringify(Object.fromEntries(all), null, 2)}\n`);
    return next;
  });
}
