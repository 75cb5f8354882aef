import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startRestartableSandbox, startTestSandbox, type RunningSandbox, sandboxForFile } from '../support/sandbox.js';
import { eventually, get, isErrorBody, post } from './http.js';

const byNewest = (a: any, b: any) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1);

describe('call log', () => {
  const sb = sandboxForFile();

  test('the seed has a few hundred past calls over the last 30 days, newest first', async () => {
    const r = await get(sb, '/calls?limit=1000');
    assert.equal(r.status, 200);
    assert.equal(typeof r.body.message, 'string');
    const calls = r.body.calls;
    assert.ok(calls.length >= 250, `only ${calls.length}`);
    assert.deepEqual(
      [...calls].sort(byNewest).map((c: any) => c.id),
      calls.map((c: any) => c.id),
    );
    const oldest = Date.parse(calls.at(-1).createdAt);
    assert.ok(Date.now() - oldest <= 31 * 86_400_000);
    // The list leaves out transcript and messages (GET /calls/details has them).
    assert.ok(calls.every((c: any) => c.status === 'ended' && !('transcript' in c) && !('messages' in c)));
    // The platform's call record: no duration field (endedAt − startedAt), the summary under analysis.
    for (const k of [
      'id',
      'assistantId',
      'phoneNumberId',
      'createdAt',
      'updatedAt',
      'type',
      'status',
      'customer',
      'startedAt',
      'endedAt',
      'endedReason',
      'cost',
      'costBreakdown',
      'analysis',
    ]) {
      assert.ok(k in calls[0], `missing ${k}`);
    }
    for (const k of ['durationSeconds', 'summary', 'recordingUrl'])
      assert.ok(
        calls.every((c: any) => !(k in c)),
        `${k} is not a field of the platform's call`,
      );
    for (const c of calls) {
      assert.equal(c.costBreakdown.total, c.cost);
      const parts = ['transport', 'stt', 'llm', 'tts', 'vapi'].reduce((t, k) => t + c.costBreakdown[k], 0);
      assert.ok(Math.abs(parts - c.cost) < 0.0005, `${c.id}: parts ${parts} of ${c.cost}`);
      assert.equal(typeof c.analysis.summary, 'string');
    }
  });

  test('limit defaults to 100 and is capped at 1000', async () => {
    assert.equal((await get(sb, '/calls')).body.calls.length, 100);
    assert.equal((await get(sb, '/calls?limit=7')).body.calls.length, 7);
    for (const bad of ['0', '1001', '-1', 'abc', '1.5', '']) {
      const r = await get(sb, `/calls?limit=${bad}`);
      assert.equal(r.status, 400, `limit=${bad}`);
      assert.match(r.body.message, /^limit must be/);
    }
  });

  test('filters by assistant, number, id and an inclusive date range', async () => {
    const all = (await get(sb, '/calls?limit=1000')).body.calls;
    const a = all[5].assistantId;
    const byA = (await get(sb, `/calls?assistantId=${a}&limit=1000`)).body.calls;
    assert.deepEqual(
      byA.map((c: any) => c.id),
      all.filter((c: any) => c.assistantId === a).map((c: any) => c.id),
    );
    const n = all[3].phoneNumberId;
    const byN = (await get(sb, `/calls?phoneNumberId=${n}&limit=1000`)).body.calls;
    assert.deepEqual(
      byN.map((c: any) => c.id),
      all.filter((c: any) => c.phoneNumberId === n).map((c: any) => c.id),
    );
    const one = (await get(sb, `/calls?id=${all[9].id}`)).body.calls;
    assert.deepEqual(
      one.map((c: any) => c.id),
      [all[9].id],
    );
    const from = all[40].createdAt;
    const to = all[10].createdAt;
    const range = (await get(sb, `/calls?createdAtGt=${from}&createdAtLt=${to}&limit=1000`)).body.calls;
    assert.deepEqual(
      range.map((c: any) => c.id),
      all.filter((c: any) => c.createdAt >= from && c.createdAt <= to).map((c: any) => c.id),
    );
    assert.equal(range[0].createdAt, to);
    assert.equal(range.at(-1).createdAt, from);
  });

  test('a bare date covers its whole day', async () => {
    const all = (await get(sb, '/calls?limit=1000')).body.calls;
    const day = all[20].createdAt.slice(0, 10);
    const r = (await get(sb, `/calls?createdAtGt=${day}&createdAtLt=${day}&limit=1000`)).body.calls;
    assert.deepEqual(
      r.map((c: any) => c.id),
      all.filter((c: any) => c.createdAt.startsWith(day)).map((c: any) => c.id),
    );
  });

  test('bad dates and unknown parameters are 400s naming them', async () => {
    for (const [q, msg] of [
      ['createdAtGt=yesterday', /^createdAtGt must be an ISO 8601/],
      ['createdAtLt=2026-02-30', /^createdAtLt is not a real date/],
      ['createdAtGt=2026-11-01T25:00:00Z', /^createdAtGt is not a real date/],
      ['after=2026-11-01', /unknown query parameter after/],
      ['limit=5&limit=6', /limit must be given once/],
    ] as const) {
      const r = await get(sb, `/calls?${q}`);
      assert.equal(r.status, 400, q);
      assert.ok(isErrorBody(r.body, 400));
      assert.match(r.body.message, msg);
    }
  });

  test('details are full records with transcript and messages, same filters', async () => {
    const r = await get(sb, '/calls/details?limit=50');
    assert.equal(r.status, 200);
    const answered = r.body.calls.filter((c: any) => c.startedAt);
    assert.ok(answered.length > 0);
    for (const c of answered) {
      assert.ok(c.transcript.includes('AI: ') && c.transcript.includes('User: '));
      assert.ok(c.messages.length >= 2);
    }
    const id = r.body.calls[0].id;
    const one = await get(sb, `/calls/details?id=${id}`);
    assert.equal(one.body.calls.length, 1);
    assert.equal(one.body.calls[0].id, id);
    const missing = await get(sb, '/calls/details?id=nope');
    assert.equal(missing.status, 200, 'id filters, as on /calls');
    assert.deepEqual(missing.body.calls, []);
  });
});

