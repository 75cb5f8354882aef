// A table's lines as plain text: which columns fit, and each line padded and cut in terminal
// cells. <Table> (components/Table.tsx) draws these lines with Ink; the frame drawn before Ink
// has loaded (start.ts) draws the same lines for the cached rows, so the hand-over shows no jump.
import { cellWidth } from '../format/cells.js';
import { cellText, type Column } from '../format/column.js';
import { pad } from './format.js';

const GAP = 2;

/** Which columns fit in `width`, and how wide each is. */
export function layoutColumns<T>(columns: Column<T>[], width: number): { col: Column<T>; width: number }[] {
  const least = (c: Column<T>) => c.width ?? cellWidth(c.header);
  const byPriority = [...columns].sort((a, b) => (a.priority ?? 1) - (b.priority ?? 1));
  const chosen = new Set<Column<T>>();
  let used = 0;
  for (const c of byPriority) {
    const need = least(c) + (chosen.size ? GAP : 0);
    if (used + need > width && chosen.size) continue;
    chosen.add(c);
    used += need;
  }
  const visible = columns.filter((c) => chosen.has(c));
  const growers = visible.filter((c) => c.grow);
  const spare = Math.max(0, width - used);
  return visible.map((c) => {
    const share = growers.length ? Math.floor(spare / growers.length) + (c === growers[0] ? spare % growers.length : 0) : 0;
    return { col: c, width: Math.min(least(c) + (c.grow ? share : 0), Math.max(1, width)) };
  });
}

export type Layout<T> = ReturnType<typeof layoutColumns<T>>;

const line = (cells: string[]) => cells.join(' '.repeat(GAP));

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
