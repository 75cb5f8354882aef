// The layers and their arrows (src/README.md): no import runs back up. Reads every import of
// src/ (static, dynamic and type-only) and checks which top-level folder it reaches. Then the
// rooms: the store and the UI reach the archive only through its API, never SQLite itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../src');

/** What each layer must never import (by its top-level folder or file under src/). */
const NEVER: Record<string, string[]> = {
  api: ['store', 'ui', 'commands', 'archive', 'ascode', 'scenarios', 'sandbox', 'target.ts', 'cli.ts'],
  archive: ['store', 'ui', 'commands', 'sandbox', 'target.ts', 'cli.ts'],
  store: ['ui', 'commands', 'sandbox', 'target.ts', 'cli.ts'],
  ui: ['commands', 'sandbox', 'cli.ts'],
  commands: ['ui', 'store', 'cli.ts'],
  mcp: ['ui', 'store', 'sandbox', 'cli.ts'],
  sandbox: ['store', 'ui', 'commands', 'archive', 'target.ts', 'cli.ts'],
  format: ['api', 'store', 'ui', 'commands', 'archive', 'sandbox'],
};

/**
 * The deliberate crossings: the root command's action is the console, imported lazily; and the
 * store's Route union is made from the screen folders' specs, a type import only (no code runs).
 */
const ALLOWED = new Set(['commands/console.ts → ui/start.ts', 'store/types.ts → ui/screens/routes.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.(ts|tsx|cts)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [join(dir, d.name)] : [],
  );
}

const layerOf = (path: string) => relative(SRC, path).split('/')[0];

test('no import runs back up the layers', () => {
  const wrong: string[] = [];
  for (const file of sources(SRC)) {
    const from = layerOf(file);
    const never = NEVER[from];
    if (!never) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
      const to = layerOf(target);
      const edge = `${relative(SRC, file)} → ${relative(SRC, target).replace(/\.tsx?$/, '.ts')}`;
      if (never.includes(to) && !ALLOWED.has(edge)) wrong.push(edge);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the check sees imports: the console reaches the store, and the one crossing is there', () => {
  const ui = readFileSync(join(SRC, 'ui/run.tsx'), 'utf8');
  assert.match(ui, /from '\.\.\/store\/index\.js'/);
  assert.match(readFileSync(join(SRC, 'commands/console.ts'), 'utf8'), /import\('\.\.\/ui\/start\.js'\)/);
  // The store reaches the specs for their types alone: every import of ui/ in store/types.ts is `import type`.
  const types = readFileSync(join(SRC, 'store/types.ts'), 'utf8');
  const toUi = [...types.matchAll(/^import\b[^;]*'\.\.\/ui\/[^']+'/gm)].map((m) => m[0]);
  assert.ok(toUi.length > 0, 'store/types.ts takes Route from the specs');
  for (const line of toUi) assert.match(line, /^import type /, line);
});

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
      if (/\/archive\/(?!index\.js$)/.test(m)) found.push(`${name} imports ${m} (not the archive's API)`);
    }
    if (/\.prepare\(|\bDatabaseSync\b|\bSELECT\s+\S+[\s\S]{0,200}?\bFROM\b/.test(readFileSync(file, 'utf8'))) found.push(`${name} holds SQL or a connection`);
  }
  assert.deepEqual(found, []);
});

test('the archive imports neither the store nor the UI', () => {
  const found = sources(join(SRC, 'archive')).flatMap((file) =>
    importsOf(file)
      .filter((m) => /\/(store|ui)\//.test(m))
      .map((m) => `${relative(SRC, file)} imports ${m}`),
  );
  assert.deepEqual(found, []);
});

test('the commands reach the standard streams only through io(), so a run handed its own streams writes to those', () => {
  const direct = sources(join(SRC, 'commands'))
    .filter((f) => !f.endsWith('/io.ts'))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bprocess\.std(?:in|out|err)\b/.test(line.replace(/\/\/.*$/, '')) ? [`${relative(SRC, f)}:${i + 1}`] : [])),
    );
  assert.deepEqual(direct, []);
  assert.match(readFileSync(join(SRC, 'commands/runtime.ts'), 'utf8'), /io\(\)\.stderr\.write/);
});
