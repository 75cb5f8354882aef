// The call log's window: the rows held around the screen, read from the archive by position, so
// memory does not grow with the log and g/G reach either end of a million calls at once. A plain
// class over the archive's API (no React, no zustand): the call log's slice (calls.ts) wraps one
// and shows what it holds; test/store/call-window.test.ts drives it on its own.
import type { Call } from '../api/schemas.js';
import type { ArchivedCall, CallArchive, CallOrder, CallQuery, FilterScan } from '../archive/index.js';

/** The list the log shows, as the archive reads it: in its filters and order, or a `/` scan's matches. */
export interface CallRows {
  /** Calls in the list. */
  count(): number;
  /** Rows [from, from + count) of the list (`total`: its count, as last read). */
  read(from: number, count: number, total: number): ArchivedCall[];
  /**
   * Rows [from, from + count), which lie just newer or just older than the held row at `position`:
   * in the archive's own order that is an index seek from that row, where an offset would step
   * over every row before it (the far end of a long log).
   */
  beside(from: number, count: number, total: number, position: number | undefined, direction: 'newer' | 'older'): ArchivedCall[];
  /** Where the call with this id is in the list now, or undefined. */
  indexOf(id: string): number | undefined;
}

/** What the log lists: the archive's query, the id filter (one call at most), the order (none: newest first), the `/` scan's matches. */
export interface ListedCalls {
  query: CallQuery;
  id?: string;
  order?: CallOrder;
  scan?: Pick<FilterScan, 'count' | 'positions' | 'indexOf'>;
}

/** The list `what` names, read from `archive`. */
export function callRows(archive: CallArchive, what: ListedCalls): CallRows {
  const { query: q, id, order, scan } = what;
  const read = (from: number, count: number, total: number): ArchivedCall[] => {
    if (scan) return archive.byPositions(scan.positions(from, count));
    if (id) {
      const rowid = archive.positionOf(id);
      const rows = rowid === undefined ? [] : archive.byPositions([rowid]);
      return rows.filter((r) => !q.assistantId || r.call.assistantId === q.assistantId).slice(from, from + count);
    }
    // The far end is read from the end (G on a million calls reads 3 screens, not a million rows).
    if (!order && from + count >= total && from > total / 2) return archive.page(q, undefined, { limit: total - from, direction: 'newer' });
    // In a sorted order, the back half is read in the reversed order: SQLite sorts up to the offset.
    if (order && from > total / 2)
      return archive.window(q, { offset: Math.max(0, total - from - count), limit: Math.min(count, total - from), order, fromEnd: true });
    return archive.window(q, { offset: from, limit: count, order });
  };
  return {
    count: () => (scan ? scan.count : id ? read(0, 1, 1).length : archive.count(q)),
    read,
    beside(from, count, total, position, direction) {
      if (scan || id || order || position === undefined) return read(from, count, total);
      return archive.page(q, position, { limit: count, direction });
    },
    indexOf(callId) {
      const rowid = archive.positionOf(callId);
      if (rowid === undefined) return undefined;
      if (scan) return scan.indexOf(rowid);
      if (id) return 0;
      return archive.indexOf(q, rowid, order);
    },
  };
}

/** Where the screen is: its first row in the list, and the rows it shows. */
export interface Screen {
  scroll: number;
  rows: number;
}

/** Rows read around the screen: a screen above and below what is shown, so j/k and PgUp/PgDn rarely read. */
export function windowFor(scroll: number, screenRows: number, total: number): { from: number; count: number } {
  const h = Math.max(10, screenRows);
  const from = Math.max(0, Math.min(scroll - h, total - 3 * h));
  return { from: Math.max(0, from), count: 3 * h };
}

/** The rows read are the ones held: the same calls at the same positions, each record unchanged. */
function sameRows(rows: readonly ArchivedCall[], calls: readonly Call[], positions: readonly number[]): boolean {
  if (rows.length !== calls.length) return false;
  for (let i = 0; i < rows.length; i++) if (rows[i].position !== positions[i] || rows[i].call.id !== calls[i].id) return false;
  return JSON.stringify(rows.map((r) => r.call)) === JSON.stringify(calls);
}

