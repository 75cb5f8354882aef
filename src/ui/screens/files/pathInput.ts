// The upload path field: `~` expansion, Tab completion, and the checks made before sending.
import { readdirSync, statSync } from 'node:fs';
import { uploadProblem } from '../../../api/upload-check.js';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';


export function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

/** Completes the last path segment: the single match (a directory gets a `/`), or the longest common prefix. */
export function completePath(typed: string): string | null {
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
  let out = head + common;
  if (names.length === 1) {
    try {
      if (statSync(join(dir, common)).isDirectory()) out += '/';
    } catch {
      /* a broken link completes like a file */
    }
  }
  return out === typed ? null : out;
}

/** Why this path can't be uploaded, or null when it can: the commands' check (src/api/upload-check.ts), on the path as typed. */
export function checkUploadPath(typed: string, maxBytes?: number): string | null {
  return uploadProblem(expandHome(typed.trim()), maxBytes, typed.trim());
}
