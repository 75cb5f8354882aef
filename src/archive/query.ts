// Reading the archive: windows of rows, counts, full-text search, stats and export. Every list
// is newest first (rowid order, see schema.ts).
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { Call } from '../api/schemas.js';
import { searchTerms, WORD_BREAK } from './fts.js';
import { BUCKET_MS, DIM, SLOTS, blocksOf, byKey, callsHeld, nameIs, nameOf } from './schema.js';

/** Which calls: every field optional; all given must hold. */
export interface CallQuery {
  /** one call */
  id?: string;
  assistantId?: string;
  phoneNumberId?: string;
  status?: string;
  type?: string;
  endedReason?: string;
  /** created on or after: epoch ms or an ISO 8601 string */
  after?: number | string;
  /** created on or before (inclusive): epoch ms or an ISO 8601 string */
  before?: number | string;
  /** full text over transcript, summary, customer name and number: words, "phrases", prefix* */
  text?: string;
}

/** One archived call as a list shows it (no transcript or messages; `get(id)` has the full record). */
export interface ArchivedCall {
  /** Where the row sits in the archive's order (newest first = highest); the keyset for paging. */
  position: number;
  /** The list fields of the record, shaped like GET /calls's records (createdAt as ISO 8601). */
  call: Call;
}

export interface SnippetPart {
  text: string;
  /** this part matched the search */
  hit: boolean;
}

export interface SearchHit extends ArchivedCall {
  /** One line of text around the best match (transcript, summary or customer), `…` where cut. */
  snippet: string;
  /** The same text cut into matched and unmatched parts, to highlight. */
  parts: SnippetPart[];
}

export type StatsBy = 'day' | 'assistant' | 'number' | 'status' | 'endedReason' | 'type';

export interface StatsRow {
  /** The group: a local date (YYYY-MM-DD) for day, else the assistant id, number id, status…; null when the calls have none. */
  key: string | null;
  calls: number;
  /** talk time in seconds and minutes */
  seconds: number;
  minutes: number;
  cost: number;
  /** seconds per call */
  avgSeconds: number;
  /**
   * The median and 95th percentile of the turn latency (ms) of the group's calls whose records
   * carry performance metrics, and how many turns they are of; absent where none does.
   */
  latency?: { p50: number; p95: number; turns: number };
}

export interface Stats {
  by: StatsBy;
  /** day: oldest first; the others: most calls first */
  groups: StatsRow[];
  total: StatsRow;
}

const HIT_OPEN = '\uE000';
const HIT_CLOSE = '\uE001';

/** The list fields of a call (what a row of the log shows), read as `Row`. */
export const ROW_COLUMNS =
  `c.rowid AS rowid, c.id AS id, c.created_at AS created_at, ${nameOf('c.assistant')} AS assistant_id, ${nameOf('c.number')} AS phone_number_id, ` +
  'c.type AS type, c.status AS status, c.ended_reason AS ended_reason, c.cost AS cost, c.duration AS duration, c.customer_number AS customer_number, ' +
  'c.customer_name AS customer_name';

export interface Row {
  rowid: number;
  id: string;
  created_at: number;
  assistant_id: string | null;
  phone_number_id: string | null;
  type: string | null;
  status: string | null;
  ended_reason: string | null;
  cost: number | null;
  duration: number | null;
  customer_number: string | null;
  customer_name: string | null;
}

/** A row of the list fields as the service's call shape, with its archive position. */
export function toArchived(r: Row): ArchivedCall {
  const customer: Record<string, string> = {};
  if (r.customer_number !== null) customer.number = r.customer_number;
  if (r.customer_name !== null) customer.name = r.customer_name;
  return {
    position: r.rowid,
    call: {
      id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      type: r.type,
      status: r.status,
      assistantId: r.assistant_id,
      phoneNumberId: r.phone_number_id,
      customer,
      durationSeconds: r.duration,
      cost: r.cost,
      endedReason: r.ended_reason,
    },
  };
}

