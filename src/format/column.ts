// One column of a table of records, as both the console's <Table> (src/ui/components/Table.tsx)
// and the commands' printers (src/commands/output.ts) use it, with the one layout both use to fit
// a terminal's width. It lives here, in a leaf that imports only the escaping and cells next to
// it, because neither of those layers may import the other (ui → store → api, commands → api)
// and it is not the wire's business (src/api), yet a resource's columns should be written once
// in one shape whichever surface shows them.

import { cellWidth } from './cells.js';
import { escapeText } from './escape.js';

export type Cell = string | number | boolean | null | undefined;
export type Tone = 'green' | 'yellow' | 'red' | 'dim' | 'cyan';

export interface Column<T> {
  /** The heading: the commands print it upper-cased, the console as written. */
  header: string;
  value: (record: T) => Cell;
  /** Colour for this cell on a colour terminal (the commands' tables). */
  tone?: (record: T) => Tone | undefined;
  /** The console's layout: least width in cells (default: the header's). */
  width?: number;
  /** The console's layout: 1 (the default) is always shown; higher numbers drop first when space runs out. */
  priority?: number;
  /** The console's layout: takes a share of the spare width. */
  grow?: boolean;
  align?: 'left' | 'right';
  /** A service-made id: the commands' terminal tables show it short, as the console does (unless --wide). */
  id?: boolean;
  /** The console leaves the column out when every row holds the same value. */
  hideWhenSame?: boolean;
  /** What the console sorts the column by, when not its text (a size in bytes, a duration in seconds). */
  sortBy?: (record: T) => number | string | null | undefined;
}

/** A cell as text: empty for nothing; service text escaped (escapeText), so it may still hold line breaks. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  return escapeText(String(v));
}

/** Cells between two columns, in the console's tables and the commands' terminal tables. */
export const COLUMN_GAP = 2;

/**
 * Which columns fit in `width` cells, and how wide each is: the one layout of the console's
 * <Table> and the commands' terminal tables. Columns are taken by priority (1 first) while their
 * least width fits; the spare width goes to the `grow` columns.
 *
 * The console sizes columns from their declared widths (`natural` not given): a grower takes an
 * equal share of the spare. The commands know their cells' widths (`natural`, per column):
 * a column other than a grower is as wide as its widest cell, a grower may shrink to its declared
 * width and takes the spare up to its widest cell.
 */
export function layoutColumns<T>(
  columns: readonly Column<T>[],
  width: number,
  natural?: readonly number[],
  /** With `natural`: the spare goes to the growers in turn by priority (the console), not in equal shares. */
  fill: 'equal' | 'priority' = 'equal',
): { col: Column<T>; width: number }[] {
  const declared = (c: Column<T>) => c.width ?? cellWidth(c.header);
  const at = new Map(columns.map((c, i) => [c, i]));
  const least = (c: Column<T>) => {
    if (!natural) return declared(c);
    const n = natural[at.get(c)!];
    return c.grow ? Math.min(n, declared(c)) : n;
  };
  const byPriority = [...columns].sort((a, b) => (a.priority ?? 1) - (b.priority ?? 1));
  const chosen = new Set<Column<T>>();
  let used = 0;
  for (const c of byPriority) {
    const need = least(c) + (chosen.size ? COLUMN_GAP : 0);
    if (used + need > width && chosen.size) continue;
    chosen.add(c);
    used += need;
  }
  const visible = columns.filter((c) => chosen.has(c));
  const growers = visible.filter((c) => c.grow);
  let spare = Math.max(0, width - used);
  if (!natural) {
    return visible.map((c) => {
      const share = growers.length ? Math.floor(spare / growers.length) + (c === growers[0] ? spare % growers.length : 0) : 0;
      return { col: c, width: Math.min(least(c) + (c.grow ? share : 0), Math.max(1, width)) };
    });
  }
  const extra = new Map<Column<T>, number>();
  if (fill === 'priority') {
    for (const c of [...growers].sort((a, b) => (a.priority ?? 1) - (b.priority ?? 1))) {
      const give = Math.min(spare, natural[at.get(c)!] - least(c));
      extra.set(c, give);
      spare -= give;
    }
  }
  // Water-filling: each grower takes an equal share of what is left, up to its widest cell.

  let open = growers.filter((c) => natural[at.get(c)!] > least(c));
  while (spare > 0 && open.length) {
    const share = Math.max(1, Math.floor(spare / open.length));
    for (const c of open) {
      const room = natural[at.get(c)!] - least(c) - (extra.get(c) ?? 0);
      const give = Math.min(share, room, spare);
      extra.set(c, (extra.get(c) ?? 0) + give);
      spare -= give;
    }
    open = open.filter((c) => natural[at.get(c)!] > least(c) + (extra.get(c) ?? 0));
  }
  return visible.map((c) => ({ col: c, width: Math.min(least(c) + (extra.get(c) ?? 0), Math.max(1, width)) }));
}
