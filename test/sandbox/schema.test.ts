// Data dirs written by an older build open in this one with every call and conversation kept;
// one from a newer build is refused with a message naming the dir, and left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, transaction } from '../../src/sandbox/sqlite.js';
import { startTestSandbox } from '../support/sandbox.js';
import { eventually, get, post } from './http.js';

/** Turns a current data dir back into what schema 3 wrote: each call's messages in its own row. */
function downgradeToSchema3(dataDir: string): void {
  const db = openSqlite(join(dataDir, 'sandbox.db'));
  try {
    transaction(db, () => {
      db.exec(`ALTER TABLE calls ADD COLUMN messages TEXT NOT NULL DEFAULT '[]';
        UPDATE calls SET messages = (SELECT v.messages FROM conversations v WHERE v.id = calls.conversation_id);
        ALTER TABLE calls DROP COLUMN conversation_id;
        DROP TABLE conversations;`);
      db.exec('PRAGMA user_version = 3');
    });
  } finally {
    db.close();
  }
}

test('a schema-3 data dir opens with its calls, their conversations included', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-schema3-'));
  try {
    const first = await startTestSandbox({ dataDir, callPace: 1 });
    const assistant = (await get(first, '/assistants')).body.assistants[0];
    const number = (await get(first, '/phone-numbers')).body.phoneNumbers[0];
    await post(first, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550199', name: 'Ada' } });
    // Compared once every call has ended: a call still under way reads differently after the restart.
    const before = await eventually(async () => {
      const calls = (await get(first, '/calls/details?limit=1000')).body.calls;
      return calls.every((c: any) => c.endedAt) ? calls : undefined;
    });
    await first.close();
    downgradeToSchema3(dataDir);

    const again = await startTestSandbox({ dataDir });
    try {
      const after = (await get(again, '/calls/details?limit=1000')).body.calls;
      assert.equal(after.length, before.length);
      assert.deepEqual(after, before);
      assert.ok(after.some((c: any) => c.messages.length > 0 && c.customer.name === 'Ada'));
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a data dir from a newer build is refused with the way out, and left untouched', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-schema-new-'));
  try {
    await (await startTestSandbox({ dataDir })).close();
    const db = openSqlite(join(dataDir, 'sandbox.db'));
    db.exec('PRAGMA user_version = 99');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(join(dataDir, 'sandbox.db'));
    await assert.rejects(startTestSandbox({ dataDir }), (err: Error) => {
      assert.match(err.message, /newer build \(schema 99/);
      assert.ok(err.message.includes(dataDir), err.message);
      assert.match(err.message, /another --data-dir/);
      return true;
    });
    assert.ok(readFileSync(join(dataDir, 'sandbox.db')).equals(bytes), 'the data dir was changed');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