/** Epoch ms of a bound; throws a clear error for an unreadable date. */
function msOf(v: number | string, what: string): number {
  const ms = typeof v === 'number' ? v : Date.parse(v);
  if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a date: ${String(v)}`);
  return Math.floor(ms);
}

interface Where {
  sql: string;
  params: SQLInputValue[];
  /** FTS5 MATCH expression when the query has searchable text */
  match?: string;
  /** the query had text with nothing searchable in it: matches nothing */
  empty: boolean;
}

/** The WHERE clause (over calls AS c) for `q`; text becomes a MATCH on call_fts when `withText`. */
export function whereOf(q: CallQuery, withText = true): Where {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  const eq = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    parts.push(`c.${col} = ?`);
    params.push(v);
  };
  const key = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    parts.push(byKey(`c.${col}`));
    params.push(v, v);
  };
  const named = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    parts.push(nameIs(`c.${col}`));
    params.push(v);
  };
  key('id', q.id);
  named('assistant', q.assistantId);
  named('number', q.phoneNumberId);
  eq('status', q.status);
  eq('type', q.type);
  eq('ended_reason', q.endedReason);
  if (q.after !== undefined) {
    parts.push('c.rowid >= ?');
    params.push(msOf(q.after, 'after') * SLOTS);
  }
  if (q.before !== undefined) {
    parts.push('c.rowid <= ?');
    params.push(msOf(q.before, 'before') * SLOTS + SLOTS - 1);
  }
  let match: string | undefined;
  let empty = false;
  if (withText && q.text !== undefined && q.text.trim() !== '') {
    match = searchTerms(q.text).match;
    if (match === undefined) empty = true;
    else {
      parts.push('c.rowid IN (SELECT rowid FROM call_fts WHERE call_fts MATCH ?)');
      params.push(match);
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params, match, empty };
}

/** The filters the rollup keeps a count for, and its dimension for each. */
const ROLLUP_DIM = { assistantId: DIM.assistant, phoneNumberId: DIM.number, status: DIM.status, type: DIM.type, endedReason: DIM.endedReason } as const;

/** A query on creation time alone (or none): the rollup answers it. */
const timeOnly = (q: CallQuery) => Object.entries(q).every(([k, v]) => v === undefined || k === 'after' || k === 'before');

/**
 * A time-only query as the whole quarter hours it spans (`firstFull`…`lastFull`, open-ended when
 * unbounded) and the partial ones at either end, or undefined when it spans no whole one.
 */
function splitByBuckets(q: CallQuery): { firstFull: number; lastFull: number; partial: CallQuery[] } | undefined {
  const from = q.after === undefined ? undefined : msOf(q.after, 'after');
  const to = q.before === undefined ? undefined : msOf(q.before, 'before');
  const firstFull = from === undefined ? -Infinity : Math.ceil(from / BUCKET_MS);
  const lastFull = to === undefined ? Infinity : Math.floor((to + 1) / BUCKET_MS) - 1;
  if (firstFull > lastFull) return undefined;
  const partial: CallQuery[] = [];
  if (from !== undefined && from < firstFull * BUCKET_MS) partial.push({ after: from, before: firstFull * BUCKET_MS - 1 });
  if (to !== undefined && to >= (lastFull + 1) * BUCKET_MS) partial.push({ after: (lastFull + 1) * BUCKET_MS, before: to });
  return { firstFull, lastFull, partial };
}

/** The rollup rows of those whole quarter hours, as a condition to append. */
function bucketRange(split: { firstFull: number; lastFull: number }): { sql: string; params: number[] } {
  let sql = '';
  const params: number[] = [];
  if (Number.isFinite(split.firstFull)) {
    sql += ' AND bucket >= ?';
    params.push(split.firstFull);
  }
  if (Number.isFinite(split.lastFull)) {
    sql += ' AND bucket <= ?';
    params.push(split.lastFull);
  }
  return { sql, params };
}

/** One day of the call log's chart. */
export interface DayCount {
  /** YYYY-MM-DD, local */
  day: string;
  count: number;
}

/** The call log's order: by creation (rowid order; the default, newest first) or by a list column; ties by creation. */
export interface CallOrder {
  by: 'created' | 'duration' | 'cost' | 'status';
  desc: boolean;
}

const ORDER_COLUMN = { created: 'c.rowid', duration: 'c.duration', cost: 'c.cost', status: 'c.status' } as const;

/**
 * An order as SQL over calls AS c: its ORDER BY (calls without the value last either way, as the
 * other lists sort), and the condition that a call comes before the one at `rowid` (holding
 * `value` in the column), for its index. No index serves a column other than creation: SQLite sorts
 * the matching rows for each window read.
 */
function orderSql(
  order: CallOrder | undefined,
  reversed = false,
): { by: string; column?: string; before(value: SQLInputValue): { sql: string; params: SQLInputValue[] } } {
  const desc = order?.desc ?? true;
  const dir = desc !== reversed ? 'DESC' : 'ASC';
  const cmp = desc ? '>' : '<';
  if (!order || order.by === 'created') return { by: `c.rowid ${dir}`, before: () => ({ sql: `c.rowid ${cmp} ?`, params: [] }) };
  const col = ORDER_COLUMN[order.by];
  return {
    by: `(${col} IS NULL) ${reversed ? 'DESC' : 'ASC'}, ${col} ${dir}, c.rowid ${dir}`,
    column: col,
    before: (value) =>
      value === null
        ? { sql: `(${col} IS NOT NULL OR c.rowid ${cmp} ?)`, params: [] }
        : { sql: `(${col} IS NOT NULL AND (${col} ${cmp} ? OR (${col} = ? AND c.rowid ${cmp} ?)))`, params: [value, value] },
  };
}

export class ArchiveReader {
  constructor(private readonly db: DatabaseSync) {}

  /**
   * Calls matching `q` in `order` (default: newest first): `limit` rows from `offset`, or with
   * `fromEnd`, the `limit` rows that end `offset` rows before the last (still in `order`). SQLite
   * sorts the rows up to the offset for each read in an order no index serves, so a window near the
   * end is read in the reversed order from the end: G on a million calls sorts a screen's worth, not all.
   */
  window(q: CallQuery, opts: { offset?: number; limit: number; order?: CallOrder; fromEnd?: boolean }): ArchivedCall[] {
    const w = whereOf(q);
    if (w.empty) return [];
    const rows = this.db
      .prepare(`SELECT ${ROW_COLUMNS} FROM calls c ${w.sql} ORDER BY ${orderSql(opts.order, opts.fromEnd).by} LIMIT ? OFFSET ?`)
      .all(...w.params, Math.max(0, opts.limit), Math.max(0, opts.offset ?? 0)) as unknown as Row[];
    if (opts.fromEnd) rows.reverse();
    return rows.map(toArchived);
  }

  /**
   * Keyset paging: up to `limit` rows just older than `position` (direction 'older', the default)
   * or just newer (direction 'newer'; still returned newest first).
   */
  page(q: CallQuery, position: number | undefined, opts: { limit: number; direction?: 'older' | 'newer' }): ArchivedCall[] {
    const w = whereOf(q);
    if (w.empty) return [];
    const newer = opts.direction === 'newer';
    const extra = position === undefined ? '' : `${w.sql ? ' AND' : 'WHERE'} c.rowid ${newer ? '>' : '<'} ?`;
    const params = position === undefined ? w.params : [...w.params, position];
    const rows = this.db
      .prepare(`SELECT ${ROW_COLUMNS} FROM calls c ${w.sql}${extra} ORDER BY c.rowid ${newer ? 'ASC' : 'DESC'} LIMIT ?`)
      .all(...params, Math.max(0, opts.limit)) as unknown as Row[];
    if (newer) rows.reverse();
    return rows.map(toArchived);
  }

  /**
   * How many calls match `q`, without a walk over every matching call where the quarter-hour
   * rollup (kept in the same transaction as the calls) knows: one column's value, or creation time
   * alone (the whole log, a date range: whole quarter hours from the rollup, the partial ones at
   * either end counted). count(*) reads a whole index, slow on a large log and slower cold, and
   * the console counts again as the call log opens and as a sync's pages land.
   */
  count(q: CallQuery = {}): number {
    const w = whereOf(q);
    if (w.empty) return 0;
    const scan = (query: CallQuery) => {
      const qw = whereOf(query);
      return (this.db.prepare(`SELECT count(*) AS n FROM calls c ${qw.sql}`).get(...qw.params) as { n: number }).n;
    };
    const given = (Object.keys(q) as (keyof CallQuery)[]).filter((k) => q[k] !== undefined && !(k === 'text' && !String(q.text).trim()));
    if (given.length === 1 && given[0] in ROLLUP_DIM) return callsHeld(this.db, ROLLUP_DIM[given[0] as keyof typeof ROLLUP_DIM], String(q[given[0]]));
    const split = given.every((k) => k === 'after' || k === 'before') ? splitByBuckets(q) : undefined;
    if (!split) return scan(q);
    let n = split.partial.reduce((sum, part) => sum + scan(part), 0);
    const { sql, params } = bucketRange(split);
    n += (this.db.prepare(`SELECT total(calls) AS n FROM rollup WHERE dim = ?${sql}`).get(DIM.all, ...params) as { n: number }).n;
    return n;
  }

  /** How many calls come before `position` for `q` in `order` (the row's index in `window`; default: those newer). */
  indexOf(q: CallQuery, position: number, order?: CallOrder): number {
    const w = whereOf(q);
    if (w.empty) return 0;
    const o = orderSql(order);
    const held = o.column
      ? (this.db.prepare(`SELECT ${o.column} AS v FROM calls c WHERE c.rowid = ?`).get(position) as { v: SQLInputValue } | undefined)
      : undefined;
    if (o.column && !held) return 0;
    const before = o.before(held?.v ?? null);
    const sql = `SELECT count(*) AS n FROM calls c ${w.sql}${w.sql ? ' AND' : 'WHERE'} ${before.sql}`;
    return (this.db.prepare(sql).get(...w.params, ...before.params, position) as { n: number }).n;
  }

  /**
   * Calls whose id ends with `end` (a short id typed in the palette, src/format/short-id.ts), ASCII
   * case aside, newest first: the index on ids' last 8 characters finds them when `end` has as
   * many; a shorter end is looked for in every row.
   */
  withIdEnd(end: string, limit: number): ArchivedCall[] {
    if (!end) return [];
    const indexed = end.length >= 8 ? 'substr(c.id, -8) IN (substr(?, -8), substr(lower(?), -8), substr(upper(?), -8)) AND ' : '';
    const rows = this.db
      .prepare(`SELECT ${ROW_COLUMNS} FROM calls c WHERE ${indexed}lower(substr(c.id, -?)) = lower(?) ORDER BY c.rowid DESC LIMIT ?`)
      .all(...(indexed ? [end, end, end] : []), end.length, end, Math.max(0, limit)) as unknown as Row[];
    return rows.map(toArchived);
  }

  /** Calls whose id starts with `prefix` (the start of an id typed in the palette), newest first; every row is looked at. */
  withIdPrefix(prefix: string, limit: number): ArchivedCall[] {
    if (!prefix) return [];
    const rows = this.db
      .prepare(`SELECT ${ROW_COLUMNS} FROM calls c WHERE c.id >= ? AND c.id < ? ORDER BY c.rowid DESC LIMIT ?`)
      .all(prefix, `${prefix}\u{10ffff}`, Math.max(0, limit)) as unknown as Row[];
    return rows.map(toArchived);
  }

  /** One call's full record as the service sent it. */
  get(id: string): Call | undefined {
    const row = this.db.prepare(`SELECT record FROM calls WHERE ${byKey('id')}`).get(id, id) as { record: number } | undefined;
    const json = row && blocksOf(this.db).record(row.record);
    return json === undefined ? undefined : (JSON.parse(json) as Call);
  }

  /**
   * Full-text search (words, "phrases", prefix*; any text is safe), newest first, each hit with
   * a snippet. `q.text` is ignored: `text` is the search.
   */
  search(text: string, q: CallQuery, opts: { limit: number; offset?: number }): SearchHit[] {
    const match = searchTerms(text).match;
    if (match === undefined) return [];
    const w = whereOf({ ...q, text: undefined }, false);
    const cond = w.sql ? w.sql.replace(/^WHERE /, ' AND ') : '';
    // A character of the unspaced scripts is a token of the index: their snippets take more tokens for as much text.
    const tokens = match.includes(WORD_BREAK) ? 24 : 12;
    const sql = `SELECT ${ROW_COLUMNS}, snippet(call_fts, -1, '${HIT_OPEN}', '${HIT_CLOSE}', '…', ${tokens}) AS snip
      FROM call_fts f JOIN calls c ON c.rowid = f.rowid
      WHERE call_fts MATCH ?${cond} ORDER BY f.rowid DESC LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(sql).all(match, ...w.params, Math.max(0, opts.limit), Math.max(0, opts.offset ?? 0)) as unknown as (Row & {
      snip: string | null;
    })[];
    return rows.map((r) => {
      const parts = snippetParts(r.snip ?? '');
      return { ...toArchived(r), parts, snippet: parts.map((p) => p.text).join('') };
    });
  }

  /** How many calls a search matches (with the other filters of `q`). */
  countSearch(text: string, q: CallQuery = {}): number {
    return this.count({ ...q, text: searchTerms(text).match === undefined ? '\u0000' : text });
  }

  /** Calls, talk time and cost per group, with the total. Time-only queries read the quarter-hour rollup. */
  stats(by: StatsBy, q: CallQuery = {}): Stats {
    const acc = new Map<string | null, { calls: number; seconds: number; cost: number }>();
    const keyOf = (bucketOrKey: string | number | null): string | null =>
      by === 'day' ? localDay(Number(bucketOrKey) * BUCKET_MS) : (bucketOrKey as string | null);
    const addTo = (key: string | null, calls: number, seconds: number, cost: number) => {
      const a = acc.get(key);
      if (a) {
        a.calls += calls;
        a.seconds += seconds;
        a.cost += cost;
      } else acc.set(key, { calls, seconds, cost });
    };
    const col =
      by === 'day'
        ? null
        : { assistant: nameOf('c.assistant'), number: nameOf('c.number'), status: 'c.status', endedReason: 'c.ended_reason', type: 'c.type' }[by];
    const scan = (query: CallQuery) => {
      const w = whereOf(query);
      if (w.empty) return;
      const group = col ?? `c.created_at / ${BUCKET_MS}`;
      const rows = this.db
        .prepare(`SELECT ${group} AS g, count(*) AS n, total(c.duration) AS s, total(c.cost) AS k FROM calls c ${w.sql} GROUP BY g`)
        .all(...w.params) as { g: string | number | null; n: number; s: number; k: number }[];
      for (const r of rows) addTo(keyOf(r.g), r.n, r.s, r.k);
    };
    const split = timeOnly(q) ? splitByBuckets(q) : undefined;
    if (!split) scan(q);
    else {
      // Whole quarter hours from the rollup; the partial ones at either end from the calls.
      for (const part of split.partial) scan(part);
      const dim = by === 'day' ? DIM.all : DIM[by];
      const range = bucketRange(split);
      const g = by === 'day' ? 'bucket' : 'key';
      const sql = `SELECT ${g} AS g, sum(calls) AS n, total(seconds) AS s, total(cost) AS k FROM rollup WHERE dim = ?${range.sql}`;
      const rows = this.db.prepare(`${sql} GROUP BY g`).all(dim, ...range.params) as { g: string | number; n: number; s: number; k: number }[];
      for (const r of rows) addTo(by === 'day' ? keyOf(r.g) : r.g === '' ? null : String(r.g), r.n, r.s, r.k);
    }
    const row = (key: string | null, a: { calls: number; seconds: number; cost: number }): StatsRow => ({
      key,
      calls: a.calls,
      seconds: round(a.seconds, 3),
      minutes: round(a.seconds / 60, 3),
      cost: round(a.cost, 6),
      avgSeconds: a.calls ? round(a.seconds / a.calls, 3) : 0,
    });
    const latency = this.latencies(by, q, col);
    const groups = [...acc].filter(([, a]) => a.calls > 0).map(([k, a]) => withLatency(row(k, a), latency.get(k)));
    if (by === 'day') groups.sort((a, b) => (a.key! < b.key! ? -1 : 1));
    else groups.sort((a, b) => b.calls - a.calls || (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0));
    const total = { calls: 0, seconds: 0, cost: 0 };
    for (const a of acc.values()) {
      total.calls += a.calls;
      total.seconds += a.seconds;
      total.cost += a.cost;
    }
    return { by, groups, total: withLatency(row(null, total), latency.get(ALL)) };
  }

  /** Every turn latency (ms) of the matching calls that carry them, by group (`ALL`: all of them). */
  private latencies(by: StatsBy, q: CallQuery, col: string | null): Map<string | null | typeof ALL, number[]> {
    const out = new Map<string | null | typeof ALL, number[]>();
    const w = whereOf(q);
    if (w.empty) return out;
    const group = col ?? 'c.created_at';
    const rows = this.db.prepare(`SELECT ${group} AS g, l.turns AS turns FROM latency l JOIN calls c ON c.rowid = l.rowid ${w.sql}`).all(...w.params) as {
      g: string | number | null;
      turns: string;
    }[];
    const all: number[] = [];
    out.set(ALL, all);
    for (const r of rows) {
      const key = by === 'day' ? localDay(Number(r.g)) : (r.g as string | null);
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      for (const t of r.turns.split(',')) {
        const n = Number(t);
        list.push(n);
        all.push(n);
      }
    }
    return out;
  }

  /** Calls per local day, oldest first: the call log's chart (the console's and the frame before it). */
  perDay(q: CallQuery = {}): DayCount[] {
    return this.stats('day', q).groups.map((g) => ({ day: g.key ?? '', count: g.calls }));
  }

  /**
   * Every matching call's record as the service sent it (one JSON text per call, no line
   * breaks), newest first, read in small keyset batches so memory stays flat at any size.
   */
  *exportJson(q: CallQuery = {}, batch = 500): Generator<string> {
    const w = whereOf(q);
    if (w.empty) return;
    const and = w.sql ? `${w.sql} AND` : 'WHERE';
    const first = this.db.prepare(`SELECT c.rowid AS rowid, c.record AS record FROM calls c ${w.sql} ORDER BY c.rowid DESC LIMIT ?`);
    const next = this.db.prepare(`SELECT c.rowid AS rowid, c.record AS record FROM calls c ${and} c.rowid < ? ORDER BY c.rowid DESC LIMIT ?`);
    // Newest first walks a page's block from its last line down, so each block is read once.
    const blocks = blocksOf(this.db);
    let rows = first.all(...w.params, batch) as { rowid: number; record: number }[];
    while (rows.length > 0) {
      for (const r of rows) {
        const json = blocks.record(r.record);
        if (json !== undefined) yield json;
      }
      if (rows.length < batch) return;
      rows = next.all(...w.params, rows[rows.length - 1].rowid, batch) as { rowid: number; record: number }[];
    }
  }

  /** As exportJson, parsed. */
  *exportCalls(q: CallQuery = {}, batch = 500): Generator<Call> {
    for (const json of this.exportJson(q, batch)) yield JSON.parse(json) as Call;
  }

  /** Oldest and newest creation time held (epoch ms), undefined when empty. */
  span(): { oldest?: number; newest?: number } {
    const r = this.db.prepare('SELECT min(rowid) AS lo, max(rowid) AS hi FROM calls').get() as { lo: number | null; hi: number | null };
    return { oldest: r.lo === null ? undefined : Math.floor(r.lo / SLOTS), newest: r.hi === null ? undefined : Math.floor(r.hi / SLOTS) };
  }
}

const ALL = Symbol('all');

/** The row with its latency percentiles (nearest rank), where it has turn latencies. */
function withLatency(row: StatsRow, turns: number[] | undefined): StatsRow {
  if (!turns?.length) return row;
  const sorted = Float64Array.from(turns).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  return { ...row, latency: { p50: at(0.5), p95: at(0.95), turns: sorted.length } };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** The local calendar day of `ms`, YYYY-MM-DD. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

function snippetParts(snip: string): SnippetPart[] {
  // One line: a transcript's line breaks and runs of spaces become one space; the index's word breaks go.
  const text = snip.replaceAll(WORD_BREAK, '').replace(/\s+/g, ' ').trim();
  const parts: SnippetPart[] = [];
  let hit = false;
  for (const piece of text.split(/([\uE000\uE001])/)) {
    if (piece === HIT_OPEN) hit = true;
    else if (piece === HIT_CLOSE) hit = false;
    else if (piece !== '') {
      const last = parts[parts.length - 1];
      if (last && last.hit === hit) last.text += piece;
      else parts.push({ text: piece, hit });
    }
  }
  return parts;
}
