// The last-known rows of the console's other lists (assistants, numbers, the first page of
// files), per profile, beside the call archive in the XDG cache dir, so a started console shows
// data at its first frame and marks it "cached" until the service answers.
//
// One small JSON file per list (<cache>/lists/<profile>/<list>.json), replaced whole by a rename:
// several consoles on one profile may write it, and a reader sees one writer's list or another's,
// never half of one. It is a cache: no fsync (a write must not hold up a keypress), and a file
// that cannot be read or parsed is treated as no cache at all.
import { readFileSync } from 'node:fs';
import { privateDir } from './private-dir.js';
import { join } from 'node:path';

export type CachedListName = 'assistants' | 'numbers' | 'files';

export interface CachedList<T> {
  rows: T;
  /** When the service gave these rows (ms since the epoch). */
  savedAt: number;
}

// Each file names the service its rows came from (config's serviceOf): a profile pointed at
// another service (SWITCHBOARD_BASE_URL changed) must not show the first one's rows as cached.

/** Profile names are letters, digits, '.', '_' and '-' (config.ts); anything else is encoded, never a path. */
function profileDir(cacheDir: string, profile: string): string {
  const safe = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(profile) ? profile : encodeURIComponent(profile).replace(/\./g, '%2E');
  return join(cacheDir, 'lists', safe);
}

export function cachedListPath(cacheDir: string, profile: string, name: CachedListName): string {
  return join(profileDir(cacheDir, profile), `${name}.json`);
}

/**
 * The cached rows of a list from `service`, or undefined (none yet, another service's, unreadable,
 * or not what we wrote). Synchronous: the first frame waits for it.
 */
export function readCachedList<T>(cacheDir: string, profile: string, service: string, name: CachedListName): CachedList<T> | undefined {
  try {
    const parsed = JSON.parse(readFileSync(cachedListPath(cacheDir, profile, name), 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return undefined;
    const { rows, savedAt, service: from } = parsed as { rows?: unknown; savedAt?: unknown; service?: unknown };
    if (rows === undefined || rows === null || typeof savedAt !== 'number' || from !== service) return undefined;
    return { rows: rows as T, savedAt };
  } catch {
    return undefined;
  }
}

/** Replaces the cached rows of a list (dir 0700, file 0600). Failures are the caller's to ignore: a cache is optional. */
export async function writeCachedList(
  cacheDir: string,
  profile: string,
  service: string,
  name: CachedListName,
  rows: unknown,
  savedAt = Date.now(),
): Promise<void> {
  const dir = profileDir(cacheDir, profile);
  privateDir(dir, cacheDir);
  const path = cachedListPath(cacheDir, profile, name);
  const { rename, rm, writeFile } = process.getBuiltinModule('node:fs/promises');
  const tmp = `${path}.${process.pid}.${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify({ savedAt, service, rows }), { mode: 0o600, flag: 'wx' });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
