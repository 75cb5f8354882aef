// The rooms of src/README.md's layers, checked on the source: the store and the UI reach the
// archive only through its API (src/archive/index.ts), never SQLite itself; the archive imports
// neither of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

/** Every module a file imports (static, dynamic and type imports), as written. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

test('the store and the UI reach the archive through its API alone: no SQLite, no SQL', () => {
  const found: string[] = [];
  for (const file of [...sources(join(SRC, 'store')), ...sources(join(SRC, 'ui'))]) {
    const name = relative(SRC, file);
    for (const m of importsOf(file)) {
      if (m === 'node:sqlite' || /(^|\/)sqlite\.js$/.test(m)) found.push(`${name} imports ${m}`);
      if (/\/archive\/(?!index\.js$|lists\.js$)/.test(m)) found.push(`${name} imports ${m} (not the archive's API)`);
    }
    if (/\.prepare\(|\bDatabaseSync\b|\bSELECT\s+\S+[\s\S]{0,200}?\bFROM\b/.test(readFileSync(file, 'utf8'))) found.push(`${name} holds SQL or a connection`);
  }
  assert.deepEqual(found, []);
});

test('the archive imports neither the store nor the UI', () => {
  const found = sources(join(SRC, 'archive')).flatMap((file) =>
    importsOf(file).filter((m) => /\/(store|ui)\//.test(m)).map((m) => `${relative(SRC, file)} imports ${m}`));
  assert.deepEqual(found, []);
});
