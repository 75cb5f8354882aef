// The console's `/` filter over the whole archive: the calls whose shown text (caller's number
// and name, status, type, id, assistant name, number) contains what was typed. A substring, not
// the full-text index's words, so it walks the narrow `calls` rows; it walks them newest first in
// slices of a few milliseconds (`step`), so a keystroke never waits for a scan of a million rows
// and the first screen of matches is there after the first slice. The matches are kept as rowids
// with the value of the column they sort by, never as records, and a window of them is read back by rowid.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { ROW_COLUMNS, toArchived, whereOf, type ArchivedCall, type CallOrder, type CallQuery, type Row } from './query.js';
import { byKey } from './schema.js';

/** What the filter looks for, besides the call log's own filters (a CallQuery). */
export interface FilterText {
  /** the typed text; matched case-insensitively (ASCII) as a substring */
  text: string;
  /** assistants whose name contains the text (the store knows the names; the archive only ids) */
  assistantIds: string[];
  /** numbers whose DID contains the text */
  numberIds: string[];
}

const CHUNK = 4000;

/** `%text%` for LIKE, with LIKE's own wildcards taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const MATCH = `(c.customer_number LIKE :p ESCAPE '\\' OR c.customer_name LIKE :p ESCAPE '\\' OR c.status LIKE :p ESCAPE '\\'
  OR c.type LIKE :p ESCAPE '\\' OR c.id LIKE :p ESCAPE '\\'
  OR c.assistant IN (SELECT n.rowid FROM names n JOIN json_each(:a) j ON n.value = j.value)
  OR c.number IN (SELECT n.rowid FROM names n JOIN json_each(:n) j ON n.value = j.value))`;

/** The query's conditions over `calls AS c` with named parameters (`:w0`, `:w1`, …), to sit beside the scan's own. */
function namedWhere(q: CallQuery): { sql: string; params: Record<string, SQLInputValue> } {
  const w = whereOf({ ...q, text: undefined }, false);
  const params: Record<string, SQLInputValue> = {};
  let i = 0;
  const sql = w.sql.replace(/^WHERE /, '').replace(/\?/g, () => {
    const name = `w${i}`;
    params[name] = w.params[i++];
    return `:${name}`;
  });
  return { sql, params };
}

/** The columns a scan's matches sort by other than creation (as archive/query.ts orders a window). */
const SORT_COLUMN = { duration: 'c.duration', cost: 'c.cost', status: 'c.status' } as const;

/** Code-point order, as SQLite's BINARY collation compares UTF-8 (JS's `<` compares UTF-16 units). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * The matches of a `/` scan, in the call log's order (CallOrder, as `window` reads it): the
 * matches found so far are sorted, so a walk still under way shows them in order. Each match is
 * its rowid and the order column's value (a number each; no record is read): the column is read by the
 * walk itself, and read again for the matches found when the order changes (`reorder`).
 */
export class FilterScan {
  /** every row has been looked at */
  done = false;
  /** rows looked at so far */
  scanned = 0;
  private below: number | undefined;
  /** the matches' rowids in the order found: newest first */
  private rowids = new Float64Array(1024);
  /** each match's value of the order's column (NaN: none); a status is its code in `texts` */
  private values = new Float64Array(0);
  /** each match's place in the order but for ties, made from its value when a sort needs it: less comes first */
  private keys = new Float64Array(0);
  private keyed = 0;
  private found = 0;
  private texts: string[] = [];
  private codes = new Map<string, number>();
  /** each status code's place in SQLite's order of the texts, made when a sort needs it */
  private ranks: number[] = [];
  /** indexes into `rowids`, in the order: the first `sortedCount` matches found */
  private sorted = new Uint32Array(0);
  private sortedCount = 0;
  private find!: StatementSync;
  private readonly edge: StatementSync;
  private readonly slice: string;
  private readonly where: Record<string, SQLInputValue>;
  private readonly match: Record<string, SQLInputValue>;

  /** `q`: the call log's other filters (its full-text `text`, if any, is not used); `order`: newest first by default. */
  constructor(
    private readonly db: DatabaseSync,
    what: FilterText,
    q: CallQuery = {},
    private order: CallOrder = { by: 'created', desc: true },
  ) {
    const where = namedWhere(q);
    const and = where.sql ? `${where.sql} AND` : '';
    this.slice = `SELECT c.rowid AS rowid FROM calls c WHERE ${and} c.rowid < :below ORDER BY c.rowid DESC LIMIT ${CHUNK}`;
    this.edge = db.prepare(`SELECT min(rowid) AS lo, count(*) AS n FROM (${this.slice})`);
    // Each statement is given exactly the parameters it names.
    this.where = where.params;
    this.match = { p: likePattern(what.text), a: JSON.stringify(what.assistantIds), n: JSON.stringify(what.numberIds) };
    this.prepareFind();
  }

