// Numbers this profile linked to assistants itself (`numbers link`, the console), kept per
// profile and base URL: <stateDir>/links.json = { "<profile> <baseUrl>": { numberId: assistantId } }.
// A service whose number records do not say which assistant answers them (the hosted one's do
// not) still gets a "linked here" answer. Merged under the file's lock, written by an atomic rename.
import { join } from 'node:path';
import { readJsonFile, writePrivateFile } from './files.js';
import { withLockSync } from './lock.js';
import { stateDir } from './paths.js';

export type NumberLinks = Record<string, string>;

/** The file in `dir` (the state dir unless given). */
export function linksFile(dir = stateDir()): string {
  return join(dir, 'links.json');
}

const keyOf = (profile: string, baseUrl: string) => `${profile} ${baseUrl.replace(/\/+$/, '')}`;

function readAll(path: string): Map<string, NumberLinks> {
  const raw = readJsonFile(path, 'delete it: it only remembers which assistant this machine linked to each number');
  const all = new Map<string, NumberLinks>();
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      all.set(k, Object.fromEntries(Object.entries(v).filter(([, a]) => typeof a === 'string')) as NumberLinks);
    }
  }
  return all;
}

/** The links this profile made on this service ({} when none, or the file is unreadable). */
export function loadLinks(profile: string, baseUrl: string, dir = stateDir()): NumberLinks {
  try {
    return readAll(linksFile(dir)).get(keyOf(profile, baseUrl)) ?? {};
  } catch {
    return {};
  }
}

/** Remembers that this profile linked `numberId` to `assistantId`; returns the profile's links. */
export function rememberLink(profile: string, baseUrl: string, numberId: string, assistantId: string, dir = stateDir()): NumberLinks {
  const path = linksFile(dir);
  return withLockSync(path, () => {
    let all: Map<string, NumberLinks>;
    try {
      all = readAll(path);
    } catch {
      all = new Map();
    }
    const key = keyOf(profile, baseUrl);
    const next = { ...all.get(key), [numberId]: assistantId };
    all.set(key, next);
    writePrivateFile(path, `${JSON.stringify(Object.fromEntries(all), null, 2)}\n`);
    return next;
  });
}
