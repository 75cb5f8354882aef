// An archive as version 3 of its schema left it (each record as JSON text in a `records` table,
// calls indexed by their whole ids, assistant and number ids in their rows), made from one this version wrote: for the tests of the
// migrations (test/archive/records.test.ts, test/archive/blocks.test.ts).
import { openArchive } from '../../src/archive/index.js';
import { openSqlite } from '../../src/sqlite.js';

/** Turns the (closed) archive at `path` into a version 3 one holding the same calls, positions and full-text index. */
export function downgradeToVersion3(path: string): void {
  const archive = openArchive(path);
  const texts = [...archive.exportJson()];
  archive.close();
  const db = openSqlite(path);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(`CREATE TABLE records (rowid INTEGER PRIMARY KEY, json TEXT NOT NULL);
      ALTER TABLE calls RENAME TO calls_4;
      CREATE TABLE calls (
        rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL,
        assistant_id TEXT, phone_number_id TEXT, type TEXT, status TEXT, ended_reason TEXT,
        cost REAL, duration REAL, customer_number TEXT, customer_name TEXT, ended INTEGER NOT NULL, record INTEGER NOT NULL);
      INSERT INTO calls SELECT rowid, id, created_at, (SELECT value FROM names WHERE rowid = assistant), (SELECT value FROM names WHERE rowid = number),
        type, status, ended_reason, cost, duration, customer_number, customer_name, ended, record FROM calls_4;
      DROP VIEW call_text;
      DROP TABLE calls_4;
      DROP TABLE blocks;
      DROP TABLE dicts;
      DROP TABLE names;
      CREATE INDEX calls_by_assistant ON calls(assistant_id);
      CREATE INDEX calls_by_number ON calls(phone_number_id);
      CREATE INDEX calls_unfinished ON calls(created_at) WHERE ended = 0;
      CREATE VIEW call_text AS
        SELECT c.rowid AS rowid, call_transcript(r.json) AS transcript, call_summary(r.json) AS summary,
               c.customer_name AS customer_name, c.customer_number AS customer_number
        FROM calls c JOIN records r ON r.rowid = c.record;`);
    const insert = db.prepare('INSERT INTO records (json) VALUES (?)');
    const point = db.prepare('UPDATE calls SET record = ? WHERE id = ?');
    // Oldest first, as a sync appends them.
    for (const json of texts.reverse()) point.run(insert.run(json).lastInsertRowid, (JSON.parse(json) as { id: string }).id);
    db.exec('PRAGMA user_version = 3');
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}