  /** Matches found so far. */
  get count(): number {
    return this.found;
  }

  private get column(): string | undefined {
    return this.order.by === 'created' ? undefined : SORT_COLUMN[this.order.by];
  }

  private prepareFind() {
    const col = this.column ? `, ${this.column}` : '';
    this.find = this.db.prepare(`SELECT c.rowid${col} FROM calls c WHERE c.rowid IN (${this.slice}) AND ${MATCH} ORDER BY c.rowid DESC`);
    this.find.setReturnArrays(true);
  }

  /** A column's value as a number to sort by: NaN for none, a status as its code. */
  private encode(v: unknown): number {
    if (v === null || v === undefined) return NaN;
    if (this.order.by !== 'status') return Number(v);
    const text = String(v);
    let code = this.codes.get(text);
    if (code === undefined) {
      code = this.texts.length;
      this.texts.push(text);
      this.codes.set(text, code);
    }
    return code;
  }

  private push(rowid: number, value: number) {
    if (this.found === this.rowids.length) {
      const grown = new Float64Array(this.rowids.length * 2);
      grown.set(this.rowids);
      this.rowids = grown;
    }
    this.rowids[this.found] = rowid;
    if (this.column) {
      if (this.found >= this.values.length) {
        const grown = new Float64Array(this.rowids.length);
        grown.set(this.values);
        this.values = grown;
      }
      this.values[this.found] = value;
    }
    this.found++;
  }

  /** Looks at more rows for about `budgetMs`; true once every row has been looked at. */
  step(budgetMs = 4): boolean {
    const until = performance.now() + budgetMs;
    const withValue = this.column !== undefined;
    while (!this.done && performance.now() < until) {
      const below = this.below ?? Number.MAX_SAFE_INTEGER;
      const { lo, n } = this.edge.get({ ...this.where, below }) as { lo: number | null; n: number };
      if (lo === null || n === 0) {
        this.done = true;
        break;
      }
      for (const r of this.find.all({ ...this.where, ...this.match, below }) as unknown as [number, unknown][])
        this.push(r[0], withValue ? this.encode(r[1]) : NaN);
      this.scanned += n;
      this.below = lo;
      if (n < CHUNK) this.done = true;
    }
    return this.done;
  }

  /**
   * Puts the matches in another order. A new column is read for the matches found (by rowid
   * range where they are most of the rows walked, else by rowid), then the walk goes on with it.
   */
  reorder(order: CallOrder = { by: 'created', desc: true }): void {
    if (order.by === this.order.by && order.desc === this.order.desc) return;
    const columnChanged = order.by !== this.order.by;
    this.order = order;
    this.sortedCount = 0;
    this.sorted = new Uint32Array(0);
    this.keyed = 0;
    if (!columnChanged) return;
    this.texts = [];
    this.codes = new Map();
    this.ranks = [];
    this.prepareFind();
    this.values = new Float64Array(0);
    if (this.column) this.readValues(this.column);
  }

  /** The order column's value of every match found, read again. */
  private readValues(col: string) {
    const n = this.found;
    this.values = new Float64Array(this.rowids.length).fill(NaN);
    const dense = n * 4 >= this.scanned;
    const read = dense
      ? this.db.prepare(`SELECT c.rowid, ${col} FROM calls c WHERE c.rowid <= ? AND c.rowid >= ? ORDER BY c.rowid DESC`)
      : this.db.prepare(`SELECT c.rowid, ${col} FROM calls c WHERE c.rowid IN (SELECT value FROM json_each(?)) ORDER BY c.rowid DESC`);
    read.setReturnArrays(true);
    for (let from = 0; from < n; from += CHUNK) {
      const to = Math.min(n, from + CHUNK);
      const args = dense ? [this.rowids[from], this.rowids[to - 1]] : [JSON.stringify(Array.from(this.rowids.subarray(from, to)))];
      // Both walk newest first, as the matches were found: one pass pairs them.
      let i = from;
      for (const r of read.iterate(...args) as Iterable<[number, unknown]>) {
        while (i < to && this.rowids[i] > r[0]) i++;
        if (i < to && this.rowids[i] === r[0]) this.values[i++] = this.encode(r[1]);
      }
    }
  }

