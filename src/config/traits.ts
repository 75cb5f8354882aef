// Learned service traits (src/api/traits.ts), kept per profile and base URL in
// <stateDir>/traits.json (src/config/per-service.ts): a console, a sync worker and `doctor` may
// all learn at once.
import { join } from 'node:path';
import { mergeTraits, type ServiceTraits } from '../api/traits.js';
import { changeEntry, isObject, readEntry, type PerServiceFile } from './per-service.js';
import { stateDir, type Env } from './paths.js';

function traitsFile(env: Env = process.env): string {
  return join(stateDir(env), 'traits.json');
}

const fileOf = (env: Env): PerServiceFile<ServiceTraits> => ({
  path: traitsFile(env),
  whatToDo: 'delete it: Switchboard learns these again as it talks to the service',
  entry: (v) => (isObject(v) ? (v as ServiceTraits) : undefined),
});

/** What was learned about this profile's service ({} when nothing yet, or the file is unreadable). */
export function loadTraits(profile: string, baseUrl: string, env: Env = process.env): ServiceTraits {
  return readEntry(fileOf(env), profile, baseUrl) ?? {};
}

/** Merges `patch` into what is kept for this profile's service; returns the result. */
export function rememberTraits(profile: string, baseUrl: string, patch: Partial<ServiceTraits>, env: Env = process.env): ServiceTraits {
  return changeEntry(fileOf(env), profile, baseUrl, (now) => mergeTraits(now ?? {}, { ...patch, learnedAt: new Date().toISOString() }));
}
