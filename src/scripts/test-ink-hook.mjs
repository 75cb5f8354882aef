// Imported (--import) by run-tests.mjs in every test process: 'ink', wherever it is imported
// from (the app, ink-testing-library, ink-select-input), resolves to the patched
// Ink that run-tests.mjs built (src/scripts/test-ink.mjs; its path in SWITCHBOARD_TEST_INK), so
// a test process has one Ink, the one the console ships. The resolve hook runs in the loader
// thread, which loads this file again.
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { INK_INTERNALS } from './test-ink.mjs';

const testInk = process.env.SWITCHBOARD_TEST_INK;
if (isMainThread && testInk) register(import.meta.url);

// Ink's own modules imported by path (src/ui/ink-internals.ts) → the bundle's entry for each.
const internals = testInk
  ? Object.entries(INK_INTERNALS).map(([name, file]) =>
    ({ suffix: `/node_modules/ink/build/${file}`, url: pathToFileURL(join(dirname(testInk), `${name}.mjs`)).href }))
  : [];

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'ink' && testInk) return { url: pathToFileURL(testInk).href, shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  const internal = internals.find((i) => resolved.url.endsWith(i.suffix));
  return internal ? { url: internal.url, shortCircuit: true } : resolved;
}
