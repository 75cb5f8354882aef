// The archive's checkpoint thread (src/archive/checkpoint.ts): while it runs, the writing
// connection leaves checkpoints to it, and what it copies lets the WAL start over; closed, the
// connection checkpoints for itself again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCheckpointer } from '../../src/archive/checkpoint.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';

test('a checkpoint thread copies what was committed, the WAL starts over, and close gives checkpoints back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-checkpoint-'));
  const path = join(dir, 'a.db');
  const db = openSqlite(path);
  try {
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
    const fill = () => {
      db.exec('BEGIN');
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1000));
      db.exec('COMMIT');
    };
    const cp = startCheckpointer(db, path);
    assert.equal(pragmaValue(db, 'wal_autocheckpoint'), 0);
    fill();
    const grown = statSync(`${path}-wal`).size;
    assert.ok(grown > 2_000_000, `the WAL holds the commit (${grown} bytes)`);
    cp.request();
    await cp.settle();
    // Everything is in the database file: a reader opened now needs no WAL frame.
    const reader = openSqlite(path, { readOnly: true });
    try {
      assert.equal((reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 2000);
    } finally {
      reader.close();
    }
    // The next write starts the WAL over instead of appending: it does not grow.
    fill();
    assert.equal(statSync(`${path}-wal`).size, grown);
    await cp.close();
    assert.equal(pragmaValue(db, 'wal_autocheckpoint'), 1000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
