// Runs every test/**/*.test.ts(x) with Node's built-in runner through tsx. Each file also runs
// alone the same way (`node --import tsx --test FILE`): Ink is patched where it is installed.
// Extra args pass through: substrings that pick test files (run-tests.mjs test/ui).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

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
console.log(`# tests on Node ${process.version}`);
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
