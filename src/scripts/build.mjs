// Bundles the CLI into dist/ with esbuild: dist/cli.js, a small CommonJS entry that answers
// `--version` itself (src/entry.cts), and dist/main.mjs + dist/chunks/*.mjs, the ESM bundle with
// code splitting: the console, the sandbox and the commands are separate chunks loaded lazily;
// dist/chunks/sync-worker.mjs is the entry of the archive sync's worker thread.
//
// `--outdir <dir>` builds the same bundle elsewhere (the benchmark builds its own copy so it never
// races a concurrent `npm test` rebuilding dist/); the dir must sit inside the repo so the
// assets/ resolve from it (the bundle reads seed data and knowledge-base samples from ../assets).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmBundleOptions } from './esm-bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : resolve(root, 'dist');
// All but test/: npm test's bundles of the test files (test-build.mjs), which a rebuild while they run must not take away.
for (const entry of existsSync(outdir) ? readdirSync(outdir) : []) if (entry !== 'test') rmSync(resolve(outdir, entry), { recursive: true, force: true });

const version = JSON.stringify(pkg.version);
// engines.node is ">=X.Y.Z": the entry refuses an older Node with one line naming X.Y.Z.
const nodeMin = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines?.node ?? '')?.[1];
if (!nodeMin) throw new Error(`package.json engines.node must read ">=X.Y.Z" (it reads ${JSON.stringify(pkg.engines?.node)})`);

await build({
  ...esmBundleOptions({ define: { __SWITCHBOARD_VERSION__: version } }),
  // The archive sync's worker thread is an entry of its own (src/archive/worker.ts finds it there).
  entryPoints: { main: resolve(root, 'src/cli.ts'), 'chunks/sync-worker': resolve(root, 'src/archive/sync-worker.ts') },
  outdir,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
});

// The entry: its one import (./cli.js, the ESM main in the source) is the bundle's main.mjs.
const mainIsBundle = {
  name: 'main-is-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/cli\.js$/ }, () => ({ path: './main.mjs', external: true }));
  },
};
await build({
  entryPoints: { cli: resolve(root, 'src/entry.cts') },
  outdir,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  // Old enough that any Node still in use parses it, so an unsupported one gets the message.
  target: 'node8',
  supported: { 'dynamic-import': true }, // kept as import(): main.mjs is ESM
  logLevel: 'warning',
  plugins: [mainIsBundle],
  define: { __SWITCHBOARD_VERSION__: version, __SWITCHBOARD_NODE_MIN__: JSON.stringify(nodeMin) },
  banner: { js: '#!/usr/bin/env node' },
});
// dist/cli.js is CommonJS whatever the package.json above says (and wherever the dir sits).
mkdirSync(outdir, { recursive: true });
writeFileSync(resolve(outdir, 'package.json'), '{ "type": "commonjs" }\n');
