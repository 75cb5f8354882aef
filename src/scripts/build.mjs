// Bundles the CLI into dist/ with esbuild: dist/cli.js, a small CommonJS entry that answers
// `--version` itself (src/entry.cts); dist/commands.cjs, the commands as one CommonJS file (a
// command starts without Node's ESM loader); and dist/main.mjs + dist/chunks/*.mjs, the ESM bundle
// with code splitting: the console, the sandbox and the sandbox's child process, loaded lazily
// (dist/console-start.mjs and dist/sandbox-server.mjs are the entries the commands import);
// dist/chunks/sync-worker.mjs is the entry of the archive sync's worker thread.
//
// `--outdir <dir>` builds the same bundle elsewhere (the benchmark builds its own copy so it never
// races a concurrent `npm test` rebuilding dist/); the dir must sit inside the repo so the
// assets/ resolve from it (the bundle reads seed data and knowledge-base samples from ../assets).
//
// The bundle is built from patched packages only: src/patches are applied to node_modules here,
// before esbuild reads them (patch-package leaves a package whose patches are in untouched, and
// fails on one that no longer applies). Not at install time: the published package runs no script
// when it is installed, and has no patch-package to run (src/patches/README.md).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmBundleOptions } from './esm-bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const patching = spawnSync(process.execPath, [fileURLToPath(import.meta.resolve('patch-package/index.js')), '--patch-dir', 'src/patches', '--error-on-fail'], {
  cwd: root,
  encoding: 'utf8',
});
if (patching.status !== 0) {
  process.stderr.write(patching.stdout + patching.stderr);
  console.error('build.mjs: the patches in src/patches did not apply to node_modules; nothing was built');
  process.exit(1);
}
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : resolve(root, 'dist');
// All but test/: npm test's bundles of the test files (test-build.mjs), which a rebuild while they run must not take away.
for (const entry of existsSync(outdir) ? readdirSync(outdir) : []) if (entry !== 'test') rmSync(resolve(outdir, entry), { recursive: true, force: true });

const version = JSON.stringify(pkg.version);
/** The ESM entries the CommonJS commands import (source under the repo → name in dist/). */
const ESM_PARTS = { 'src/ui/start.ts': 'console-start', 'src/sandbox/server.ts': 'sandbox-server' };

await build({
  ...esmBundleOptions({ define: { __SWITCHBOARD_VERSION__: version } }),
  // The archive sync's worker thread is an entry of its own (src/archive/worker.ts finds it there).
  entryPoints: {
    main: resolve(root, 'src/cli.ts'),
    'chunks/sync-worker': resolve(root, 'src/archive/sync-worker.ts'),
    ...Object.fromEntries(Object.entries(ESM_PARTS).map(([src, name]) => [name, resolve(root, src)])),
  },
  outdir,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
});

// The commands: one CommonJS file that dist/cli.js runs, whose lazy imports of the console and
// the sandbox's server load the ESM entries above (they need ESM-only packages and are large).
const esmParts = {
  name: 'esm-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (a) => {
      if (a.kind !== 'dynamic-import') return undefined;
      const name = ESM_PARTS[join(a.resolveDir, a.path).slice(root.length).replace(/\.js$/, '.ts')];
      return name ? { path: `./${name}.mjs`, external: true } : undefined;
    });
  },
};
await build({
  entryPoints: { commands: resolve(root, 'src/cli.ts') },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  // import() of what stays outside (Node's modules, the ESM entries) becomes require(): the file runs
  // in a vm.Script (src/code-cache.cts), where import() would need an experimental loader option.
  supported: { 'regexp-set-notation': true, 'dynamic-import': false },
  logLevel: 'warning',
  sourcemap: 'linked',
  external: ['react-devtools-core'],
  plugins: [esmParts],
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__sbImportMetaUrl', __SWITCHBOARD_VERSION__: version },
  banner: { js: "var __sbImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// esbuild escapes what is not ASCII in strings, but not in comments, regular expressions or raw
// templates. One such character makes V8 hold the whole source two bytes a character (an
// ellipsis in one comment made the console's chunk of React and Ink twice its size in memory), and
// the code cache reads an ASCII file as latin1, the cheapest decoding: so escape them, in the
// commands file and in every ESM file. In a comment or a regular expression \uXXXX means the same;
// a raw template would read it as six characters (the one in the bundle is a RegExp's source, where
// it means the same again).
const asciiOnly = (file) =>
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
asciiOnly(resolve(outdir, 'commands.cjs'));
// dist/test (the bundled tests, made afresh by each run) is not the program's.
for (const file of readdirSync(outdir, { recursive: true })) if (file.endsWith('.mjs') && !/^test[\\/]/.test(file)) asciiOnly(resolve(outdir, file));

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
  define: { __SWITCHBOARD_VERSION__: version },
  banner: { js: '#!/usr/bin/env node' },
});
// The bin is executable as built: npm makes it so when it links it, but only then, and a build
// after that (npx's cache keeps its link) would leave `npx switchboard` with "Permission denied".
chmodSync(resolve(outdir, 'cli.js'), 0o755);
// dist/cli.js is CommonJS whatever the package.json above says (and wherever the dir sits).
mkdirSync(outdir, { recursive: true });
writeFileSync(resolve(outdir, 'package.json'), '{ "type": "commonjs" }\n');
