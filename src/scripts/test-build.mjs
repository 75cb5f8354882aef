// Bundles the test files for `npm test` (run-tests.mjs): each test file becomes one ESM module in
// dist/test/ with the source and the packages it imports, split into shared chunks. The packages are
// read where they are installed (Ink patched there, src/patches), so the code under test is the code
// tsx would load and the console ships, read once per process instead of a few hundred modules
// resolved, lexed and transformed one by one.
// Every module keeps its own source location as import.meta.url/dirname/filename: tests and the
// sandbox find fixtures, assets/ and source files from there exactly as they do under tsx.
// A test file still runs alone from the source: `node --import tsx --test FILE`.
import { build, transform } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The archive's worker thread runs a file of its own, which a worker cannot load through tsx here:
 * it is an entry of this build where the dist bundle keeps it (chunks/sync-worker.mjs), and
 * src/archive/worker.ts is given a location in chunks/ so that it finds it.
 */
const WORKER_ENTRY = 'src/archive/sync-worker.ts';
const WORKER_FINDER = 'src/archive/worker.ts';

/**
 * The sandbox some tests start as a process of its own (test/support/child-sandbox.ts): an entry of
 * this build too, so that each start loads one bundle rather than compiling its modules through tsx.
 */
const SANDBOX_CHILD = { in: 'test/support/sandbox-child.ts', out: 'support/sandbox-child' };
/** The archive sync a test kills with SIGKILL and starts again (test/archive/sync-windows.test.ts): the same, for the same reason. */
const SYNC_CHILD = { in: 'test/support/sync-child.ts', out: 'support/sync-child' };

/**
 * Packages only the tests use, as tools rather than code under test: they stay in node_modules, where
 * some find their own files or binaries by their location (esbuild its service, openapi-typescript
 * and Redocly their rule sets).
 */
const TEST_TOOLS = ['@redocly/openapi-core', '@xterm/headless', 'ajv', 'ajv-formats', 'esbuild', 'fast-check', 'openapi-fetch', 'openapi-typescript', 'tsx'];

/** test/ui/x.test.tsx → ui/x.test */
const outName = (file) => file.replace(/^test\//, '').replace(/\.tsx?$/, '');

/** Builds `files` (test file paths relative to `root`) into `outdir`; resolves to the built paths, in the same order. */
export async function buildTests(root, files, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const tsconfigRaw = readFileSync(resolve(root, 'tsconfig.json'), 'utf8');
  const finder = resolve(root, WORKER_FINDER);
  const sourceMeta = {
    name: 'source-meta',
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx)$/ }, (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const file = args.path === finder ? resolve(outdir, 'chunks', 'worker.mjs') : args.path;
        // define works on the syntax tree: the same words inside a string (code a test hands a child) stay.
        const transformed = transform(readFileSync(args.path, 'utf8'), {
          loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
          sourcefile: args.path,
          sourcemap: 'inline',
          jsx: 'automatic',
          format: 'esm',
          target: 'node22',
          supported: { 'regexp-set-notation': true },
          tsconfigRaw,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(file).href),
            'import.meta.dirname': JSON.stringify(dirname(file)),
            'import.meta.filename': JSON.stringify(file),
          },
        });
        // A syntax error is reported as the build's own, at its file, line and column.
        return transformed.then(
          ({ code }) => ({ contents: code, loader: 'js' }),
          (err) => ({ errors: err.errors ?? [{ text: String(err) }] }),
        );
      });
    },
  };
  await build({
    entryPoints: [
      ...files.map((f) => ({ in: resolve(root, f), out: outName(f) })),
      { in: resolve(root, WORKER_ENTRY), out: 'chunks/sync-worker' },
      { in: resolve(root, SANDBOX_CHILD.in), out: SANDBOX_CHILD.out },
      { in: resolve(root, SYNC_CHILD.in), out: SYNC_CHILD.out },
    ],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    supported: { 'regexp-set-notation': true },
    // Packages are bundled too, as in dist/ (Ink and the others patched where they are installed,
    // src/patches): Node then neither resolves a package's files one by one nor lexes each CommonJS
    // package for its exports, in every test process.
    external: ['react-devtools-core', ...TEST_TOOLS],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceMeta],
  });
  return files.map((f) => resolve(outdir, `${outName(f)}.mjs`));
}
