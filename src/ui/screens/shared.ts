// Small helpers the screens share: a screen folder imports from here (or from below the screens),
// never from another screen folder (src/scripts/eslint.config.mjs holds that).
import { useMemo } from 'react';
import { cellText, type Column } from '../../format/column.js';
import { useActions, useConsole } from '../../store/index.js';
import type { ListSort } from '../../store/navigation.js';
import { markSorted, sortRows } from '../../format/table-text.js';
import { Command } from '../keymap.js';
import { nameIn } from './lists.js';

/** The screen props every route component gets. */
export interface ScreenProps<R> {
  route: R;
  width: number;
  height: number;
}

/** An assistant's name by id; the same function until the assistants change (tables key their line caches on it). */
export function useAssistantName(): (id: string | null | undefined) => string {
  const assistants = useConsole((s) => s.assistants.data);
  return useMemo(() => nameIn(assistants), [assistants]);
}

/** Loading its first data (nothing to show yet): keys typed ahead wait for it (useListKeys' `loading`). */
export function firstLoad(res: { status: string; data?: unknown }): boolean {
  return res.status === 'idle' || (res.status === 'loading' && res.data === undefined);
}

// The list filter's index: every row's visible cells, lower-cased, in one string (rows apart by a
// character no one can type into the filter), with where each row starts. A keystroke is then one
// indexOf scan of that string, which jumps to the next row at each hit; typing on (a query that
// extends the last one) searches only the rows the last one kept when they are few. The index is
// kept per set of columns (new columns, as when names change, start afresh) and extended when
// the rows only grew at the end (older pages of the call log).
const SEP = '\u0001';

interface FilterIndex {
  rows: readonly object[];
  /** Lower-cased haystacks of rows[0..done), made so far (kept when the rows grow at the end). */
  parts: string[];
  text?: string;
  starts?: Int32Array;
  /** The last query over these rows and the rows it kept: a query that extends it searches only those. */
  last?: { q: string; out: number[] };
}

// A cache keyed by the columns object, not state: whoever filters the same rows with the same
// columns gets the same answer from it.
const indexes = new WeakMap<object, FilterIndex>();

function haystack<T>(row: T, columns: Column<T>[]): string {
  return columns.map((c) => cellText(c.value(row)).toLowerCase().replaceAll(SEP, ' ')).join(SEP);
}

/** The index of these rows and columns, started (parts reused when the rows only grew at the end). */
function indexFor<T extends object>(rows: T[], columns: Column<T>[]): FilterIndex {
  const old = indexes.get(columns);
  if (old?.rows === rows) return old;
  const grew =
    old &&
    old.rows.length <= rows.length &&
    old.parts.length === old.rows.length &&
    old.rows.length > 0 &&
    old.rows[0] === rows[0] &&
    old.rows[old.rows.length - 1] === rows[old.rows.length - 1];
  const idx: FilterIndex = { rows, parts: grew ? old.parts.slice() : [] };
  indexes.set(columns, idx);
  return idx;
}

/** Makes the haystacks still missing and the one string they are searched in. */
function build<T extends object>(idx: FilterIndex, columns: Column<T>[]): void {
  const rows = idx.rows as T[];
  for (let i = idx.parts.length; i < rows.length; i++) idx.parts.push(haystack(rows[i], columns));
  if (idx.text === undefined) {
    idx.text = idx.parts.join(SEP) + SEP;
    idx.starts = new Int32Array(rows.length + 1);
    let at = 0;
    idx.parts.forEach((p, i) => {
      idx.starts![i] = at;
      at += p.length + 1;
    });
    idx.starts[rows.length] = at;
  }
}

/** Rows whose visible columns contain the filter text (case-insensitive). */
export function filterRows<T extends object>(rows: T[], columns: Column<T>[], filter: string): T[] {
  const q = filter.trim().toLowerCase();
  if (!q) return rows;
  const idx = indexFor(rows, columns);
  build(idx, columns);
  const text = idx.text!;
  const starts = idx.starts!;
  const out: number[] = [];
  const last = idx.last;
  if (last && q.startsWith(last.q) && last.out.length * 8 < rows.length) {
    for (const i of last.out) if (idx.parts[i].includes(q)) out.push(i);
  } else {
    let pos = text.indexOf(q);
    let row = 0;
    while (pos >= 0) {
      // The row holding `pos`: the last start at or before it (starts only grow, so search on from the last row).
      let lo = row;
      let hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= pos) lo = mid;
        else hi = mid - 1;
      }
      row = lo;
      out.push(row);
      pos = text.indexOf(q, starts[row + 1]);
      row++;
    }
  }
  idx.last = { q, out };
  return out.map((i) => rows[i]);
}

/**
 * A list in the order of its sort key (`O`): its rows sorted, its columns with the sorted header
 * marked, and the key's binding, which cycles through its columns and directions.
 */
export function useSortedList<T>(rows: T[], columns: Column<T>[], sort: ListSort | undefined) {
  const actions = useActions();
  const sorted = useMemo(() => sortRows(rows, columns, sort), [rows, columns, sort]);
  const marked = useMemo(() => markSorted(columns, sort), [columns, sort]);
  // A column without a header (a marker) is not one to sort by.
  const sortable = columns.map((c) => c.header).filter((h) => h.trim());
  return { rows: sorted, columns: marked, bindings: { [Command.Sort]: () => actions.cycleSort(sortable) } };
}
