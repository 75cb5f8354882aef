// Numbers this profile linked to assistants itself (`numbers link`, the console), kept per
// profile and base URL in <stateDir>/links.json (src/config/per-service.ts) as { numberId:
// assistantId }. A service whose number records do not say which assistant answers them (the
// hosted one's do not) still gets a "linked here" answer.
import { join } from 'node:path';
import { changeEntry, isObject, readEntry, type PerServiceFile } from './per-service.js';
import { stateDir } from './paths.js';

export type NumberLinks = Record<string, string>;

/** The file in `dir` (the state dir unless given). */
function linksFile(dir = stateDir()): string {
  return join(dir, 'links.json');
}

const fileIn = (dir: string): PerServiceFile<NumberLinks> => ({
  path: linksFile(dir),
  whatToDo: 'delete it: it only remembers which assistant this machine linked to each number',
  entry: (v) => (isObject(v) ? (Object.fromEntries(Object.entries(v).filter(([, a]) => typeof a === 'string')) as NumberLinks) : undefined),
});

/** The links this profile made on this service ({} when none, or the file is unreadable). */
export function loadLinks(profile: string, baseUrl: string, dir = stateDir()): NumberLinks {
  return readEntry(fileIn(dir), profile, baseUrl) ?? {};
}

/** Remembers that this profile linked `numberId` to `assistantId`; returns the profile's links. */
export function rememberLink(profile: string, baseUrl: string, numberId: string, assistantId: string, dir = stateDir()): NumberLinks {
  return changeEntry(fileIn(dir), profile, baseUrl, (now) => ({ ...now, [numberId]: assistantId }));
}
