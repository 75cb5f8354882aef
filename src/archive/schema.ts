// The archive's tables. It is a cache of the service's call log: a database written by another
// schema version, or for another service, is emptied and filled again by the next sync (the
// version before this one is derived again from the records it holds instead: see rederive).
import { chmodSync, closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { privateDir } from '../config/private-dir.js';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import { viewCall } from '../api/records.js';
import { openSqlite, pragmaValue, transaction } from '../sqlite.js';
import { BLOCK_RECORDS, BLOCK_TABLES, RecordBlocks, refOf } from './blocks.js';
import { ftsText } from './fts.js';
import { turnLatencies } from '../api/call-details.js';

/**
 * Each version, and how an archive of the one before it is upgraded on open:
 * 6: no `cache` table (the lists' last-known rows are JSON files: config/cached-lists.ts); a
 *    version 5 archive drops it, and is read as it is where it cannot be written.
 * 5: the full-text index holds a tool's calls and results with the transcript, and runs of
 *    scripts written without spaces cut into words (fts.ts); a version 2 to 4 archive is indexed
 *    again (reindex).
 * 4: the records are compressed in blocks (blocks.ts); a version 3 archive's records are
 *    compressed (compressRecords), a version 2 one re-derived first.
 * 3: the indexed text, duration and cost are the call's view (src/api/records.ts), read from the
 *    record by SQL functions this module registers.
 */
const SCHEMA_VERSION = 6;
/** Versions a read-only open reads as they are: 5 differs from 6 only by a table nothing reads. */
const READABLE_VERSIONS: readonly number[] = [5, SCHEMA_VERSION];
/** How long a write waits for another writer (a sync's transaction in another process or thread). */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * A call's rowid is its creation time in ms × 1024 plus a slot for calls created in the same ms,
 * so the table, FTS5's rowid order and every index (which end in the rowid) are in creation
 * order: "newest first" is `ORDER BY rowid DESC`, a date range is a rowid range, and a
 * full-text match walks newest first and stops at its LIMIT instead of sorting every hit.
 */
export const SLOTS = 1024;
/** Stats are kept per quarter hour: every time zone's day starts on one of these. */
export const BUCKET_MS = 15 * 60_000;

// Dimensions of the rollup table (one row per quarter hour and value, so stats never scan calls).
export const DIM = { all: 0, assistant: 1, number: 2, status: 3, endedReason: 4, type: 5 } as const;

/** Text of a call a search looks in: the view's, so a transcript in messages[].message or a summary under analysis is found. */
const CALL_TEXT_VIEW = `
-- The text is the record's view (registerRecordFunctions), never stored twice.
CREATE VIEW call_text AS
  SELECT c.rowid AS rowid, call_transcript(c.record) AS transcript, call_summary(c.record) AS summary,
         fts_text(c.customer_name) AS customer_name, c.customer_number AS customer_number
  FROM calls c;`;

/** The text view of a version 3 archive (records as JSON text), which rederive keeps until compressRecords. */
const CALL_TEXT_VIEW_3 = `
CREATE VIEW call_text AS
  SELECT c.rowid AS rowid, call_transcript(r.json) AS transcript, call_summary(r.json) AS summary,
         fts_text(c.customer_name) AS customer_name, c.customer_number AS customer_number
  FROM calls c JOIN records r ON r.rowid = c.record;`;

/**
 * A lookup by a call's id through an index on its last 8 characters: a fraction of the index the
 * whole id makes, and as selective for the ids a service makes (random or counted at the end).
 * Bind the id twice.
 */
export const byKey = (col: string): string => `substr(${col}, -8) = substr(?, -8) AND ${col} = ?`;

/** The assistant or number id a calls column (`assistant`, `number`) holds the number of. */
export const nameOf = (col: string): string => `(SELECT value FROM names WHERE rowid = ${col})`;
/** `col` holds the number of this id (bound once); matches nothing for an id never written. */
export const nameIs = (col: string): string => `${col} = (SELECT rowid FROM names WHERE value = ?)`;

// Assistant and number ids are numbered in `names`: a call's row and its two indexes hold a small
// integer instead of a UUID each.
const CALLS_TABLE = `
CREATE TABLE calls (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  assistant INTEGER, number INTEGER, type TEXT, status TEXT, ended_reason TEXT,
  cost REAL, duration REAL, customer_number TEXT, customer_name TEXT,
  ended INTEGER NOT NULL,
  record INTEGER NOT NULL);`;

/** The indexes the queries use: a call by id, the log of one assistant or number (newest first: every index ends in the rowid), the unfinished. */
const CALLS_INDEXES = `
CREATE INDEX calls_by_id ON calls(substr(id, -8));
CREATE INDEX calls_by_assistant ON calls(assistant);
CREATE INDEX calls_by_number ON calls(number);
CREATE INDEX calls_unfinished ON calls(created_at) WHERE ended = 0;`;

/** A call's turn latencies (ms) as the latency table holds them, comma-separated; undefined for none. */
export function latencyText(call: unknown): string | undefined {
  const turns = turnLatencies(call);
  return turns.length ? turns.map((n) => Math.round(n)).join(',') : undefined;
}

const LATENCY_TABLE = `CREATE TABLE latency (rowid INTEGER PRIMARY KEY, turns TEXT NOT NULL);`;

const NAMES_TABLE = `CREATE TABLE names (rowid INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);`;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${NAMES_TABLE}
${CALLS_TABLE}
${CALLS_INDEXES}
-- The records as the service sent them (blocks.ts), apart from the narrow rows above so scans
-- stay small; numbered in arrival order, so they are always appended (a b-tree filled from the
-- front, as a newest-first walk would, keeps its pages half empty).
${BLOCK_TABLES}
${CALL_TEXT_VIEW}
-- External content: the text is read from the records when a snippet is made, never stored twice.
CREATE VIRTUAL TABLE call_fts USING fts5(transcript, summary, customer_name, customer_number,
  content = 'call_text', content_rowid = 'rowid', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE rollup (
  dim INTEGER NOT NULL, bucket INTEGER NOT NULL, key TEXT NOT NULL,
  calls INTEGER NOT NULL, seconds REAL NOT NULL, cost REAL NOT NULL,
  PRIMARY KEY (dim, bucket, key)) WITHOUT ROWID;
-- Each call's turn latencies (ms, comma-separated) where its record carries them: the stats'
-- percentiles need every turn, which no rollup can sum.
${LATENCY_TABLE}
CREATE TABLE lease (name TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
  since INTEGER NOT NULL, expires INTEGER NOT NULL);
`;

const blocksByDb = new WeakMap<DatabaseSync, RecordBlocks>();

/** The connection's reader and writer of record blocks (made on first use: the tables may not exist before). */
export function blocksOf(db: DatabaseSync): RecordBlocks {
  let b = blocksByDb.get(db);
  if (!b) blocksByDb.set(db, (b = new RecordBlocks(db)));
  return b;
}

/**
 * The SQL functions the archive's text view calls: a call's transcript and summary as its view
 * (src/api/records.ts) gives them, from its record (a ref into the blocks, or a version 3
 * archive's JSON text). Every connection that reads call_text (FTS snippets) registers them;
 * the writer indexes the same view, so the two always agree.
 */
function registerRecordFunctions(db: DatabaseSync): void {
  // A row's transcript and summary are asked for one after the other (the text view, a
  // snippet): the record is parsed once for both.
  let lastJson: string | undefined;
  let lastView: ReturnType<typeof viewCall> | undefined;
  const view = (record: unknown) => {
    const json = typeof record === 'number' || typeof record === 'bigint' ? blocksOf(db).record(Number(record)) : record;
    if (typeof json !== 'string') return undefined;
    if (json === lastJson) return lastView;
    let v;
    try {
      v = viewCall(JSON.parse(json) as Record<string, unknown>);
    } catch {
      v = undefined;
    }
    lastJson = json;
    lastView = v;
    return v;
  };
  // Not deterministic: a ref's record is read from the blocks.
  db.function('call_transcript', (record) => ftsText(view(record)?.transcript));
  db.function('call_summary', (record) => ftsText(view(record)?.summary));
  db.function('fts_text', { deterministic: true }, (text) => (typeof text === 'string' ? ftsText(text) : null));
}

const FTS_AUTOMERGE = 16;
const PAGE_SIZE = 16_384;

// The dictionaries too: they are made of records.
const DATA_TABLES = ['calls', 'blocks', 'dicts', 'rollup', 'latency'];

/**
 * Calls the archive holds, from the rollup (a row a quarter hour, kept in the same transaction as
 * the calls): count(*) reads a whole index, slow on a large log and slower cold.
 */
export function callsHeld(db: DatabaseSync, dim: number = DIM.all, key = ''): number {
  return (db.prepare('SELECT total(calls) AS n FROM rollup WHERE dim = ? AND key = ?').get(dim, key) as { n: number }).n;
}

/** The archive cannot be opened for writing by this user: its file or directory is another user's, or read-only. */
export class ArchiveNotWritable extends Error {
  override name = 'ArchiveNotWritable';
  constructor(path: string, cause: unknown) {
    super(`the call archive ${path} cannot be written by this user (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/**
 * The archive's file is not a database SQLite can read (its first bytes overwritten, the file cut
 * short): the message names it and how to get past it. It is a cache, so removing it loses nothing.
 */
export class ArchiveUnreadable extends Error {
  override name = 'ArchiveUnreadable';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(
      `the call archive ${path} cannot be read (${cause instanceof Error ? cause.message : String(cause)}); it is a cache: ` +
        '`switchboard archive clear` removes it, and the next sync rebuilds it',
      { cause },
    );
  }
}

/** SQLite's answer for a file that is not a database, or one damaged (SQLITE_NOTADB, SQLITE_CORRUPT). */
export function isUnreadableDb(err: unknown): boolean {
  const errcode = (err as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' && [11, 26].includes(errcode & 0xff);
}

/** How far an upgrade of an archive written by an earlier version has come: calls indexed again of all. */
export type UpgradeProgress = (done: number, total: number) => void;

/**
 * Opens (creating, 0700 dir / 0600 file) the archive at `path`; schema made or reset under a write
 * lock when needed. `onUpgrade` hears how far the indexing of an earlier version's archive is.
 */
export function openArchiveDb(path: string, service: string | undefined, onUpgrade?: UpgradeProgress): DatabaseSync {
  try {
    return openWritable(path, service, onUpgrade);
  } catch (err) {
    if (isUnreadableDb(err)) throw new ArchiveUnreadable(path, err);
    throw cannotWrite(err) ? new ArchiveNotWritable(path, err) : err;
  }
}

/** Removes the archive at `path` with SQLite's files beside it: for an archive that cannot be opened to be cleared. */
export function removeArchiveFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}

function openWritable(path: string, service: string | undefined, onUpgrade?: UpgradeProgress): DatabaseSync {
  // The archive dir and the cache dir above it (<cache>/switchboard/archive/<profile>.db).
  privateDir(dirname(path), dirname(dirname(path)));
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  // SQLite gives its -wal/-shm files the same mode: other users' bits go; the owner's stay (a
  // file the owner made read-only stays so, and is read read-only: openArchiveDbReadOnly).
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) chmodSync(path, mode & 0o700);
  const db = openSqlite(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    registerRecordFunctions(db);
    // 16 KiB pages for a new file (an existing one keeps its own: WAL cannot change it). A record
    // left much of SQLite's default 4 KiB page unused; with the larger pages a back-fill makes a
    // smaller file in less time and CPU (the figures are in the commit that made the change).
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    // A cache: NORMAL keeps every committed page across kill -9 (only power loss can drop the last).
    // 8 MB of page cache a connection: the console holds two (its reads and its worker's writes), and
    // pages past that come from the OS's file cache, which is not the console's memory; a larger cache
    // made neither a sync nor a search faster.
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY');
    const serviceIs = () => heldService(db);
    // Already made for this service (the usual case): read, so opening never waits for a writer
    // (another process's or thread's sync in the middle of a transaction).
    if (pragmaValue(db, 'user_version') === SCHEMA_VERSION && (service === undefined || serviceIs() === service)) return db;
    let compressed = false;
    transaction(db, () => {
      const version = pragmaValue(db, 'user_version') as number;
      if (version >= 2 && version <= 5) {
        if (version === 2) rederive(db);
        if (version <= 3) {
          compressRecords(db);
          compressed = true;
        }
        if (version <= 4) reindex(db, onUpgrade);
        db.exec('DROP TABLE IF EXISTS cache');
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      } else if (version !== SCHEMA_VERSION) {
        if (version !== 0) dropAll(db);
        db.exec(SCHEMA);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }
      // FTS5 merges its segments 16 at a time instead of 4: each posting is rewritten about half
      // as often while a large log is written (less CPU in a back-fill), and a search reads
      // at most 15 segments a level, which stays far under a millisecond's difference.
      const merge = db.prepare(`SELECT v FROM call_fts_config WHERE k = 'automerge'`).get() as { v: number } | undefined;
      if (merge?.v !== FTS_AUTOMERGE) db.exec(`INSERT INTO call_fts (call_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE})`);
      if (service !== undefined) {
        const was = serviceIs();
        if (was !== undefined && was !== service) clearData(db);
        if (was !== service) db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('service', ?)`).run(service);
      }
    });
    // The JSON text's pages are free now: give them back (not while another connection reads; then they are reused).
    if (compressed) vacuumIfAlone(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** The service whose calls the archive holds (see serviceOf), if it has been given one. */
function heldService(db: DatabaseSync): string | undefined {
  return (db.prepare(`SELECT value FROM meta WHERE key = 'service'`).get() as { value: string } | undefined)?.value;
}

/** Why an archive could not be opened for writing: this user may not write it (its file or directory is another user's, or read-only). */
function cannotWrite(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return true;
  const errcode = (err as { errcode?: unknown }).errcode;
  // SQLITE_READONLY and SQLITE_CANTOPEN, with their extended codes (a read-only directory, -shm, …).
  return typeof errcode === 'number' && [8, 14].includes(errcode & 0xff);
}

/**
 * Opens an archive this user may read but not write (another user's, a read-only mount, a
 * copy), for commands that only read: nothing is created or changed. In WAL mode SQLite needs to
 * create the -shm file next to it; where it cannot and no writer has left a -wal file, the file
 * is read as immutable (no locks, no -shm), which is safe because nothing can be pending.
 */
export function openArchiveDbReadOnly(path: string, service: string | undefined): DatabaseSync {
  try {
    return openReadOnly(path, service);
  } catch (err) {
    throw isUnreadableDb(err) ? new ArchiveUnreadable(path, err) : err;
  }
}

function openReadOnly(path: string, service: string | undefined): DatabaseSync {
  const readable = (db: DatabaseSync) => {
    try {
      pragmaValue(db, 'user_version'); // SQLite opens lazily: the first read finds what is missing
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  };
  let db: DatabaseSync;
  try {
    db = readable(openSqlite(path, { readOnly: true }));
  } catch (err) {
    if (!cannotWrite(err)) throw err;
    if (walBytes(path) > 0) {
      throw new Error(
        `the call archive ${path} cannot be written by this user, and a sync left changes in ${path}-wal that only a user who can write it can read; run ` +
          `\`switchboard archive sync\` as its owner first`,
        { cause: err },
      );
    }
    const url = pathToFileURL(path);
    url.search = 'immutable=1';
    db = readable(openSqlite(url, { readOnly: true }));
  }
  try {
    const version = pragmaValue(db, 'user_version');
    if (!READABLE_VERSIONS.includes(version as number)) {
      throw new Error(
        `the call archive ${path} cannot be written by this user, and was made ` +
          `by ${version === 0 ? 'nothing yet' : `another version of Switchboard (archive schema ${String(version)}, this one reads ${SCHEMA_VERSION})`}; run ` +
          `\`switchboard archive sync\` as its owner first`,
      );
    }
    const held = heldService(db);
    if (service !== undefined && held !== service) {
      throw new Error(
        `the call archive ${path} cannot be written by this user, and holds the calls of another service (${held ?? 'none'}); run \`switchboard archive ` +
          `sync\` as its owner first`,
      );
    }
    registerRecordFunctions(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * The records a version 2 archive read otherwise than their view does: a duration only in
 * startedAt/endedAt, a cost only in costBreakdown, words only in messages (or artifact), a
 * summary only under analysis. Found by SQL, so an archive of records in our spec's shape (where
 * the view reads what version 2 read) is not parsed again.
 */
const STALE = `(c.duration IS NULL AND json_extract(r.json, '$.startedAt') IS NOT NULL AND json_extract(r.json, '$.endedAt') IS NOT NULL)
  OR (c.cost IS NULL AND json_extract(r.json, '$.costBreakdown.total') IS NOT NULL)
  OR (coalesce(json_extract(r.json, '$.transcript'), '') = ''
    AND (json_extract(r.json, '$.messages') IS NOT NULL OR json_extract(r.json, '$.artifact') IS NOT NULL))
  OR (coalesce(json_extract(r.json, '$.summary'), '') = '' AND json_extract(r.json, '$.analysis.summary') IS NOT NULL)`;

/**
 * A version 2 archive indexed records by our spec's field names alone: the calls it read
 * otherwise (STALE) get their duration and cost columns and full-text rows derived again from
 * the records it holds, and the rollup is summed again when a column changed. Run inside the
 * opening transaction (BEGIN IMMEDIATE), so it happens once, whoever opens the file first.
 */
function rederive(db: DatabaseSync): void {
  const stale = db.prepare(`SELECT c.rowid AS rowid FROM calls c JOIN records r ON r.rowid = c.record WHERE ${STALE}`).all() as { rowid: number }[];
  const rowids = stale.map((r) => r.rowid);
  // The text the version 2 view gave (what its index holds), read before the view changes.
  const read = db.prepare(
    `SELECT c.duration AS duration, c.cost AS cost, c.customer_name AS customer_name, c.customer_number AS customer_number,
       json_extract(r.json, '$.transcript') AS transcript, json_extract(r.json, '$.summary') AS summary, r.json AS json
     FROM calls c JOIN records r ON r.rowid = c.record WHERE c.rowid = ?`,
  );
  const update = db.prepare('UPDATE calls SET duration = ?, cost = ? WHERE rowid = ?');
  const ftsInsert = db.prepare('INSERT INTO call_fts (rowid, transcript, summary, customer_name, customer_number) VALUES (?, ?, ?, ?, ?)');
  const ftsDelete = db.prepare(`INSERT INTO call_fts (call_fts, rowid, transcript, summary, customer_name, customer_number) VALUES ('delete', ?, ?, ?, ?, ?)`);
  db.exec('DROP VIEW IF EXISTS call_text');
  db.exec(CALL_TEXT_VIEW_3);
  let moved = false;
  for (const rowid of rowids) {
    const r = read.get(rowid) as {
      duration: number | null;
      cost: number | null;
      customer_name: string | null;
      customer_number: string | null;
      transcript: unknown;
      summary: unknown;
      json: string;
    };
    let v;
    try {
      v = viewCall(JSON.parse(r.json) as Record<string, unknown>);
    } catch {
      continue;
    }
    const duration = v.durationSeconds ?? null;
    const cost = v.cost ?? null;
    if (duration !== r.duration || cost !== r.cost) {
      update.run(duration, cost, rowid);
      moved = true;
    }
    const text = (x: unknown) => (typeof x === 'string' ? x : null);
    ftsDelete.run(rowid, text(r.transcript), text(r.summary), r.customer_name, r.customer_number);
    ftsInsert.run(rowid, v.transcript ?? null, v.summary ?? null, r.customer_name, r.customer_number);
  }
  if (!moved) return;
  db.exec('DELETE FROM rollup');
  const dims: [number, string][] = [
    [DIM.all, `''`],
    [DIM.assistant, `coalesce(assistant_id, '')`],
    [DIM.number, `coalesce(phone_number_id, '')`],
    [DIM.status, `coalesce(status, '')`],
    [DIM.endedReason, `coalesce(ended_reason, '')`],
    [DIM.type, `coalesce(type, '')`],
  ];
  for (const [dim, key] of dims) {
    db.exec(`INSERT INTO rollup (dim, bucket, key, calls, seconds, cost)
      SELECT ${dim}, created_at / ${BUCKET_MS}, ${key}, count(*), total(duration), total(cost) FROM calls GROUP BY 2, 3`);
  }
}

/**
 * A version 3 archive's records (JSON text, one row each) compressed into blocks, in creation
 * order (neighbours alike compress best), each call's `record` pointed at its block and line.
 * Positions, the full-text index (its text is the same) and the rollup are left as they are.
 * Run inside the opening transaction, so it happens once, whoever opens the file first.
 */
function compressRecords(db: DatabaseSync): void {
  db.exec(BLOCK_TABLES);
  const blocks = blocksOf(db);
  const chunk = BLOCK_RECORDS * 32;
  const next = db.prepare(
    'SELECT c.rowid AS rowid, r.json AS json FROM calls c JOIN records r ON r.rowid = c.record WHERE c.rowid > ? ORDER BY c.rowid LIMIT ?',
  );
  const point = db.prepare('UPDATE calls SET record = ? WHERE rowid = ?');
  let after = -1;
  for (;;) {
    const rows = next.all(after, chunk) as { rowid: number; json: string }[];
    if (rows.length === 0) break;
    const first = blocks.nextBlock();
    blocks.write(
      first,
      rows.map((r) => r.json),
    );
    rows.forEach((r, i) => point.run(refOf(first, i), r.rowid));
    after = rows[rows.length - 1].rowid;
  }
  db.exec('DROP VIEW IF EXISTS call_text');
  db.exec('DROP TABLE records');
  // The calls table again, for its smaller indexes (a UNIQUE constraint's index cannot be dropped).
  db.exec('ALTER TABLE calls RENAME TO calls_3');
  db.exec(NAMES_TABLE);
  db.exec(CALLS_TABLE);
  db.exec(`INSERT OR IGNORE INTO names (value) SELECT assistant_id FROM calls_3 WHERE assistant_id IS NOT NULL
    UNION SELECT phone_number_id FROM calls_3 WHERE phone_number_id IS NOT NULL`);
  db.exec(`INSERT INTO calls SELECT rowid, id, created_at, (SELECT rowid FROM names WHERE value = assistant_id),
    (SELECT rowid FROM names WHERE value = phone_number_id), type, status, ended_reason, cost, duration, customer_number, customer_name, ended, record
    FROM calls_3 ORDER BY rowid`);
  db.exec('DROP TABLE calls_3');
  db.exec(CALLS_INDEXES);
  db.exec(CALL_TEXT_VIEW);
}

/**
 * The full-text index made again from the text view, and the turn latencies read from the records (what this version indexes: tool calls, the
 * unspaced scripts cut into words), in chunks so `onProgress` hears how far it has come. Run
 * inside the opening transaction, so it happens once and whole, whoever opens the file first.
 */
function reindex(db: DatabaseSync, onProgress?: UpgradeProgress): void {
  db.exec('DROP VIEW IF EXISTS call_text');
  db.exec(CALL_TEXT_VIEW);
  db.exec(LATENCY_TABLE.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS'));
  db.exec('DELETE FROM latency');
  const records = db.prepare(`SELECT rowid, record FROM calls WHERE rowid > ? ORDER BY rowid LIMIT ${REINDEX_CHUNK}`);
  const latency = db.prepare('INSERT INTO latency (rowid, turns) VALUES (?, ?)');
  const blocks = blocksOf(db);
  db.exec(`INSERT INTO call_fts (call_fts) VALUES ('delete-all')`);
  const total = (db.prepare('SELECT count(*) AS n FROM calls').get() as { n: number }).n;
  const chunk = db.prepare(`INSERT INTO call_fts (rowid, transcript, summary, customer_name, customer_number)
    SELECT rowid, transcript, summary, customer_name, customer_number FROM call_text WHERE rowid > ? ORDER BY rowid LIMIT ${REINDEX_CHUNK}`);
  const last = db.prepare(`SELECT rowid FROM calls WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${REINDEX_CHUNK - 1}`);
  let after = -1;
  let done = 0;
  onProgress?.(0, total);
  while (done < total) {
    chunk.run(after);
    for (const r of records.all(after) as { rowid: number; record: number }[]) {
      const json = blocks.record(r.record);
      if (json === undefined) continue;
      let turns;
      try {
        turns = latencyText(JSON.parse(json));
      } catch {
        turns = undefined;
      }
      if (turns !== undefined) latency.run(r.rowid, turns);
    }
    const end = last.get(after) as { rowid: number } | undefined;
    done = end ? done + REINDEX_CHUNK : total;
    onProgress?.(Math.min(done, total), total);
    if (!end) break;
    after = end.rowid;
  }
}

const REINDEX_CHUNK = 2000;

function vacuumIfAlone(db: DatabaseSync): void {
  try {
    db.exec('VACUUM');
  } catch {
    // another connection reads: the free pages are reused by the next writes instead
  }
}

function dropAll(db: DatabaseSync): void {
  const objects = db
    .prepare(`SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'call_fts_%'`)
    .all() as {
    type: string;
    name: string;
  }[];
  for (const o of objects) db.exec(`DROP ${o.type === 'view' ? 'VIEW' : 'TABLE'} IF EXISTS "${o.name}"`);
}

/** Empties the call data and the sync state (a new generation, so a running sync stops). Call inside a transaction. */
export function clearData(db: DatabaseSync): void {
  for (const t of DATA_TABLES) db.exec(`DELETE FROM ${t}`);
  db.exec(`INSERT INTO call_fts (call_fts) VALUES ('delete-all')`);
  db.exec(`DELETE FROM meta WHERE key IN ('sync', 'lastSync')`);
  const gen = db.prepare(`SELECT value FROM meta WHERE key = 'generation'`).get() as { value: string } | undefined;
  db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)`).run(String(Number(gen?.value ?? 0) + 1));
}
