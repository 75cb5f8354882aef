// Runs every test/**/*.test.ts(x) with Node's built-in runner through tsx, with the patched Ink
// the console ships in place of node_modules' (src/scripts/test-ink.mjs, test-ink-hook.mjs).
// Extra args pass through: substrings that pick test files (run-tests.mjs test/ui).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildTestInk } from './test-ink.mjs';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'bench' || d.name === 'support' ? [] : walk(p);
    return /\.test\.tsx?$/.test(d.name) ? [p] : [];
  });
}

const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const ink = await buildTestInk();
const env = { ...process.env, SWITCHBOARD_TEST_INK: ink.entry };
const hook = new URL('./test-ink-hook.mjs', import.meta.url).href;
console.log(`# tests on Node ${process.version}`);
const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', hook, '--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
rmSync(ink.dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
