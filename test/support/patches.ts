// The changes the console makes to Ink and a few other packages are unified diffs in src/patches,
// applied to node_modules (patch-package, when src/scripts/build.mjs builds). For a test or a bench
// that compares with the packages as published, or with only some of the patches, this makes a
// copy of the installed packages with the patches taken back out (git apply -R), then put back in
// as asked. The copy lives outside the repository, so git applies the diffs as plain patches.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');
const PATCH_DIR = join(root, 'src/patches');

export interface PatchFile {
  /** the diff's path */
  path: string;
  /** the package it changes */
  pkg: string;
  /** what it is called (`output-caches`, `scroll`, …) */
  name: string;
  /** its place among the package's patches (applied in this order) */
  seq: number;
}

/** Every patch, in the order patch-package applies them. */
export function patchFiles(): PatchFile[] {
  return readdirSync(PATCH_DIR)
    .filter((f) => f.endsWith('.patch'))
    .map((f) => {
      // <package>+<version>+<seq>+<name>.patch (a scope's / is written +)
      const m = /^(.+)\+[^+]+\+(\d+)\+(.+)\.patch$/.exec(f);
      if (!m) throw new Error(`${f}: not a <package>+<version>+<seq>+<name>.patch file`);
      return { path: join(PATCH_DIR, f), pkg: m[1].replace('+', '/'), name: m[3], seq: Number(m[2]) };
    })
    .sort((a, b) => a.pkg.localeCompare(b.pkg) || a.seq - b.seq);
}

const gitApply = (cwd: string, patch: string, reverse: boolean) =>
  execFileSync('git', ['apply', ...(reverse ? ['-R'] : []), '--whitespace=nowarn', patch], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * A new directory holding node_modules/<pkg> for each of `pkgs`, as published plus the patches
 * named in `keep` (in their order). Bare imports from the copy resolve with esbuild's
 * `nodePaths: [join(root, 'node_modules')]`. Throws when a patch does not come out or go back in.
 */
export function packagesWith(pkgs: readonly string[], keep: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-patched-'));
  const all = patchFiles();
  for (const pkg of pkgs) {
    cpSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg), { recursive: true });
    const own = all.filter((p) => p.pkg === pkg);
    for (const p of [...own].reverse()) gitApply(dir, p.path, true);
    for (const p of own) if (keep.includes(p.name)) gitApply(dir, p.path, false);
  }
  return dir;
}
