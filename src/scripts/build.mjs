// Bundles the CLI into dist/ with esbuild: dist/cli.js, a small CommonJS entry that answers
// `--version` itself (src/entry.cts), and dist/main.mjs + dist/chunks/*.mjs, the ESM bundle with
// code splitting: the console, the sandbox and the commands are separate chunks loaded lazily.
//
// `--outdir <dir>` builds the same bundle elsewhere (the benchmark builds its own copy so it never
// races a concurrent `npm test` rebuilding dist/); the dir must sit inside the repo so the
// external better-sqlite3 and assets/ resolve from it.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inkPatches } from './ink-patches.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : resolve(root, 'dist');
rmSync(outdir, { recursive: true, force: true });

const define = { __SWITCHBOARD_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' };

await build({
  entryPoints: { main: resolve(root, 'src/cli.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [inkPatches],
  // Native addon and optional dev-only imports stay outside the bundle.
  external: ['better-sqlite3', 'react-devtools-core'],
  define,
  banner: {
    // Some bundled CommonJS dependencies call require(); give them one.
    js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
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
  target: 'node20.18',
  logLevel: 'warning',
  plugins: [mainIsBundle],
  define,
  banner: { js: '#!/usr/bin/env node' },
});
// dist/cli.js is CommonJS whatever the package.json above says (and wherever the dir sits).
mkdirSync(outdir, { recursive: true });
writeFileSync(resolve(outdir, 'package.json'), '{ "type": "commonjs" }\n');
