import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, sandboxForFile } from '../support/sandbox.js';
import { ringViaDataDir } from '../../src/sandbox/ring.js';
import { eventually, get, isErrorBody, post, send } from './http.js';

describe('phone numbers and inbound calls', () => {
  const sb = sandboxForFile({ callPace: 25 });

  test('the seed has at least 3 numbers with every spec field, some linked', async () => {
    const r = await get(sb, '/phone-numbers');
    assert.equal(r.status, 200);
    const numbers = r.body.phoneNumbers;
    assert.ok(numbers.length >= 3);
    for (const n of numbers) {
      for (const k of ['id', 'accountId', 'did', 'domain', 'provider', 'externalId', 'createdAt', 'updatedAt']) assert.equal(typeof n[k], 'string', k);
      assert.equal(typeof n.status, 'boolean');
      // The spec's "the service" object, named organization as the reference names it.
      assert.deepEqual(Object.keys(n.organization).sort(), ['id', 'name']);
      assert.ok(!('service' in n));
      assert.ok('assistantId' in n);
      assert.match(n.did, /^\+[1-9]\d{6,14}$/);
    }
    assert.ok(numbers.some((n: any) => n.assistantId) && numbers.some((n: any) => n.assistantId === null));
  });

  test('inbound setup links an assistant to a number', async () => {
    const assistant = (await get(sb, '/assistants')).body.assistants.at(-1);
    const free = (await get(sb, '/phone-numbers')).body.phoneNumbers.find((n: any) => n.assistantId === null);
    const r = await post(sb, '/phone-numbers/inbound/setup', { assistantId: assistant.id, phoneNumberId: free.id });
    assert.equal(r.status, 200);
    assert.equal(r.body.message, 'Inbound agent configured successfully', "the reference's words");
    assert.equal(r.body.phoneNumber.assistantId, assistant.id);
    const again = (await get(sb, '/phone-numbers')).body.phoneNumbers.find((n: any) => n.id === free.id);
    assert.equal(again.assistantId, assistant.id);
  });

  test('inbound setup names missing fields (400) and unknown records (404)', async () => {
    const assistant = (await get(sb, '/assistants')).body.assistants[0];
    const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /^assistantId and phoneNumberId are required/],
      [{ assistantId: assistant.id }, 400, /^phoneNumberId is required/],
      [{ phoneNumberId: number.id }, 400, /^assistantId is required/],
      [{ assistantId: 5, phoneNumberId: number.id }, 400, /^assistantId must be a string/],
      [{ assistantId: 'ghost', phoneNumberId: number.id }, 404, /assistant with id ghost/],
      [{ assistantId: assistant.id, phoneNumberId: 'ghost' }, 404, /phone number with id ghost/],
    ];
    for (const [body, status, msg] of cases) {
      const r = await post(sb, '/phone-numbers/inbound/setup', body);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.ok(isErrorBody(r.body, status));
      assert.match(r.body.message, msg);
    }
  });

  test('ringing a linked number makes an inbound call answered by its assistant', async () => {
    const linked = (await get(sb, '/phone-numbers')).body.phoneNumbers.find((n: any) => n.assistantId);
    const assistant = (await get(sb, `/assistants/${linked.assistantId}`)).body.assistant;
    const r = await post(sb, '/sandbox/ring', { did: linked.did.replace(/^\+1/, '1 ').replace(/(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3') });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.call.type, 'inboundPhoneCall');
    assert.equal(r.body.call.phoneNumberId, linked.id);
    assert.equal(r.body.call.assistantId, linked.assistantId);
    assert.notEqual(r.body.call.status, 'queued');
    const ended = await eventually(async () => {
      const c = (await get(sb, `/calls/details?id=${r.body.call.id}`)).body.calls[0];
      return c.status === 'ended' ? c : undefined;
    });
    assert.equal(ended.messages[0].message.split(',')[0], assistant.firstMessage.split(',')[0].replace('{{customerName}}', ended.customer.name));
  });

  test('ringing an unlinked or unknown number is a clear error', async () => {
    const numbers = (await get(sb, '/phone-numbers')).body.phoneNumbers;
    const unknown = await post(sb, '/sandbox/ring', { did: '+19995550000' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /no phone number \+19995550000/);
    assert.ok(numbers.every((n: any) => unknown.body.message.includes(n.did)));
    const empty = await post(sb, '/sandbox/ring', { did: '' });
    assert.equal(empty.status, 400);
    assert.match(empty.body.message, /^did /);
    // No DID: the next number with an assistant linked rings (the console's `:ring`).
    const next = await post(sb, '/sandbox/ring', {});
    assert.equal(next.status, 201);
    const linked = numbers.filter((n: any) => n.assistantId).map((n: any) => n.did);
    assert.ok(
      linked.some((did: string) => next.body.message.endsWith(`to ${did} is ringing`)),
      next.body.message,
    );
    const noKey = await send(sb, 'POST', '/sandbox/ring', { did: numbers[0].did }, { 'x-api-key': 'wrong' });
    assert.equal(noKey.status, 401);
  });
});

describe('a number linked to an inactive assistant', () => {
  const sb = sandboxForFile({ callPace: 25 });

  test('rings, and ends unanswered: no messages, no talk, endedReason assistant-not-valid', async () => {
    const created = await post(sb, '/assistants', { name: 'Sleepy', status: false, firstMessage: 'Hello from Sleepy' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const assistant = created.body.assistant;
    const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
    assert.equal((await post(sb, '/phone-numbers/inbound/setup', { assistantId: assistant.id, phoneNumberId: number.id })).status, 200);
    const r = await post(sb, '/sandbox/ring', { did: number.did });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.match(r.body.message, /is ringing; its assistant Sleepy is inactive, so nobody will answer$/);
    const ended = await eventually(async () => {
      const c = (await get(sb, `/calls/details?id=${r.body.call.id}`)).body.calls[0];
      return c.status === 'ended' ? c : undefined;
    });
    assert.equal(ended.endedReason, 'assistant-not-valid');
    assert.equal(ended.startedAt, null);
    assert.deepEqual(ended.messages, []);
    assert.equal(ended.transcript, '');
    assert.doesNotMatch(JSON.stringify(ended), /Hello from Sleepy/);
    // Made active again, the same number's next call is answered.
    assert.equal((await send(sb, 'PATCH', `/assistants/${assistant.id}`, { status: true })).status, 200);
    const again = await post(sb, '/sandbox/ring', { did: number.did });
    assert.match(again.body.message, /is ringing$/);
    const answered = await eventually(async () => {
      const c = (await get(sb, `/calls/details?id=${again.body.call.id}`)).body.calls[0];
      return c.status === 'ended' ? c : undefined;
    });
    assert.equal(answered.endedReason, 'customer-ended-call');
    assert.equal(answered.messages[0].message, 'Hello from Sleepy');
  });
});

describe('ringing through the data dir', () => {
  test('ringViaDataDir adds an inbound call a running sandbox serves at once, and explains an unlinked number', async () => {
    const sb = await startTestSandbox({ seed: true });
    try {
      const numbers = (await get(sb, '/phone-numbers')).body.phoneNumbers;
      const linked = numbers.find((n: any) => n.assistantId);
      const call = ringViaDataDir(sb.dataDir, linked.did);
      assert.equal(call.type, 'inboundPhoneCall');
      const seen = (await get(sb, `/calls?id=${call.id}`)).body.calls;
      assert.equal(seen.length, 1);
      const unlinked = numbers.find((n: any) => !n.assistantId);
      assert.throws(() => ringViaDataDir(sb.dataDir, unlinked.did), /has no assistant linked for inbound calls/);
      assert.throws(() => ringViaDataDir(`${sb.dataDir}-absent`, linked.did), /no sandbox data in/);
    } finally {
      await sb.close();
    }
  });
});
