// Switchboard's own directories kept private. A leaf (node:fs and node:path only): the crash
// handler, loaded at every start, uses it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * `mkdir -p`, one directory at a time from the deepest that exists: at most one mkdir per part of
 * the path. Node's own recursive mkdir retries without end where a parent exists but refuses
 * children with ENOENT (/proc, /sys), spinning a core forever.
 */
export function makeDirs(dir: string, mode?: number): void {
  const missing: string[] = [];
  try {
    for (let d = resolve(dir); ; d = dirname(d)) {
      try {
        if (statSync(d).isDirectory()) break;
        throw Object.assign(new Error(`${d} is not a directory`), { code: 'ENOTDIR' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) throw err;
        missing.push(d);
      }
    }
    for (const d of missing.reverse()) {
      try {
        mkdirSync(d, mode === undefined ? undefined : { mode });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d).isDirectory()) throw err;
      }
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'the file system refuses a directory there' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw Object.assign(new Error(`cannot create the directory ${dir}: ${why}`), { code });
  }
}

/**
 * Makes `dir` (0700 when new) and tightens it, and each directory above it up to `top`, to 0700
 * when another user could write or read it: a cache or state dir left world-writable by an old
 * install or a careless umask would let another user swap what Switchboard reads back.
 */
export function privateDir(dir: string, top: string = dir): void {
  makeDirs(dir, 0o700);
  if (process.platform === 'win32') return;
  const uid = process.getuid?.();
  for (let d = dir; ; d = dirname(d)) {
    const info = statSync(d);
    if (info.mode & 0o077 && info.uid === uid) chmodSync(d, 0o700);
    if (d === top || relative(top, d).startsWith('..') || dirname(d) === d) break;
  }
}
