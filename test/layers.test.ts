// The layers and their arrows (src/README.md): no import runs back up. Reads every import of
// src/ (static, dynamic and type-only) and checks which top-level folder it reaches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../src');

/** What each layer must never import (by its top-level folder or file under src/). */
const NEVER: Record<string, string[]> = {
  api: ['store', 'ui', 'commands', 'archive', 'ascode', 'testing', 'sandbox', 'target.ts', 'cli.ts'],
  archive: ['store', 'ui', 'commands', 'sandbox', 'target.ts', 'cli.ts'],
  store: ['ui', 'commands', 'sandbox', 'target.ts', 'cli.ts'],
  ui: ['commands', 'sandbox', 'cli.ts'],
  commands: ['ui', 'store', 'cli.ts'],
  sandbox: ['store', 'ui', 'commands', 'archive', 'target.ts', 'cli.ts'],
  format: ['api', 'store', 'ui', 'commands', 'archive', 'sandbox'],
};

/** The one deliberate crossing: the root command's action is the console, imported lazily. */
const ALLOWED = new Set(['commands/console.ts → ui/start.ts']);

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
});
