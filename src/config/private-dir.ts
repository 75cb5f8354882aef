// Switchboard's own directories kept private. A leaf (node:fs and node:path only): the crash
// handler, loaded at every start, uses it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/**
 * Makes `dir` (0700 when new) and tightens it, and each directory above it up to `top`, to 0700
 * when another user could write or read it: a cache or state dir left world-writable by an old
 * install or a careless umask would let another user swap what Switchboard reads back.
 */
export function privateDir(dir: string, top: string = dir): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const uid = process.getuid?.();
  for (let d = dir; ; d = dirname(d)) {
    const info = statSync(d);
    if (info.mode & 0o077 && info.uid === uid) chmodSync(d, 0o700);
    if (d === top || relative(top, d).startsWith('..') || dirname(d) === d) break;
  }
}
