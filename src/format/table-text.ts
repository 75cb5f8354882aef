// A table's lines as plain text: the columns a layout kept (column.ts layoutColumns), each line
// padded and cut in terminal cells. The console's <Table> (src/ui/components/Table.tsx) draws
// these lines with Ink; the frame drawn before Ink has loaded (src/ui/start.ts) draws the same
// lines for the cached rows, so the hand-over shows no jump.
import { cellText, COLUMN_GAP, layoutColumns, type Column } from './column.js';
import { pad } from './display.js';
import { cellWidth } from './cells.js';
import { escapeLine } from './escape.js';
import { SHORT_ID_LEAST, shortIdLength, shortIdOf } from './short-id.js';

/** The columns kept and their widths; an id column also carries its list's short-id length (short-id.ts). */
export type Layout<T> = (ReturnType<typeof layoutColumns<T>>[number] & { idLength?: number })[];

const line = (cells: string[]) => cells.join(' '.repeat(COLUMN_GAP));

export function headerLine<T>(cols: Layout<T>): string {
  return line(cols.map(({ col, width: w }) => pad(col.header, w, col.align)));
}

/**
 * An id too long for its column, as its short form (short-id.ts: its last `length` characters, no
 * ellipsis, what the palette takes back), padded to the column; undefined when the text is not
 * such an id or fits. The console's tables and the commands' terminal tables show ids alike.
 */
export function shortId(text: string, w: number, length = SHORT_ID_LEAST): string | undefined {
  return text.length > w && /^[\x21-\x7e]*$/.test(text) ? shortIdOf(text, Math.min(length, w)).padEnd(w) : undefined;
}

function cell<T>(col: Column<T>, row: T, w: number, idLength?: number): string {
  const text = cellText(col.value(row));
  return (col.id && shortId(text, w, idLength)) || pad(text, w, col.align);
}

export function rowLine<T>(cols: Layout<T>, row: T): string {
  return line(cols.map(({ col, width: w, idLength }) => cell(col, row, w, idLength)));
}

/** Rows measured for a layout: enough for what a screen shows and its neighbours, without measuring a long list on every change. */
const MEASURED_ROWS = 500;

/**
 * The console's layout for these rows (the <Table> and the frame before Ink both use it): each
 * column as wide as its widest cell, growers shrinking first, and a `hideWhenSame` column left
 * out when every row holds the same value (it says nothing about any one row). An id column with
 * no room for whole ids is as wide as its short ids, and gives the rest to the other columns.
 * `idLength`: the short-id length of the list these rows are part of (default: of these rows).
 */
export function fitColumns<T>(columns: readonly Column<T>[], rows: readonly T[], width: number, idLength?: number): Layout<T> {
  const sample = rows.length > MEASURED_ROWS ? rows.slice(0, MEASURED_ROWS) : rows;
  if (sample.length === 0) return layoutColumns(columns, width);
  const cells = sample.map((r) => measuredCells(columns, r));
  const shown: Column<T>[] = [];
  const natural: number[] = [];
  const idLengths = new Map<Column<T>, number>();
  columns.forEach((c, i) => {
    if (c.hideWhenSame && cells.length > 1 && cells.every((m) => m.texts[i] === cells[0].texts[i])) return;
    const widest = cells.reduce((most, m) => Math.max(most, m.widths[i]), cellWidth(c.header));
    if (c.id) {
      const n = idLength ?? shortIdLength(rows.map((r) => cellText(c.value(r))));
      // The short ids are never cut: the column is at least as wide as they are.
      c = { ...c, width: Math.min(widest, Math.max(c.width ?? 0, n)) };
      idLengths.set(c, n);
    }
    shown.push(c);
    natural.push(widest);
  });
  let fitted = layoutColumns(shown, width, natural, 'priority');
  // An id column that cannot show whole ids shows short ones: the spare it was given goes to the others.
  const cut = fitted.filter((f) => f.col.id && f.width < natural[shown.indexOf(f.col)]);
  if (cut.length) {
    for (const f of cut) natural[shown.indexOf(f.col)] = Math.max(f.col.width ?? 0, cellWidth(f.col.header));
    fitted = layoutColumns(shown, width, natural, 'priority');
  }
  return fitted.map((f) => {
    const n = idLengths.get(f.col);
    return n === undefined ? f : { ...f, idLength: n };
  });
}

interface Measured {
  texts: string[];
  widths: number[];
}

/**
 * Each row's cells as fitColumns measures them, kept for as long as the row and the columns
 * live: a table fitted to its view measures again on every scroll step, and a step brings one
 * new row into view. Rows are objects the store replaces when they change, never mutates.
 */
const measured = new WeakMap<object, WeakMap<object, Measured>>();

function measuredCells<T>(columns: readonly Column<T>[], row: T): Measured {
  if (typeof row !== 'object' || row === null) return measureCells(columns, row);
  let byRow = measured.get(columns);
  if (!byRow) measured.set(columns, (byRow = new WeakMap()));
  let m = byRow.get(row);
  if (!m) byRow.set(row, (m = measureCells(columns, row)));
  return m;
}

function measureCells<T>(columns: readonly Column<T>[], row: T): Measured {
  const texts = columns.map((c) => escapeLine(cellText(c.value(row))));
  return { texts, widths: texts.map(cellWidth) };
}

/** Rows of a table of `height` lines left for its body (the header takes one). */
export function tableBodyHeight(height: number): number {
  return Math.max(1, height - 1);
}

/** A list's order by a column's header (the console's sort key). */
interface Order {
  column: string;
  desc: boolean;
}

/** The columns with the sorted one's header marked ▲ (ascending) or ▼, so the header shows the order. */
export function markSorted<T>(columns: Column<T>[], order: Order | undefined): Column<T>[] {
  if (!order) return columns;
  return columns.map((c) => (c.header === order.column ? { ...c, header: `${c.header} ${order.desc ? '▼' : '▲'}` } : c));
}

/** The rows in that order (stable; empty cells last either way); the same array when there is none. */
export function sortRows<T>(rows: T[], columns: readonly Column<T>[], order: Order | undefined): T[] {
  const col = order && columns.find((c) => c.header === order.column);
  if (!order || !col) return rows;
  const key = (r: T) => {
    const v = col.sortBy ? col.sortBy(r) : col.value(r);
    return typeof v === 'number' ? v : v === null || v === undefined || v === '' || v === '—' ? null : String(v).toLowerCase();
  };
  const keyed = rows.map((r, i) => ({ r, i, k: key(r) }));
  const sign = order.desc ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
    return a.k < b.k ? -sign : a.k > b.k ? sign : a.i - b.i;
  });
  return keyed.map((x) => x.r);
}
