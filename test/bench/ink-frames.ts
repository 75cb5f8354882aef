// What each patch on Ink's drawing path earns (src/patches): the console's call log, bundled once
// per set of patches (each row one more; with --without, all but one), moved through with j/k on a 120×40 terminal stand-in; bytes written, writes
// and CPU per key for each. `node --import tsx test/bench/ink-frames.ts [keys] [runs] [--without]`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { startTestSandbox } from '../support/sandbox.js';
import { packagesWith, patchFiles, root } from '../support/patches.js';

const { esmBundleOptions } = (await import(new URL('../../src/scripts/esm-bundle.mjs', import.meta.url).href)) as { esmBundleOptions: () => BuildOptions };
/** The packages Ink draws a frame with; the other patch (yoga's loader) is start-up only. */
const DRAWING = ['ink', 'widest-line', 'string-width'];

/** Every file of those packages taken from `packages`' copy. */
const fromCopy = (packages: string): Plugin => ({
  name: 'from-copy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      if (r.errors.length > 0 || r.external) return undefined;
      for (const pkg of DRAWING) {
        const installed = join(root, 'node_modules', pkg) + sep;
        if (r.path.startsWith(installed)) return { path: join(packages, 'node_modules', pkg, r.path.slice(installed.length)) };
      }
      return undefined;
    });
  },
});
// --without: all the patches, and all but one for each (what dropping that one costs); else cumulative.
const without = process.argv.includes('--without');
const [keysArg, runsArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const keys = Number(keysArg ?? 400);
const runs = Number(runsArg ?? 5);
const names = patchFiles()
  .filter((p) => DRAWING.includes(p.pkg))
  .map((p) => p.name);
/** Whether the diffs apply in this set (a patch's diff may need the ones before it on the same file). */
const applies = (patches: string[]): boolean => {
  try {
    rmSync(packagesWith(DRAWING, patches), { recursive: true, force: true });
    return true;
  } catch {
    console.log(`(left out: ${names.filter((n) => !patches.includes(n)).join(', ')}; a later diff needs it)`);
    return false;
  }
};
// Cumulative, in the order they are applied: each row adds one patch to the row above and shows
// what that one adds.
const variants: { label: string; patches: string[] }[] = without
  ? [
      { label: 'as published', patches: [] },
      { label: 'all', patches: names },
      ...names.map((n) => ({ label: `all but ${n}`, patches: names.filter((m) => m !== n) })).filter((v) => applies(v.patches)),
    ]
  : [{ label: 'as published', patches: [] }, ...names.map((n, i) => ({ label: `+ ${n}`, patches: names.slice(0, i + 1) }))];

const dir = mkdtempSync(join(root, 'node_modules/.sb-ink-frames-'));
const copies: string[] = [];
const sb = await startTestSandbox();
try {
  const bundles = await Promise.all(
    variants.map(async (v, i) => {
      const outdir = join(dir, String(i));
      // Ink, widest-line and string-width from a copy with only this variant's patches; the rest
      // (React) from the project.
      const packages = packagesWith(DRAWING, v.patches);
      copies.push(packages);
      const opts = esmBundleOptions();
      await build({
        ...opts,
        plugins: [fromCopy(packages)],
        nodePaths: [join(root, 'node_modules')],
        entryPoints: { main: join(root, 'test/bench/children/ink-frames.tsx') },
        outdir,
      });
      return join(outdir, 'main.mjs');
    }),
  );
  const results = variants.map(() => [] as { bytesPerKey: number; writesPerKey: number; cpuMsPerKey: number }[]);
  for (let r = 0; r < runs; r++) {
    for (const [i, bundle] of bundles.entries()) {
      // Colours on (the selected row is drawn in inverse), and not "in CI", where Ink draws only the last frame.
      const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '3' };
      delete env.CI;
      delete env.CONTINUOUS_INTEGRATION;
      // Not execFileSync: the sandbox answering the console runs in this process.
      const { stdout } = await promisify(execFile)(process.execPath, [bundle, sb.url, sb.apiKey, String(keys)], { encoding: 'utf8', env });
      results[i].push(JSON.parse(stdout.trim().split('\n').at(-1)!));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`call log, ${keys} keys × ${runs} runs (median of runs), 120×40, Node ${process.version}`);
  for (const [i, v] of variants.entries()) {
    const rs = results[i];
    console.log(
      `${v.label.padEnd(28)} ${median(rs.map((x) => x.bytesPerKey))
        .toFixed(0)
        .padStart(6)} B/key  ${median(rs.map((x) => x.writesPerKey)).toFixed(2)} ` +
        `writes/key  ${median(rs.map((x) => x.cpuMsPerKey)).toFixed(2)} ms CPU/key  (CPU runs: ${rs.map((x) => x.cpuMsPerKey.toFixed(2)).join(' ')})`,
    );
  }
} finally {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
  for (const c of copies) rmSync(c, { recursive: true, force: true });
}
