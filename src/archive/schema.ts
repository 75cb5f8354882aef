// The archive's tables. It is a cache of the service's call log: a database written by another
// schema version, or for another service, is emptied and filled again by the next sync.
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { privateDir } from '../config/private-dir.js';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite, pragmaValue, transaction } from '../sqlite.js';

export const SCHEMA_VERSION = 2;
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

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE calls (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  assistant_id TEXT, phone_number_id TEXT, type TEXT, status TEXT, ended_reason TEXT,
  cost REAL, duration REAL, customer_number TEXT, customer_name TEXT,
  ended INTEGER NOT NULL,
  record INTEGER NOT NULL);
CREATE INDEX calls_by_assistant ON calls(assistant_id);
CREATE INDEX calls_by_number ON calls(phone_number_id);
CREATE INDEX calls_unfinished ON calls(created_at) WHERE ended = 0;
-- The records as the service sent them, apart from the narrow rows above so scans stay small;
-- numbered in arrival order, so they are always appended (a b-tree filled from the front, as
-- a newest-first walk would, keeps its pages half empty).
CREATE TABLE records (rowid INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE VIEW call_text AS
  SELECT c.rowid AS rowid, json_extract(r.json, '$.transcript') AS transcript, json_extract(r.json, '$.summary') AS summary,
         c.customer_name AS customer_name, c.customer_number AS customer_number
  FROM calls c JOIN records r ON r.rowid = c.record;
-- External content: the text is read from the records when a snippet is made, never stored twice.
CREATE VIRTUAL TABLE call_fts USING fts5(transcript, summary, customer_name, customer_number,
  content = 'call_text', content_rowid = 'rowid', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE rollup (
  dim INTEGER NOT NULL, bucket INTEGER NOT NULL, key TEXT NOT NULL,
  calls INTEGER NOT NULL, seconds REAL NOT NULL, cost REAL NOT NULL,
  PRIMARY KEY (dim, bucket, key)) WITHOUT ROWID;
CREATE TABLE lease (name TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
  since INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
`;

const FTS_AUTOMERGE = 16;
const PAGE_SIZE = 16_384;

const DATA_TABLES = ['calls', 'records', 'rollup'];

/**
 * Calls the archive holds, from the rollup (a row a quarter hour, kept in the same transaction as
 * the calls): count(*) reads a whole index, ~100 ms at a million calls, longer cold.
 */
export function callsHeld(db: DatabaseSync, dim: number = DIM.all, key = ''): number {
  return (db.prepare('SELECT total(calls) AS n FROM rollup WHERE dim = ? AND key = ?').get(dim, key) as { n: number }).n;
}

/** Opens (creating, 0700 dir / 0600 file) the archive at `path`; schema made or reset under a write lock when needed. */
export function openArchiveDb(path: string, service: string | undefined): DatabaseSync {
  // The archive dir and the cache dir above it (<cache>/switchboard/archive/<profile>.db).
  privateDir(dirname(path), dirname(dirname(path)));
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600); // SQLite gives its -wal/-shm files the same mode
  const db = openSqlite(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // 16 KiB pages for a new file (an existing one keeps its own: WAL cannot change it). A record
    // of ~1.6 KB wasted a sixth of each 4 KiB page; a 200k back-fill with 16 KiB pages: 5% smaller
    // file, 10% less CPU and 12% less time (two rounds each, shared machine).
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    // A cache: NORMAL keeps every committed page across kill -9 (only power loss can drop the last).
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32000; PRAGMA temp_store = MEMORY');
    const serviceIs = () => (db.prepare(`SELECT value FROM meta WHERE key = 'service'`).get() as { value: string } | undefined)?.value;
    // Already made for this service (the usual case): read, so opening never waits for a writer
    // (another process's or thread's sync in the middle of a transaction).
    if (pragmaValue(db, 'user_version') === SCHEMA_VERSION && (service === undefined || serviceIs() === service)) return db;
    transaction(db, () => {
      const version = pragmaValue(db, 'user_version') as number;
      if (version !== SCHEMA_VERSION) {
        if (version !== 0) dropAll(db);
        db.exec(SCHEMA);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }
      // FTS5 merges its segments 16 at a time instead of 4: each posting is rewritten about half
      // as often while a large log is written (-16% CPU in a 200k back-fill), and a search reads
      // at most 15 segments a level, which stays far under a millisecond's difference.
      const merge = db.prepare(`SELECT v FROM call_fts_config WHERE k = 'automerge'`).get() as { v: number } | undefined;
      if (merge?.v !== FTS_AUTOMERGE) db.exec(`INSERT INTO call_fts (call_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE})`);
      if (service !== undefined) {
        const was = serviceIs();
        if (was !== undefined && was !== service) clearData(db);
        if (was !== service) db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('service', ?)`).run(service);
      }
    });
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function dropAll(db: DatabaseSync): void {
  const objects = db.prepare(`SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'call_fts_%'`).all() as { type: string; name: string }[];
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
