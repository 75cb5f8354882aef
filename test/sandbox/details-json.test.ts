// GET /calls/details writes each call's JSON from its conversation's cached pieces
// (src/sandbox/page-cache.ts DetailedCallJson): it must be exactly what JSON.stringify of
// callView(call, now, true) writes, for every call of a seeded log, for calls queued, ringing,
// in progress and ended, unanswered calls, and conversations whose messages carry timing keys of
// their own; and the route answers with those bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxStore } from '../../src/sandbox/db.js';
import { DetailedCallJson } from '../../src/sandbox/page-cache.js';
import { openSeeded, seedCalls } from '../../src/sandbox/seed.js';
import { CallScript, callView, planCall } from '../../src/sandbox/simulate.js';
import { startTestSandbox } from '../support/sandbox.js';
import { get } from './http.js';

test('a detailed call written from cached conversation pieces reads exactly as callView serialised', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-details-'));
  const { db } = openSeeded(dir, true);
  try {
    seedCalls(db, 3000);
    const store = new SandboxStore(db);
    const assistant = store.listAssistants()[0];
    const number = store.listPhoneNumbers()[0];
    const script = new CallScript(assistant.body, []);
    const t0 = Date.now();
    const plan = (i: number, extra: Partial<Parameters<typeof planCall>[0]> = {}) =>
      planCall({
        type: 'outboundPhoneCall',
        assistantId: assistant.id,
        phoneNumberId: number.id,
        script,
        customer: { number: '+14155550100', name: `Zoë ${i}` },
        createdAt: t0 + i,
        pace: 1000,
        ...extra,
      });
    store.insertCalls([plan(1), plan(2, { endedReason: 'customer-busy' }), plan(3, { endedReason: 'customer-did-not-answer' }), plan(4, { talkSeconds: 30 })]);
    // Messages that carry timing keys of their own, and one with no keys at all.
    store.insertCalls([
      { ...plan(5), messages: [{ role: 'user', message: 'hi', secondsFromStart: 99 } as never] },
      { ...plan(6), messages: [{ role: 'user', message: 'hi — “quoted”\n' }, {} as never] },
      { ...plan(7), messages: [{ role: 'bot', message: 'hello', time: 1 } as never, { role: 'user', message: 'bye' }] },
    ]);

    const full = new Map(store.queryCalls({ limit: 1000 }, true).map((c) => [c.id, c]));
    const detailed = new DetailedCallJson((id) => store.conversation(id));
    let compared = 0;
    // Before ringing, ringing, in progress at several points, and long after every call ended.
    for (const now of [t0, t0 + 1500, t0 + 3500, t0 + 6000, t0 + 12_000, t0 + 40_000, t0 + 86_400_000]) {
      for (const { call, conversationId } of store.queryCallsWithConversation({ limit: 1000 })) {
        assert.equal(detailed.of(call, conversationId, now), JSON.stringify(callView(full.get(call.id)!, now, true)), `call ${call.id} at +${now - t0} ms`);
        compared++;
      }
    }
    assert.ok(compared >= 7000);
    // A whole page is the object the route used to return, serialised.
    const page = store.queryCallsWithConversation({ limit: 1000 });
    const now = t0 + 3500;
    assert.equal(
      detailed.page('Found 1000 calls', page, now).toString(),
      JSON.stringify({ message: 'Found 1000 calls', calls: page.map(({ call }) => callView(full.get(call.id)!, now, true)) }),
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('GET /calls/details answers a page of full records as compact JSON', async () => {
  const sb = await startTestSandbox();
  try {
    const r = await get(sb, '/calls/details?limit=1000');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    // Compact JSON, as fastify's serialiser wrote the object this route used to return.
    assert.equal(r.text, JSON.stringify(r.body));
    assert.equal(r.body.message, `Found ${r.body.calls.length} calls`);
    assert.ok(r.body.calls.every((c: any) => typeof c.transcript === 'string' && Array.isArray(c.messages)));
  } finally {
    await sb.close();
  }
});