  /** Makes the sort keys of the matches from `from` on. */
  private makeKeys(from: number) {
    if (this.keys.length < this.values.length) {
      const grown = new Float64Array(this.values.length);
      grown.set(this.keys.subarray(0, from));
      this.keys = grown;
    }
    const sign = this.order.desc ? -1 : 1;
    const status = this.order.by === 'status';
    for (let i = from; i < this.found; i++) {
      const v = this.values[i];
      // Calls without the value come last either way, as the call log's window orders them.
      this.keys[i] = Number.isNaN(v) ? Infinity : sign * (status ? this.ranks[v] : v);
    }
    this.keyed = this.found;
  }

  /** Matches i and j (indexes in `rowids`) as the order has them: below zero when i comes first. */
  private compare(i: number, j: number): number {
    if (this.column) {
      const a = this.keys[i];
      const b = this.keys[j];
      if (a !== b) return a < b ? -1 : 1;
    }
    // Ties by creation, in the same direction.
    const d = this.rowids[i] - this.rowids[j];
    return this.order.desc ? -d : d;
  }

  /** Sorts the matches found since the last read and merges them into those sorted. */
  private sortFound() {
    if (!this.column || this.sortedCount === this.found) return;
    const cmp = (i: number, j: number) => this.compare(i, j);
    let fresh = Uint32Array.from({ length: this.found - this.sortedCount }, (_, k) => this.sortedCount + k);
    if (this.order.by === 'status' && this.ranks.length !== this.texts.length) {
      // A status not seen before changes the ranks: sort everything again.
      const byText = this.texts.map((_, code) => code).sort((x, y) => byCodePoint(this.texts[x], this.texts[y]));
      this.ranks = [];
      byText.forEach((code, rank) => (this.ranks[code] = rank));
      fresh = Uint32Array.from({ length: this.found }, (_, k) => k);
      this.sortedCount = 0;
      this.keyed = 0;
    }
    this.makeKeys(this.keyed);
    fresh.sort(cmp);
    const old = this.sorted.subarray(0, this.sortedCount);
    const merged = new Uint32Array(this.found);
    let a = 0;
    let b = 0;
    let k = 0;
    while (a < old.length && b < fresh.length) merged[k++] = cmp(old[a], fresh[b]) <= 0 ? old[a++] : fresh[b++];
    while (a < old.length) merged[k++] = old[a++];
    while (b < fresh.length) merged[k++] = fresh[b++];
    this.sorted = merged;
    this.sortedCount = this.found;
  }

  /** The index in `rowids` of the match at `at` in the order. */
  private nth(at: number): number {
    if (this.column) return this.sorted[at];
    return this.order.desc ? at : this.found - 1 - at;
  }

  /** The rowids of matches [from, from + count) in the order (those found so far). */
  positions(from: number, count: number): number[] {
    this.sortFound();
    const out: number[] = [];
    for (let at = Math.max(0, from); at < Math.min(this.found, from + count); at++) out.push(this.rowids[this.nth(at)]);
    return out;
  }

  /** Where the match with this rowid is in the order, or undefined when it is not among those found. */
  indexOf(rowid: number): number | undefined {
    // Found newest first: a binary search over the rowids descending.
    let lo = 0;
    let hi = this.found;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rowids[mid] > rowid) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.found || this.rowids[lo] !== rowid) return undefined;
    const i = lo;
    if (!this.column) return this.order.desc ? i : this.found - 1 - i;
    this.sortFound();
    lo = 0;
    hi = this.found;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.sorted[mid], i) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The list fields of the calls with these rowids, in the order given (as the archive's windows shape them). */
export function callsByRowid(db: DatabaseSync, rowids: readonly number[]): ArchivedCall[] {
  if (rowids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${ROW_COLUMNS} FROM calls c WHERE c.rowid IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rowids)) as unknown as Row[];
  const byRowid = new Map(rows.map((r) => [r.rowid, r]));
  return rowids.flatMap((rowid) => {
    const r = byRowid.get(rowid);
    if (!r) return [];
    return [toArchived(r)];
  });
}

/** The rowid of a call, or undefined when the archive does not hold it. */
export function rowidOf(db: DatabaseSync, id: string): number | undefined {
  const r = db.prepare(`SELECT rowid FROM calls WHERE ${byKey('id')}`).get(id, id) as { rowid: number } | undefined;
  return r?.rowid;
}
