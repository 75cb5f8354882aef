// The commands' terminal tables print ids whole (they are for copying); only a width too narrow
// for them cuts an id, and then as the console does: its short form (src/format/short-id.ts, its
// last characters), no ellipsis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Column } from '../../src/format/column.js';
import { toTable } from '../../src/commands/output.js';

interface Row {
  id: string;
  name: string;
}
const ROWS: Row[] = [
  { id: 'ea54c06b-f9a1-4c1e-9d3b-0c6f3e2a9b71', name: 'Front desk' },
  { id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0', name: 'Sales' },
];
const COLUMNS: Column<Row>[] = [
  { header: 'id', value: (r) => r.id, priority: 2, id: true },
  { header: 'name', value: (r) => r.name },
];

test('a terminal table that fits prints whole ids', () => {
  const text = toTable(ROWS, COLUMNS, true, false, { width: 120 });
  for (const r of ROWS) assert.ok(text.includes(`${r.id}  ${r.name}`), text);
  assert.doesNotMatch(text, /…/);
});

test('too narrow for a whole id: its short form, the end the console shows, with no ellipsis', () => {
  const ids = [{ ...COLUMNS[0], grow: true, width: 8 }, COLUMNS[1]];
  const text = toTable(ROWS, ids, true, false, { width: 30 });
  const lines = text.trimEnd().split('\n');
  assert.doesNotMatch(text, /…/, text);
  assert.match(lines[1], /^3e2a9b71\s+Front desk$/, text);
  assert.match(lines[2], /^c7d8e9f0\s+Sales$/, text);
  for (const l of lines) assert.ok(l.length <= 30, l);
});
