// Data dirs written by an older build open in this one with every call and conversation kept, and
// serve today's shapes; one from a newer build is refused with a message naming the dir, and left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, transaction } from '../../src/sandbox/sqlite.js';
import { startTestSandbox } from '../support/sandbox.js';
import { eventually, get, post } from './http.js';

/** Turns a current data dir back into what schema 5 wrote: a session's messages a JSON array in its row. */
function downgradeToSchema5(dataDir: string): void {
  const db = openSqlite(join(dataDir, 'sandbox.db'));
  try {
    transaction(db, () => {
      db.exec(`ALTER TABLE sessions ADD COLUMN messages TEXT NOT NULL DEFAULT '[]';
        UPDATE sessions SET messages = (SELECT json_group_array(json(m.body)) FROM
          (SELECT body FROM session_messages WHERE session_id = sessions.id ORDER BY seq) m);
        DROP TABLE session_messages;`);
      db.exec('PRAGMA user_version = 5');
    });
  } finally {
    db.close();
  }
}

/**
 * Turns a current data dir back into what schema 4 wrote: call messages `{ role: 'assistant' | 'user',
 * content }`, a phone number's organization named `service`.
 */
function downgradeToSchema4(dataDir: string): void {
  downgradeToSchema5(dataDir);
  const db = openSqlite(join(dataDir, 'sandbox.db'));
  try {
    transaction(db, () => {
      for (const r of db.prepare('SELECT id, messages FROM conversations').all() as { id: string; messages: string }[]) {
        const old = (JSON.parse(r.messages) as { role: string; message: string }[]).map(({ role, message, ...rest }) => ({
          role: role === 'bot' ? 'assistant' : role,
          content: message,
          ...rest,
        }));
        db.prepare('UPDATE conversations SET messages = ? WHERE id = ?').run(JSON.stringify(old), r.id);
      }
      for (const r of db.prepare('SELECT id, body FROM phone_numbers').all() as { id: string; body: string }[]) {
        const { organization, ...rest } = JSON.parse(r.body);
        db.prepare('UPDATE phone_numbers SET body = ? WHERE id = ?').run(JSON.stringify({ ...rest, service: organization }), r.id);
      }
      db.exec('PRAGMA user_version = 4');
    });
  } finally {
    db.close();
  }
}

/** Turns a current data dir back into what schema 3 wrote: schema 4's shapes, each call's messages in its own row. */
function downgradeToSchema3(dataDir: string): void {
  downgradeToSchema4(dataDir);
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

// Its own data dirs, not startRestartableSandbox(): the test rewrites the schema between starts.
/** A data dir with a finished call to Ada and a chat session of two turns; its calls, numbers, files and session as served, then closed. */
async function dataDirWithCalls(prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const first = await startTestSandbox({ dataDir, callPace: 1 });
  try {
    const assistant = (await get(first, '/assistants')).body.assistants[0];
    const number = (await get(first, '/phone-numbers')).body.phoneNumbers[0];
    await post(first, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550199', name: 'Ada' } });
    // Compared once every call has ended: a call still under way reads differently after the restart.
    const calls = await eventually(async () => {
      const all = (await get(first, '/calls/details?limit=1000')).body.calls;
      return all.every((c: any) => c.endedAt) ? all : undefined;
    });
    const session = (await post(first, '/sessions', { assistantId: assistant.id })).body.session;
    for (const input of ['What are your opening hours?', 'And on Sunday?']) await post(first, '/chats', { sessionId: session.id, input });
    return {
      dataDir,
      calls,
      numbers: (await get(first, '/phone-numbers')).body.phoneNumbers,
      files: (await get(first, '/files?limit=100')).body.files,
      session: (await get(first, `/chats/session/${session.id}`)).body.session,
    };
  } finally {
    await first.close();
  }
}

for (const [schema, downgrade] of [
  [3, downgradeToSchema3],
  [4, downgradeToSchema4],
  [5, downgradeToSchema5],
] as const) {
  test(`a schema-${schema} data dir opens with its calls, their conversations and its chat sessions included, in today's shapes`, async () => {
    const before = await dataDirWithCalls(`switchboard-schema${schema}-`);
    try {
      downgrade(before.dataDir);
      const again = await startTestSandbox({ dataDir: before.dataDir });
      try {
        const after = (await get(again, '/calls/details?limit=1000')).body.calls;
        assert.equal(after.length, before.calls.length);
        assert.deepEqual(after, before.calls);
        const ada = after.find((c: any) => c.messages.length > 0 && c.customer.name === 'Ada');
        assert.ok(ada, 'the placed call kept its conversation');
        assert.equal(ada.messages[0].role, 'bot');
        assert.ok(after.every((c: any) => c.messages.every((m: any) => typeof m.message === 'string' && !('content' in m))));
        assert.deepEqual((await get(again, '/phone-numbers')).body.phoneNumbers, before.numbers);
        // Less their URLs, which name the port.
        const unlocated = (files: any[]) => files.map(({ url: _u, parsedTextUrl: _p, ...f }) => f);
        assert.deepEqual(unlocated((await get(again, '/files?limit=100')).body.files), unlocated(before.files));
        // The session's messages in their order, and the next turn goes after them.
        const n = before.session.messages.length;
        assert.deepEqual(
          before.session.messages.slice(-4).map((m: any) => m.role),
          ['user', 'assistant', 'user', 'assistant'],
        );
        assert.deepEqual((await get(again, `/chats/session/${before.session.id}`)).body.session, before.session);
        await post(again, '/chats', { sessionId: before.session.id, input: 'Thanks' });
        const next = (await get(again, `/chats/session/${before.session.id}`)).body.session.messages;
        assert.deepEqual(next.slice(0, n), before.session.messages);
        assert.deepEqual(next[n], { role: 'user', content: 'Thanks' });
        assert.equal(next.length, n + 2);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(before.dataDir, { recursive: true, force: true });
    }
  });
}

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
