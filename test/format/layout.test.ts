// The one table layout (src/format/column.ts): the console sizes columns from their declared
// widths; the commands pass their cells' widths, so a column is never wider than its widest cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutColumns, type Column } from '../../src/format/column.js';
import { fitColumns } from '../../src/format/table-text.js';

type R = Record<string, string>;
const col = (header: string, extra: Partial<Column<R>> = {}): Column<R> => ({ header, value: (r) => r[header], ...extra });

test('with cell widths: nothing changes when the table fits; too wide, growers shrink to their width, then low priorities drop', () => {
  const cols = [
    col('id', { priority: 2 }),
    col('name', { priority: 1, grow: true, width: 10 }),
    col('model', { priority: 3, grow: true, width: 8 }),
    col('created', { priority: 5 }),
  ];
  const natural = [12, 30, 20, 24];
  const widths = (w: number) => layoutColumns(cols, w, natural).map((c) => `${c.col.header}:${c.width}`);
  assert.deepEqual(widths(200), ['id:12', 'name:30', 'model:20', 'created:24'], 'never wider than the widest cell');
  // 12 + 10 + 8 + 24 + 3 gaps of 2 = 60: all fit at their least; the spare 20 is shared by the growers.
  assert.deepEqual(widths(80), ['id:12', 'name:20', 'model:18', 'created:24']);
  assert.deepEqual(widths(60), ['id:12', 'name:10', 'model:8', 'created:24']);
  assert.deepEqual(widths(40), ['id:12', 'name:13', 'model:11'], 'created (priority 5) drops first');
  assert.deepEqual(widths(25), ['id:12', 'name:11'], 'then model');
});

test('without cell widths, the console layout is as before: growers split the spare', () => {
  const cols = [col('A', { width: 10, grow: true }), col('B', { width: 10, priority: 2 }), col('C', { width: 10 })];
  assert.deepEqual(
    layoutColumns(cols, 80).map((c) => [c.col.header, c.width]),
    [
      ['A', 56],
      ['B', 10],
      ['C', 10],
    ],
  );
});

test('fitted to its view, a table measures each row once: a scroll step measures only the row it brings in, and the widths stay right', () => {
  const reads: string[] = [];
  const counted = (header: string, extra: Partial<Column<R>> = {}): Column<R> =>
    col(header, {
      value: (r) => {
        reads.push(`${header}:${r.id}`);
        return r[header];
      },
      ...extra,
    });
  const cols = [counted('id'), counted('name', { grow: true }), counted('site', { hideWhenSame: true })];
  const rows: R[] = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, name: 'n'.repeat(i % 7 === 0 ? 12 : 4), site: 'same' }));
  const view = (top: number) => fitColumns(cols, rows.slice(top, top + 10), 80);
  const shape = (l: ReturnType<typeof view>) => l.map((c) => `${c.col.header}:${c.width}`).join(' ');
  assert.equal(shape(view(0)), 'id:2 name:12', 'the widest name in view; the same site on every row is left out');
  assert.equal(reads.length, 30);
  reads.length = 0;
  assert.equal(shape(view(1)), 'id:3 name:12');
  assert.deepEqual(reads, ['id:r10', 'name:r10', 'site:r10'], 'one step down: only the row that came into view');
  reads.length = 0;
  assert.equal(shape(view(15)), 'id:3 name:12', 'r21 (12 wide) is in view');
  assert.equal(shape(view(22)), 'id:3 name:12', 'r28');
  rows[24] = { ...rows[24], site: 'other' };
  assert.equal(shape(view(22)), 'id:3 name:12 site:5', 'a replaced row is measured again: the site differs now');
});
