// The tests' Ink is the one the console ships: run-tests.mjs builds Ink with the bundle's patches
// (src/scripts/ink-patches.mjs) into an ESM bundle for its run, and test-ink-hook.mjs makes 'ink'
// resolve to it in every test process. React stays outside the bundle, so app and Ink share one
// React.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Ink's modules that src/ui/ink-internals.ts imports by path, by the bundle entry that replaces each. */
export const INK_INTERNALS = { 'ink-stdin-context': 'components/StdinContext.js', 'ink-reconciler': 'reconciler.js' };

/** Builds Ink and its dependencies but React, with the console's patches, in a new dir; returns its entry's path. */
export async function buildTestInk() {
  // Inside node_modules, so the bundle's own imports (react) resolve to the project's; one dir
  // per run, so concurrent runs don't replace each other's.
  const cache = join(root, 'node_modules/.cache/switchboard');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(join(cache, 'ink-'));
  const { build } = await import('esbuild');
  const { esmBundleOptions } = await import('./esm-bundle.mjs');
  await build({
    // The console's own bundle options (patches, target, externals), React left outside.
    ...esmBundleOptions({ external: ['react'] }),
    // Ink, and the two of its modules the console imports by path (src/ui/ink-internals.ts): entries
    // of one split bundle, so they share Ink's single instance of each module.
    entryPoints: { ink: 'ink', ...Object.fromEntries(Object.entries(INK_INTERNALS).map(([name, file]) => [name, join(root, 'node_modules/ink/build', file)])) },
    absWorkingDir: root,
    outdir,
    // Not NODE_ENV=production: the bundled react-reconciler must run in the mode of the React
    // outside it, which the tests load as development (in the shipped bundle both are production).
    define: {},
  });
  return { entry: join(outdir, 'ink.mjs'), dir: outdir };
}
