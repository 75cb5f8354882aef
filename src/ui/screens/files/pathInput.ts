// The upload path field: `~` expansion, Tab completion, and the checks made before sending.
import { readdirSync, statSync } from 'node:fs';
import { uploadProblem } from '../../../api/upload-check.js';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

/** What Tab makes of a path: the completed text, and when several names match, those names (a directory with a `/`). */
export interface Completion {
  value: string;
  choices: string[];
}

/**
 * Completes the last path segment: the single match (a directory gets a `/`), or the longest
 * common prefix of several, which are listed. Null when nothing matches or there is nothing to add
 * to a single match (then Tab moves on).
 */
export function completePath(typed: string): Completion | null {
  const full = expandHome(typed);
  const dir = typed.endsWith('/') ? full : dirname(full);
  const stem = typed.endsWith('/') ? '' : basename(full);
  let names: string[];
  try {
    names = readdirSync(dir || '.').filter((n) => n.startsWith(stem) && (stem.startsWith('.') || !n.startsWith('.')));
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  let common = names[0];
  for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
  const head = typed.endsWith('/') ? typed : typed.slice(0, typed.length - stem.length);
  const isDir = (n: string) => {
    try {
      return statSync(join(dir, n)).isDirectory();
    } catch {
      return false; // a broken link completes like a file
    }
  };
  let out = head + common;
  if (names.length === 1) {
    if (isDir(common)) out += '/';
    return out === typed ? null : { value: out, choices: [] };
  }
  return { value: out, choices: names.sort().map((n) => (isDir(n) ? `${n}/` : n)) };
}

/** Why this path can't be uploaded, or null when it can: the commands' check (src/api/upload-check.ts), on the path as typed. */
export function checkUploadPath(typed: string, maxBytes?: number): string | null {
  return uploadProblem(expandHome(typed.trim()), maxBytes, typed.trim());
}
