// The windowed table keeps each row's formatted line while its columns and width stay: a cursor
// move formats no cells and scrolling by one formats one row. These tests count the cell
// formatting and check the frame (the selected row in inverse video) after every move.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReactElement } from 'react';
import type { Column } from '../../src/format/column.js';
import type { Table as TableType } from '../../src/ui/components/Table.js';

// Inverse video only shows with colours on; chalk reads this when Ink loads, hence the late imports.
process.env.FORCE_COLOR = '1';
let Table: typeof TableType;
let render: (tree: ReactElement) => { lastFrame(): string | undefined; rerender(tree: ReactElement): void; unmount(): void };
before(async () => {
  ({ Table } = await import('../../src/ui/components/Table.js'));
  ({ render } = await import('ink-testing-library'));
});

interface Item {
  id: string;
  n: number;
  label: string;
}
const ITEMS: Item[] = Array.from({ length: 100 }, (_, n) => ({ id: `id${n}`, n, label: `label ${n}` }));
const INVERSE = '\x1b[7m';
const BODY = 10;

/** A body line as drawn: the N column is as wide as its widest cell ("row 99"), then the 2-space gap. */
const lineFor = (n: number, label = `label ${n}`) => `${`row ${n}`.padEnd(6)}  ${label}`;

function counted() {
  const count = { cells: 0 };
  const columns: Column<Item>[] = [
    { header: 'N', width: 8, priority: 1, value: (r) => (count.cells++, `row ${r.n}`) },
    { header: 'LABEL', width: 10, priority: 2, grow: true, value: (r) => (count.cells++, r.label) },
  ];
  return { count, columns };
}

function table(columns: Column<Item>[], rows: Item[], cursor: number, scroll: number, width = 40) {
  return <Table columns={columns} rows={rows} cursor={cursor} scroll={scroll} height={BODY + 1} width={width} rowKey={(r) => r.id} />;
}

/** The body lines of the frame, and which of them is drawn in inverse video. */
function body(frame: string): { lines: string[]; selected: string[] } {
  const lines = frame.split('\n').slice(1);
  return {
    lines: lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()),
    selected: lines.filter((l) => l.includes(INVERSE)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()),
  };
}

test('moving the cursor inside the window formats no cells, and the highlight follows the cursor', () => {
  const { count, columns } = counted();
  const app = render(table(columns, ITEMS, 0, 0));
  try {
    // Every row's cells measured once for the widths, then the rows in view formatted.
    assert.equal(count.cells, ITEMS.length * 2 + BODY * 2);
    for (let cursor = 0; cursor < BODY; cursor++) {
      app.rerender(table(columns, ITEMS, cursor, 0));
      const b = body(app.lastFrame() ?? '');
      assert.equal(b.lines.length, BODY);
      assert.match(b.lines[0], /^row 0 /);
      assert.deepEqual(b.selected, [lineFor(cursor)]);
    }
    assert.equal(count.cells, ITEMS.length * 2 + BODY * 2, 'no cell measured or formatted again while the cursor moved');
  } finally {
    app.unmount();
  }
});

test('scrolling by one formats only the row coming into view', () => {
  const { count, columns } = counted();
  const app = render(table(columns, ITEMS, BODY - 1, 0));
  try {
    for (let cursor = BODY; cursor < BODY + 5; cursor++) {
      const before = count.cells;
      app.rerender(table(columns, ITEMS, cursor, cursor - BODY + 1));
      assert.equal(count.cells - before, 2, `one new row at cursor ${cursor}`);
      const b = body(app.lastFrame() ?? '');
      assert.match(b.lines[0], new RegExp(`^row ${cursor - BODY + 1} `));
      assert.match(b.lines[BODY - 1], new RegExp(`^row ${cursor} `));
      assert.deepEqual(b.selected, [lineFor(cursor)]);
    }
    // Back up: the rows scrolled out were kept, nothing is formatted again.
    const kept = count.cells;
    app.rerender(table(columns, ITEMS, 3, 3));
    assert.equal(count.cells, kept);
    assert.deepEqual(body(app.lastFrame() ?? '').selected, [lineFor(3)]);
  } finally {
    app.unmount();
  }
});

test('a replaced row, new columns or a new width are drawn fresh, never from stale lines', () => {
  const { columns } = counted();
  const app = render(table(columns, ITEMS, 0, 0));
  try {
    // The store replaces a changed call with a new object.
    const rows = ITEMS.map((r) => (r.n === 2 ? { ...r, label: 'now ended' } : r));
    app.rerender(table(columns, rows, 0, 0));
    assert.match(body(app.lastFrame() ?? '').lines[2], /^row 2 +now ended$/);

    // Columns that look names up anew (e.g. an assistant renamed) redraw every row.
    const renamed: Column<Item>[] = [columns[0], { ...columns[1], value: (r) => r.label.toUpperCase() }];
    app.rerender(table(renamed, rows, 1, 0));
    const b = body(app.lastFrame() ?? '');
    assert.match(b.lines[0], /^row 0 +LABEL 0$/);
    assert.deepEqual(b.selected, [lineFor(1, 'LABEL 1')]);

    // Narrower: the label column drops out, and so does its text.
    app.rerender(table(renamed, rows, 1, 0, 9));
    assert.deepEqual(body(app.lastFrame() ?? '').lines.slice(0, 2), ['row 0', 'row 1']);
  } finally {
    app.unmount();
  }
});

test('the kept lines are bounded: after scrolling through 1,500 rows the first ones are formatted again', () => {
  const { count, columns } = counted();
  const many: Item[] = Array.from({ length: 1500 }, (_, n) => ({ id: `id${n}`, n, label: `label ${n}` }));
  const app = render(table(columns, many, 0, 0));
  try {
    for (let cursor = BODY; cursor < many.length; cursor += BODY) app.rerender(table(columns, many, cursor, cursor - BODY + 1));
    const before = count.cells;
    app.rerender(table(columns, many, 0, 0));
    assert.equal(count.cells - before, BODY * 2, 'the top rows were no longer kept');
    assert.match(body(app.lastFrame() ?? '').lines[0], /^row 0 /);
  } finally {
    app.unmount();
  }
});
