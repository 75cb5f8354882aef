// A table's lines as plain text: the columns a layout kept (column.ts layoutColumns), each line
// padded and cut in terminal cells. The console's <Table> (src/ui/components/Table.tsx) draws
// these lines with Ink; the frame drawn before Ink has loaded (src/ui/start.ts) draws the same
// lines for the cached rows, so the hand-over shows no jump.
import { cellText, COLUMN_GAP, type layoutColumns } from './column.js';
import { pad } from './display.js';

export type Layout<T> = ReturnType<typeof layoutColumns<T>>;

const line = (cells: string[]) => cells.join(' '.repeat(COLUMN_GAP));

export function headerLine<T>(cols: Layout<T>): string {
  return line(cols.map(({ col, width: w }) => pad(col.header, w, col.align)));
}

export function rowLine<T>(cols: Layout<T>, row: T): string {
  return line(cols.map(({ col, width: w }) => pad(cellText(col.value(row)), w, col.align)));
}

/** Rows of a table of `height` lines left for its body (the header takes one). */
export function tableBodyHeight(height: number): number {
  return Math.max(1, height - 1);
}
