// What each Ink patch (src/scripts/ink-patches.mjs) earns: the console's call log, bundled once
// per set of patches, moved through with j/k on a 120×40 terminal stand-in; bytes written, writes
// and CPU per key for each. `node --import tsx test/bench/ink-frames.ts [keys] [runs]`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { startTestSandbox } from '../support/sandbox.js';

const root = resolve(import.meta.dirname, '../..');
type Patch = { name: string };
const { esmBundleOptions } = (await import(new URL('../../src/scripts/esm-bundle.mjs', import.meta.url).href)) as { esmBundleOptions: () => BuildOptions };
const { INK_PATCHES, inkPatchesPlugin } = (await import(new URL('../../src/scripts/ink-patches.mjs', import.meta.url).href)) as {
  INK_PATCHES: Patch[];
  inkPatchesPlugin: (patches: Patch[]) => Plugin;
};
const keys = Number(process.argv[2] ?? 400);
const runs = Number(process.argv[3] ?? 5);
const names = INK_PATCHES.map((p) => p.name);
const variants: { label: string; patches: string[] }[] = [
  { label: 'Ink 8 as published', patches: [] },
  ...names.map((n) => ({ label: `all but ${n}`, patches: names.filter((m) => m !== n) })),
  { label: 'all patches (shipped)', patches: names },
];

const dir = mkdtempSync(join(root, 'node_modules/.sb-ink-frames-'));
const sb = await startTestSandbox();
try {
  const bundles = await Promise.all(
    variants.map(async (v, i) => {
      const outdir = join(dir, String(i));
      const opts = esmBundleOptions();
      await build({
        ...opts,
        plugins: [inkPatchesPlugin(INK_PATCHES.filter((p) => v.patches.includes(p.name)))],
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
      `${v.label.padEnd(28)} ${median(rs.map((x) => x.bytesPerKey)).toFixed(0).padStart(6)} B/key  ${median(rs.map((x) => x.writesPerKey)).toFixed(2)} ` +
        `writes/key  ${median(rs.map((x) => x.cpuMsPerKey)).toFixed(2)} ms CPU/key  (CPU runs: ${rs.map((x) => x.cpuMsPerKey.toFixed(2)).join(' ')})`,
    );
  }
} finally {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
}
