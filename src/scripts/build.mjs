// Bundles the CLI into dist/ with esbuild. ESM + code splitting: the console, the sandbox and
// the commands are separate chunks loaded lazily, so `--version` loads almost nothing.
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

await build({
  entryPoints: { cli: resolve(root, 'src/cli.ts') },
  outdir,
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
  define: { __SWITCHBOARD_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  banner: {
    // Some bundled CommonJS dependencies call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
});

// Under node_modules/ (a cache dir) the repo's package.json no longer scopes the files: say ESM here.
if (outdir !== resolve(root, 'dist')) {
  mkdirSync(outdir, { recursive: true });
  writeFileSync(resolve(outdir, 'package.json'), '{ "type": "module" }\n');
}
