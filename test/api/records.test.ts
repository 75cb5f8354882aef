// The records view (src/api/records.ts): every shape a record may come in reads the same, and
// parsing leaves the record as the service sent it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callCost, callDuration, linkOfNumber, linkWords, messageRole, messageText, serviceOfRecord, viewCall } from '../../src/api/records.js';
import { CallSchema, ChatSchema, ChatSessionSchema, KbFileSchema, PhoneNumberSchema } from '../../src/api/schemas.js';
import { VAPI_CALL } from '../support/vapi-records.js';

test('a Vapi-shaped call: text from message, roles bot/user, duration from startedAt/endedAt, cost from costBreakdown, summary from analysis', () => {
  const v = viewCall(VAPI_CALL);
  assert.equal(v.durationSeconds, 83.5);
  assert.equal(v.cost, 0.15);
  assert.equal(v.summary, 'The caller moved a cleaning appointment to Thursday.');
  assert.deepEqual(
    v.turns.map((t) => [t.role, t.text]),
    [
      ['system', 'You are the front desk.'],
      ['assistant', 'Hello, Harbourview dental, how can I help?'],
      ['user', 'I would like to move my appointment to Thursday.'],
      ['tool_calls', ''],
    ],
  );
  assert.equal(v.turns[1].at, 1795082406000);
  assert.equal(v.turns[2].secondsFromStart, 5.1);
  assert.equal(v.transcript, 'Assistant: Hello, Harbourview dental, how can I help?\nCaller: I would like to move my appointment to Thursday.');
});

test("our spec's call shape reads as before: content, durationSeconds, cost, summary, transcript", () => {
  const v = viewCall({
    id: 'c1',
    createdAt: '2026-11-20T10:00:00Z',
    durationSeconds: 42,
    cost: 0.2,
    summary: 'Short.',
    transcript: 'AI: hi\nUser: bye',
    startedAt: '2026-11-20T10:00:00Z',
    endedAt: '2026-11-20T10:10:00Z',
    costBreakdown: { total: 9 },
    analysis: { summary: 'other' },
    messages: [{ role: 'assistant', content: 'hi' }, { role: 'customer', content: 'bye' }, { content: 'no role' }],
  });
  assert.equal(v.durationSeconds, 42, 'a given duration wins over the timestamps');
  assert.equal(v.cost, 0.2, 'cost wins over costBreakdown.total');
  assert.equal(v.summary, 'Short.');
  assert.equal(v.transcript, 'AI: hi\nUser: bye', 'the transcript string wins over the turns');
  assert.deepEqual(
    v.turns.map((t) => [t.role, t.text]),
    [
      ['assistant', 'hi'],
      ['user', 'bye'],
      [undefined, 'no role'],
    ],
  );
});

test('a call whose conversation is only under artifact (Vapi keeps it there too) reads the same', () => {
  const v = viewCall({
    id: 'a',
    createdAt: '',
    artifact: {
      messages: [
        { role: 'bot', message: 'Hi' },
        { role: 'user', message: 'Hello' },
      ],
    },
  });
  assert.deepEqual(
    v.turns.map((t) => [t.role, t.text]),
    [
      ['assistant', 'Hi'],
      ['user', 'Hello'],
    ],
  );
  assert.equal(v.transcript, 'Assistant: Hi\nCaller: Hello');
  assert.equal(viewCall({ id: 'a', createdAt: '', artifact: { transcript: 'AI: Hi' }, messages: [] }).transcript, 'AI: Hi');
});

