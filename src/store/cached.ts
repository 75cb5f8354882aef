// The lists' last-known rows (src/config/cached-lists.ts) as the store uses them: read once when the
// store is made, written after each answer.
import { cacheDir } from '../config/paths.js';
import { readCachedList, writeCachedList, type CachedListName } from '../config/cached-lists.js';
import type { ConsoleTarget, Resource } from './types.js';

/** A resource holding cached rows: shown at once, marked cached, loaded again on entry. */
export function cachedResource<T>(target: ConsoleTarget, name: CachedListName): Resource<T> {
  if (!target.cacheDir) return { status: 'idle' };
  const hit = readCachedList<T>(target.cacheDir, target.profile, serviceKey(target), name);
  return hit ? { status: 'idle', data: hit.rows, fetchedAt: hit.savedAt, cached: true } : { status: 'idle' };
}

/**
 * Keeps the rows the service just gave; resolves once written (never rejects: a failure to write
 * only means the next start shows no cached rows).
 */
export async function saveCachedList(target: ConsoleTarget, name: CachedListName, rows: unknown, savedAt?: number): Promise<void> {
  if (!target.cacheDir) return;
  await writeCachedList(target.cacheDir, target.profile, serviceKey(target), name, rows, savedAt).catch(() => undefined);
}

/** The service the target is (ConsoleTarget.service), for a target made without one its kind and address. */
export function serviceKey(target: ConsoleTarget): string {
  return target.service ?? `${target.kind}:${target.baseUrl}`;
}

/** "cached 3 min ago": how old the shown rows are, in the words the status lines use. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** Where the console keeps its cache: the XDG cache dir. */
export function consoleCacheDir(env: Record<string, string | undefined> = process.env): string {
  return cacheDir(env);
}
