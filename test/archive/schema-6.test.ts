// An archive made at schema 5, which had a `cache` table of last-known values nothing read (the
// lists' rows are JSON files: src/config/cached-lists.ts): opened, the table is dropped and
// nothing else is lost (calls, their order, search, stats, sync state, the service it holds),
// without indexing again; where it cannot be written, it is read as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';
import { openArchiveDbReadOnly } from '../../src/archive/schema.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';
import { vapiCall } from '../support/vapi-records.js';

const CALLS = [
  vapiCall('c1', '2026-11-21T09:00:00.000Z', { said: 'I would like a refund for the kettle', summary: 'refund' }),
  vapiCall('c2', '2026-11-21T10:00:00.000Z', { said: 'Can I move my booking to Friday', summary: 'booking' }),
  vapiCall('c3', '2026-11-21T11:00:00.000Z', { said: 'The kettle arrived broken', summary: 'damage' }),
] as unknown as Call[];

const tables = (path: string) => {
  const db = openSqlite(path, { readOnly: true });
  try {
    const names = (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'call_fts_%'`).all() as { name: string }[]).map(
      (r) => r.name,
    );
    return { version: pragmaValue(db, 'user_version'), names: names.sort() };
  } finally {
    db.close();
  }
};

/** An archive as schema 5 left one: this version's tables, the `cache` table with a row, user_version 5. */
function archiveAtVersion5(path: string): void {
  const archive = openArchive(path, { service: 'sandbox:a' });
  archive.put(CALLS);
  archive.close();
  const db = openSqlite(path);
  try {
    db.exec(`CREATE TABLE cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
      INSERT INTO cache (key, value, updated_at) VALUES ('assistants', '[{"id":"a1"}]', 1);
      INSERT OR REPLACE INTO meta (key, value) VALUES ('lastSync', '{"at":"2026-11-21T12:00:00.000Z","added":3,"updated":0}');
      PRAGMA user_version = 5;`);
  } finally {
    db.close();
  }
}

function withV5(fn: (path: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-schema6-'));
  try {
    const path = join(dir, 'a.db');
    archiveAtVersion5(path);
    fn(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a schema 5 archive opened drops its cache table and keeps everything else, without indexing again', () => {
  withV5((path) => {
    const before = tables(path);
    assert.equal(before.version, 5);
    assert.ok(before.names.includes('cache'), 'the old archive has the table');
    const upgrades: unknown[] = [];
    const archive = openArchive(path, { service: 'sandbox:a', onUpgrade: (...p) => upgrades.push(p) });
    try {
      assert.deepEqual(upgrades, [], 'nothing indexed again');
      assert.deepEqual(
        archive.window({}, { limit: 10 }).map((r) => r.call.id),
        ['c3', 'c2', 'c1'],
      );
      assert.deepEqual(
        archive
          .search('kettle', {}, { limit: 10 })
          .map((h) => h.call.id)
          .sort(),
        ['c1', 'c3'],
      );
      assert.equal(archive.stats('day').total.calls, 3);
      assert.equal(archive.lastSync()?.at, '2026-11-21T12:00:00.000Z');
      assert.equal(archive.get('c2')?.id, 'c2');
    } finally {
      archive.close();
    }
    const after = tables(path);
    assert.equal(after.version, 6);
    assert.deepEqual(
      after.names,
      before.names.filter((n) => n !== 'cache'),
    );
    // Opened for the service it holds: nothing was emptied.
    const again = openArchive(path, { service: 'sandbox:a' });
    try {
      assert.equal(again.count(), 3);
    } finally {
      again.close();
    }
  });
});

test("a schema 5 archive is read as it is where it is not opened for writing (another user's, a read-only mount)", () => {
  withV5((path) => {
    const db = openArchiveDbReadOnly(path, 'sandbox:a');
    try {
      const ids = (db.prepare('SELECT id FROM calls ORDER BY rowid DESC').all() as { id: string }[]).map((r) => r.id);
      assert.deepEqual(ids, ['c3', 'c2', 'c1']);
    } finally {
      db.close();
    }
    assert.equal(tables(path).version, 5, 'a read changes nothing');
  });
});