test('duration: never negative, none when either time is missing or unreadable', () => {
  assert.equal(callDuration({ id: 'a', createdAt: '', startedAt: '2026-11-20T10:00:10Z', endedAt: '2026-11-20T10:00:00Z' }), 0);
  assert.equal(callDuration({ id: 'a', createdAt: '', startedAt: '2026-11-20T10:00:10Z' }), undefined);
  assert.equal(callDuration({ id: 'a', createdAt: '', endedAt: '2026-11-20T10:00:10Z' }), undefined);
  assert.equal(callDuration({ id: 'a', createdAt: '', startedAt: 'soon', endedAt: '2026-11-20T10:00:10Z' }), undefined);
  assert.equal(callDuration({ id: 'a', createdAt: '', durationSeconds: -3 }), 0);
  assert.equal(callCost({ id: 'a', createdAt: '' }), undefined);
  assert.equal(callCost({ id: 'a', createdAt: '', costBreakdown: { total: 0.5 } }), 0.5);
  const bare = viewCall({ id: 'b', createdAt: '2026-11-20T10:00:00Z' });
  assert.deepEqual(
    [bare.id, bare.createdAt, bare.turns, bare.durationSeconds, bare.cost, bare.summary, bare.transcript, bare.customer],
    ['b', '2026-11-20T10:00:00Z', [], undefined, undefined, undefined, undefined, undefined],
  );
});

test('messages: text from content or message (or content parts), roles normalised, a message without role still reads', () => {
  assert.equal(messageText({ role: 'user', content: 'a' }), 'a');
  assert.equal(messageText({ role: 'bot', message: 'b' }), 'b');
  assert.equal(
    messageText({
      content: [
        { type: 'text', text: 'c1' },
        { type: 'text', text: 'c2' },
      ],
    }),
    'c1\nc2',
  );
  assert.equal(messageText({ role: 'user' }), '');
  assert.equal(messageRole({ role: 'bot' }), 'assistant');
  assert.equal(messageRole({ role: 'assistant' }), 'assistant');
  assert.equal(messageRole({ role: 'customer' }), 'user');
  assert.equal(messageRole({ role: 'system' }), 'system');
  assert.equal(messageRole({ role: 'tool' }), 'tool');
  assert.equal(messageRole({ content: 'x' }), undefined);
});

test('the service object: organization or service', () => {
  assert.deepEqual(serviceOfRecord({ id: 'f', organization: { id: 'o1', name: 'Org' } }), { id: 'o1', name: 'Org' });
  assert.deepEqual(serviceOfRecord({ id: 'f', service: { id: 's1', name: 'Svc' } }), { id: 's1', name: 'Svc' });
  assert.equal(serviceOfRecord({ id: 'f' }), undefined);
});

test("a number's assistant: what the service says, else what this profile linked, labelled", () => {
  const name = (id: string) => (id === 'a1' ? 'Front desk' : id);
  assert.deepEqual(linkOfNumber({ id: 'pn', assistantId: 'a1' }, { pn: 'a2' }), { assistantId: 'a1', source: 'service' });
  assert.deepEqual(linkOfNumber({ id: 'pn' }, { pn: 'a1' }), { assistantId: 'a1', source: 'here' });
  assert.equal(linkOfNumber({ id: 'pn', assistantId: null }, { pn: 'a1' }), undefined, 'an explicit null from the service means none');
  assert.equal(linkOfNumber({ id: 'pn' }, {}), undefined);
  assert.equal(linkWords(linkOfNumber({ id: 'pn' }, { pn: 'a1' }), name), 'Front desk (linked here)');
  assert.equal(linkWords(linkOfNumber({ id: 'pn', assistantId: 'a1' }), name), 'Front desk');
  assert.equal(linkWords(undefined, name), '—');
});

test('parsing keeps every record as sent and adds nothing', () => {
  const sessionWithoutRoles = { id: 's1', messages: [{ content: 'hello' }, { message: 'hi there' }] };
  const chatWithoutOutput = { id: 'chat1', sessionId: 's1' };
  const number = { id: 'pn', did: '+1', organization: { id: 'o', name: 'Org' } };
  const file = { id: 'f', name: 'a.pdf', organization: { id: 'o', name: 'Org' }, bytes: 3 };
  for (const [schema, rec] of [
    [CallSchema, VAPI_CALL],
    [ChatSessionSchema, sessionWithoutRoles],
    [ChatSchema, chatWithoutOutput],
    [PhoneNumberSchema, number],
    [KbFileSchema, file],
  ] as const) {
    const parsed = schema.parse(structuredClone(rec));
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), rec);
    assert.deepEqual(Object.keys(parsed).sort(), Object.keys(rec).sort(), 'no key added, even an undefined one');
  }
});
