// The lists' last-known rows (src/archive/lists.ts) as the store uses them: read once when the
// store is made (and by the first frame drawn before Ink loads), written after each answer.
import type { Assistant, PhoneNumber } from '../api/schemas.js';
import { cacheDir } from '../config/paths.js';
import { readCachedList, writeCachedList, type CachedListName } from '../archive/lists.js';
import type { FileList } from './resources.js';
import type { ConsoleTarget, Resource } from './types.js';

export interface CachedLists {
  assistants?: Assistant[];
  numbers?: PhoneNumber[];
  files?: FileList;
}

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
export async function saveCachedList(target: ConsoleTarget, name: CachedListName, rows: unknown): Promise<void> {
  if (!target.cacheDir) return;
  await writeCachedList(target.cacheDir, target.profile, serviceKey(target), name, rows).catch(() => undefined);
}

/** The service the target is (ConsoleTarget.service), for a target made without one its kind and address. */
export function serviceKey(target: ConsoleTarget): string {
  return target.service ?? `${target.kind}:${target.baseUrl}`;
}

/** The rows of one list for the frame drawn before the store exists (src/ui/start.ts). */
export function cachedRowsFor<K extends CachedListName>(
  target: ConsoleTarget & { cacheDir: string },
  name: K,
): { rows: NonNullable<CachedLists[K]>; savedAt: number } | undefined {
  return readCachedList<NonNullable<CachedLists[K]>>(target.cacheDir, target.profile, serviceKey(target), name);
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