/**
 * Rows `from` … `from + calls.length - 1` of a list of `total` calls, newest first, with each
 * row's position in the archive. What it holds changes only by its methods, and a method that
 * keeps a row keeps the same object (the screen formats no row again).
 */
export class CallWindow {
  from = 0;
  calls: Call[] = [];
  positions: number[] = [];
  total = 0;

  /** Holds nothing (the list changed: new filters, a new `/` text). */
  clear(): void {
    this.from = 0;
    this.calls = [];
    this.positions = [];
    this.total = 0;
  }

  /** The call at index `i` of the list, when held. */
  callAt(i: number): Call | undefined {
    return this.calls[i - this.from];
  }

  /**
   * Reads the window the screen needs from `rows` (of `total` calls), when what is held does not
   * cover the screen, the total changed, or `force`. A read that finds the rows held (a quiet live
   * refresh; a back-fill, which adds calls below them) keeps them: only the count may change.
   * Returns whether anything held changed.
   */
  fill(rows: CallRows, screen: Screen, total: number, force: boolean): boolean {
    const need = windowFor(screen.scroll, screen.rows, total);
    const body = Math.max(1, screen.rows);
    const have = this.from <= screen.scroll && Math.min(screen.scroll + body, total) <= this.from + this.calls.length;
    if (have && !force && total === this.total) return false;
    const read = rows.read(need.from, need.count, total);
    if (need.from === this.from && sameRows(read, this.calls, this.positions)) {
      if (total === this.total) return false;
      this.total = total;
      return true;
    }
    this.calls = read.map((r) => r.call);
    this.positions = read.map((r) => r.position);
    this.from = need.from;
    this.total = total;
    return true;
  }

  /**
   * Centres the window on the screen again (a read ahead): the rows it still holds stay, the same
   * objects, and only the rows past them are read. `refilled` when it had to read the window
   * whole (nothing held is still wanted, or the list changed under it).
   */
  move(rows: CallRows, screen: Screen): 'none' | 'moved' | 'refilled' {
    const total = this.total;
    const need = windowFor(screen.scroll, screen.rows, total);
    const end = Math.min(need.from + need.count, total);
    const keepFrom = Math.max(this.from, need.from);
    const keepEnd = Math.min(this.from + this.calls.length, end);
    if (need.from === this.from) return 'none';
    const refill = () => (this.fill(rows, screen, total, true), 'refilled' as const);
    if (keepFrom >= keepEnd) return refill();
    const before = need.from < keepFrom ? rows.beside(need.from, keepFrom - need.from, total, this.positions[keepFrom - this.from], 'newer') : [];
    const after = keepEnd < end ? rows.beside(keepEnd, end - keepEnd, total, this.positions[keepEnd - 1 - this.from], 'older') : [];
    // Fewer rows than asked: the list changed under the window; read it whole.
    if (before.length !== keepFrom - need.from || after.length !== end - keepEnd) return refill();
    const kept = [keepFrom - this.from, keepEnd - this.from] as const;
    this.calls = [...before.map((r) => r.call), ...this.calls.slice(...kept), ...after.map((r) => r.call)];
    this.positions = [...before.map((r) => r.position), ...this.positions.slice(...kept), ...after.map((r) => r.position)];
    this.from = need.from;
    return 'moved';
  }

  /** The screen is within half a screen of an end of the rows held, and more rows lie past that end. */
  nearEnd(screen: Screen): boolean {
    const body = Math.max(1, screen.rows);
    const margin = Math.max(3, Math.floor(body / 2));
    const end = this.from + this.calls.length;
    return (this.from > 0 && screen.scroll - this.from < margin) || (end < this.total && end - (screen.scroll + body) < margin);
  }
}