describe('outbound calls', () => {
  const sb = sandboxForFile({ callPace: 25 });
  let assistant: any;
  let number: any;
  before(async () => {
    assistant = (await get(sb, '/assistants')).body.assistants[0];
    number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
  });

  test('a call moves queued → ringing → in-progress → ended and ends with a transcript from the assistant', async () => {
    const r = await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550123', name: 'Ada' } });
    assert.equal(r.status, 201);
    const call = r.body.call;
    assert.equal(call.type, 'outboundPhoneCall');
    assert.equal(call.assistantId, assistant.id);
    assert.equal(call.phoneNumberId, number.id);
    assert.deepEqual(call.customer, { number: '+14155550123', name: 'Ada' });
    const order = ['queued', 'ringing', 'in-progress', 'ended'];
    const seen: string[] = [call.status];
    const ended = await eventually(async () => {
      const c = (await get(sb, `/calls/details?id=${call.id}`)).body.calls[0];
      if (seen.at(-1) !== c.status) seen.push(c.status);
      return c.status === 'ended' ? c : undefined;
    });
    // Statuses only ever move forward.
    assert.deepEqual(
      seen.map((s) => order.indexOf(s)),
      [...seen.map((s) => order.indexOf(s))].sort(),
    );
    assert.equal(ended.endedReason, 'customer-ended-call');
    assert.ok(ended.startedAt && ended.endedAt && ended.endedAt > ended.startedAt);
    assert.ok(ended.cost > 0 && ended.costBreakdown.total === ended.cost);
    // The greeting is the assistant's first message (role bot, text in `message`), with the customer's name filled in.
    assert.deepEqual(
      ended.messages.map((m: any) => m.role),
      ['bot', 'user', 'bot', 'user', 'bot'],
    );
    assert.match(ended.messages[0].message, /^Hi Ada, thanks for calling/);
    assert.ok(ended.messages.every((m: any) => !('content' in m) && typeof m.time === 'number' && typeof m.secondsFromStart === 'number'));
    assert.equal(ended.messages[0].time, Date.parse(ended.startedAt));
    assert.ok(ended.transcript.startsWith(`AI: ${ended.messages[0].message}\nUser: ${ended.messages[1].message}`));
    assert.match(ended.analysis.summary, /Ada/);
    const listed = (await get(sb, `/calls?id=${call.id}`)).body.calls[0];
    assert.equal(listed.status, 'ended');
  });

  test('a cached list page never lags: polled by the same URL, a live call reads between two detail reads', async () => {
    const r = await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550124' } });
    const id = r.body.call.id;
    const order = ['queued', 'ringing', 'in-progress', 'ended'];
    const rank = (c: any) => order.indexOf(c.status);
    const listed = await eventually(async () => {
      const before = (await get(sb, `/calls/details?id=${id}`)).body.calls[0];
      const call = (await get(sb, `/calls?id=${id}`)).body.calls[0];
      const after = (await get(sb, `/calls/details?id=${id}`)).body.calls[0];
      const seen = JSON.stringify({ before: [before.status, before.startedAt], listed: [call.status, call.startedAt], after: [after.status, after.startedAt] });
      assert.ok(rank(before) <= rank(call) && rank(call) <= rank(after), seen);
      assert.ok(before.updatedAt <= call.updatedAt && call.updatedAt <= after.updatedAt, seen);
      return call.status === 'ended' ? call : undefined;
    });
    const { messages, transcript, ...details } = (await get(sb, `/calls/details?id=${id}`)).body.calls[0];
    assert.ok(messages.length > 0 && transcript.length > 0);
    assert.deepEqual(listed, details);
  });

  test('a placed call is on the next list page at once, even one read just before', async () => {
    assert.equal((await get(sb, '/calls?limit=3')).status, 200);
    const placed = (await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550125' } })).body.call;
    const page = (await get(sb, '/calls?limit=3')).body.calls;
    assert.equal(page[0].id, placed.id);
  });

  test('customer.name may be left out', async () => {
    const r = await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+442079460000' } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.call.customer, { number: '+442079460000' });
  });

  const bad: [string, unknown, number, RegExp][] = [
    ['a number without +', { customer: { number: '4155550100' } }, 400, /^customer\.number must be E\.164 like \+14155550100/],
    ['a number with spaces', { customer: { number: '+1 415 555 0100' } }, 400, /^customer\.number must be E\.164/],
    ['no customer', { customer: undefined }, 400, /^customer is required/],
    ['a numeric number', { customer: { number: 14155550100 } }, 400, /^customer\.number must be a string/],
    ['no assistant', { assistantId: undefined }, 400, /^assistantId is required/],
    ['an unknown assistant', { assistantId: 'ghost' }, 404, /assistant with id ghost/],
    ['an unknown number', { phoneNumberId: 'ghost' }, 404, /phone number with id ghost/],
  ];
  for (const [label, patch, status, msg] of bad) {
    test(`rejects ${label}`, async () => {
      const body = { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550123' }, ...(patch as object) };
      const r = await post(sb, '/calls/outbound', body);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.ok(isErrorBody(r.body, status));
      assert.match(r.body.message, msg);
    });
  }
});

describe('call progress across a restart', () => {
  test('status is derived from the stored timeline, so it stays right after a restart', async () => {
    const place = async (sb: RunningSandbox) => {
      const assistant = (await get(sb, '/assistants')).body.assistants[0];
      const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
      return (await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550111' } })).body.call;
    };
    // A minute per simulated second: this call stays queued for the whole test.
    const sb = await startRestartableSandbox({ callPace: 60_000 });
    try {
      const slow = await place(sb);
      // Each start on a new port: fetch may still hold a socket to the one before.
      await sb.restart({ callPace: 25, port: 0 });
      const fast = await place(sb);
      await sb.restart({ port: 0 });
      const again = (await get(sb, `/calls/details?id=${slow.id}`)).body.calls[0];
      assert.equal(again.status, 'queued');
      assert.equal(again.createdAt, slow.createdAt);
      const ended = await eventually(async () => {
        const c = (await get(sb, `/calls/details?id=${fast.id}`)).body.calls[0];
        return c.status === 'ended' ? c : undefined;
      });
      assert.ok(ended.transcript.length > 0);
    } finally {
      await sb.close();
    }
  });
});

describe('bulk seeding', () => {
  test('seedCalls adds N finished calls, served newest first like any others', async () => {
    const { seedCalls } = await import('../../src/sandbox/seed.js');
    const sb = await startTestSandbox();
    try {
      const before = (await get(sb, '/calls?limit=1000')).body.calls.length;
      assert.equal(seedCalls(sb.dataDir, 5000), 5000);
      const page = (await get(sb, '/calls?limit=1000')).body.calls;
      assert.equal(page.length, 1000);
      assert.ok(before < 1000);
      assert.deepEqual(
        [...page].sort(byNewest).map((c: any) => c.id),
        page.map((c: any) => c.id),
      );
      // Walk the whole log by createdAtLt, as the client's pager does.
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (;;) {
        const q = cursor ? `&createdAtLt=${cursor}` : '';
        const calls = (await get(sb, `/calls?limit=1000${q}`)).body.calls;
        const fresh = calls.filter((c: any) => !seen.has(c.id));
        if (fresh.length === 0) break;
        for (const c of fresh) seen.add(c.id);
        cursor = calls.at(-1).createdAt;
      }
      assert.equal(seen.size, before + 5000);
      assert.throws(() => seedCalls(`${sb.dataDir}-absent`, 1), /no sandbox data in/);
    } finally {
      await sb.close();
    }
  });
});
