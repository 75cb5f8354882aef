// `switchboard sandbox seed --calls N` (src/sandbox/seed.ts seedCalls): calls planned in creation
// order a chunk at a time, each conversation stored once. What is seeded must stay as varied as
// a real log, the same for the same count and moment (ids aside), complete across chunk
// boundaries, and every call's conversation must be there, even after a batch rolled back. And
// the times a seeded call is read with (simulate.ts iso) are exactly what Date#toISOString writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxStore, type Db } from '../../src/sandbox/db.js';
import { openSeeded, seedCalls } from '../../src/sandbox/seed.js';
import { CallScript, iso, planCall } from '../../src/sandbox/simulate.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
/** More than one chunk of the seed's (20,000), ending part-way through the third. */
const COUNT = 45_001;

function withSeededDir<T>(fn: (db: Db) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-seed-'));
  const { db } = openSeeded(dir, true);
  try {
    return fn(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Seeded = { created_at: number; type: string; assistant_id: string; customer: string; ended_reason: string; ended_at: number; cost: number };

/** The calls seedCalls added (after the demo log's), in the order they were written. */
function seeded(db: Db, before: number): Seeded[] {
  return db
    .prepare('SELECT created_at, type, assistant_id, customer, ended_reason, ended_at, cost FROM calls WHERE rowid > ? ORDER BY rowid')
    .all(before) as Seeded[];
}

const maxRowid = (db: Db) => (db.prepare('SELECT max(rowid) AS n FROM calls').get() as { n: number }).n;

test('a seed across several chunks writes every call once, in creation order, inside the month before now, varied as a real log', () => {
  withSeededDir((db) => {
    const before = maxRowid(db);
    assert.equal(seedCalls(db, COUNT, { now: NOW }), COUNT);
    const rows = seeded(db, before);
    assert.equal(rows.length, COUNT);
    const ids = db.prepare('SELECT count(DISTINCT id) AS n FROM calls WHERE rowid > ?').get(before) as { n: number };
    assert.equal(ids.n, COUNT);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].created_at <= rows[i].created_at, `call ${i} was written before an older one`);
    assert.ok(rows[0].created_at >= NOW - 30 * DAY - 15 * 60_000);
    assert.ok(rows.every((r) => r.ended_at <= NOW));

    // Spread over the month, leaning towards its recent end, not bunched at either end.
    const days = new Set(rows.map((r) => Math.floor((NOW - r.created_at) / DAY)));
    assert.ok(days.size >= 29, `${days.size} days`);
    const recent = rows.filter((r) => r.created_at > NOW - 10 * DAY).length;
    const old = rows.filter((r) => r.created_at < NOW - 20 * DAY).length;
    assert.ok(recent > old && old > COUNT / 10, `recent ${recent}, old ${old}`);

    const count = <K extends keyof Seeded>(k: K) => new Set(rows.map((r) => r[k])).size;
    const assistants = (db.prepare('SELECT count(*) AS n FROM assistants').get() as { n: number }).n;
    assert.equal(count('assistant_id'), assistants);
    assert.equal(count('type'), 2);
    assert.equal(count('ended_reason'), 7);
    assert.ok(count('cost') > 100);
    const customers = rows.map((r) => JSON.parse(r.customer) as { number: string; name?: string });
    assert.ok(new Set(customers.map((c) => c.number)).size > COUNT * 0.99);
    const named = customers.filter((c) => c.name !== undefined);
    assert.ok(named.length > COUNT * 0.7 && named.length < COUNT * 0.95);
    assert.ok(new Set(named.map((c) => c.name)).size > 100);

    // Conversations are shared, each stored once, and every call has its own.
    const conv = db.prepare('SELECT count(*) AS calls, count(DISTINCT c.conversation_id) AS used FROM calls c WHERE rowid > ?').get(before) as {
      calls: number;
      used: number;
    };
    assert.ok(conv.used > 100 && conv.used < conv.calls / 10, `${conv.used} conversations for ${conv.calls} calls`);
    const missing = db.prepare('SELECT count(*) AS n FROM calls c LEFT JOIN conversations v ON v.id = c.conversation_id WHERE v.id IS NULL').get() as {
      n: number;
    };
    assert.equal(missing.n, 0);
  });
});

test('the same count at the same moment seeds the same calls (ids aside); another count, other calls', () => {
  const run = (n: number) =>
    withSeededDir((db) => {
      const before = maxRowid(db);
      seedCalls(db, n, { now: NOW });
      // Assistants have new ids in each data dir: compared by their place in the list.
      const place = new Map(new SandboxStore(db).listAssistants().map((x, i) => [x.id, i]));
      return seeded(db, before).map((r) => ({ ...r, assistant_id: place.get(r.assistant_id) }));
    });
  const a = run(3000);
  assert.deepEqual(run(3000), a);
  assert.notDeepEqual(run(3001).slice(0, 3000), a);
});

test('a batch that rolls back leaves no call pointing at a conversation it took away', () => {
  withSeededDir((db) => {
    const store = new SandboxStore(db);
    const [assistant] = store.listAssistants();
    const [number] = store.listPhoneNumbers();
    const script = new CallScript(assistant.body, []);
    const plan = (id: string) =>
      planCall({
        id,
        type: 'outboundPhoneCall',
        assistantId: assistant.id,
        phoneNumberId: number.id,
        script,
        customer: { number: '+14155550100', name: 'Rolled Back' },
        createdAt: NOW,
        pace: 1000,
      });
    // The second call repeats the first's id: the batch, and the conversation it stored first, roll back.
    assert.throws(() => store.insertCalls([plan('call-a'), plan('call-a')]));
    store.insertCalls([plan('call-b')]);
    const row = db.prepare('SELECT v.messages FROM calls c LEFT JOIN conversations v ON v.id = c.conversation_id WHERE c.id = ?').get('call-b') as {
      messages: string | null;
    };
    assert.notEqual(row.messages, null);
    assert.equal((JSON.parse(row.messages!) as unknown[]).length, 5);
  });
});

test('call times read exactly as Date#toISOString writes them, whatever the minute before', () => {
  const times = [0, -1, 59_999, 60_000, NOW, NOW + 999, NOW + 59_001, -62_135_596_800_000, 253_402_300_799_999, 253_402_300_800_000, -62_135_596_800_001];
  for (let i = 0; i < 2000; i++) times.push(Math.floor(NOW - 40 * DAY + ((i * 7_919_993) % (80 * DAY))), NOW + i * 37);
  times.push(1.5, NaN, Infinity);
  for (const t of [...times, ...times.reverse()])
    if (Number.isFinite(t)) assert.equal(iso(t), new Date(t).toISOString(), String(t));
    else assert.throws(() => iso(t), RangeError);
});
