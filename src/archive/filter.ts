// The console's `/` filter over the whole archive: the calls whose shown text (caller's number
// and name, status, type, id, assistant name, number) contains what was typed. A substring, not
// the full-text index's words, so it walks the narrow `calls` rows; it walks them newest first in
// slices of a few milliseconds (`step`), so a keystroke never waits for a scan of a million rows
// and the first screen of matches is there after the first slice. The matches are kept as rowids
// (8 bytes a match), and a window of them is read back by rowid.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { ROW_COLUMNS, toArchived, whereOf, type ArchivedCall, type CallQuery, type Row } from './query.js';
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

export class FilterScan {
  /** rowids of the matches found so far, newest first */
  readonly matches: number[] = [];
  /** every row has been looked at */
  done = false;
  /** rows looked at so far */
  scanned = 0;
  private below: number | undefined;
  private readonly find: StatementSync;
  private readonly edge: StatementSync;
  private readonly where: Record<string, SQLInputValue>;
  private readonly match: Record<string, SQLInputValue>;

  /** `q`: the call log's other filters (its full-text `text`, if any, is not used). */
  constructor(db: DatabaseSync, what: FilterText, q: CallQuery = {}) {
    const where = namedWhere(q);
    const and = where.sql ? `${where.sql} AND` : '';
    const slice = `SELECT c.rowid AS rowid FROM calls c WHERE ${and} c.rowid < :below ORDER BY c.rowid DESC LIMIT ${CHUNK}`;
    this.find = db.prepare(`SELECT c.rowid AS rowid FROM calls c WHERE c.rowid IN (${slice}) AND ${MATCH} ORDER BY c.rowid DESC`);
    this.edge = db.prepare(`SELECT min(rowid) AS lo, count(*) AS n FROM (${slice})`);
    // Each statement is given exactly the parameters it names.
    this.where = where.params;
    this.match = { p: likePattern(what.text), a: JSON.stringify(what.assistantIds), n: JSON.stringify(what.numberIds) };
  }

  /** Looks at more rows for about `budgetMs`; true once every row has been looked at. */
  step(budgetMs = 4): boolean {
    const until = performance.now() + budgetMs;
    while (!this.done && performance.now() < until) {
      const below = this.below ?? Number.MAX_SAFE_INTEGER;
      const { lo, n } = this.edge.get({ ...this.where, below }) as { lo: number | null; n: number };
      if (lo === null || n === 0) {
        this.done = true;
        break;
      }
      for (const r of this.find.all({ ...this.where, ...this.match, below }) as { rowid: number }[]) this.matches.push(r.rowid);
      this.scanned += n;
      this.below = lo;
      if (n < CHUNK) this.done = true;
    }
    return this.done;
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
