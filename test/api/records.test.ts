// The records view (src/api/records.ts): every shape a record may come in reads the same, and
// parsing leaves the record as the service sent it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  callCost,
  callDuration,
  linkOfNumber,
  linkWords,
  messageRole,
  messageText,
  numberActive,
  numberDid,
  numberLabel,
  numberStatusWord,
  serviceOfRecord,
  viewCall,
} from '../../src/api/records.js';
import { Adaptations, collect } from '../../src/api/adapt.js';
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
      ['tool-call', ''],
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
  assert.equal(messageRole({ role: 'tool' }), 'tool-result');
  assert.equal(messageRole({ role: 'tool_calls' }), 'tool-call');
  assert.equal(messageRole({ role: 'tool-call-result' }), 'tool-result');
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

test('a field of another type never fails the parse: kept as received, noted once per kind with where, what and an example', () => {
  const met = new Adaptations();
  const sent = { id: 'c1', createdAt: '2026-11-20T10:00:00.000Z', cost: '0.0018', status: 7, customer: { number: 14155550100 }, messages: ['hello'] };
  const r = collect(met, () => CallSchema.safeParse(sent));
  assert.ok(r.success);
  assert.deepEqual(r.data, sent, 'the record is unchanged');
  collect(met, () => CallSchema.safeParse({ ...sent, id: 'c2', cost: '0.5' }));
  const seen = met.list().map((m) => [m.field, m.expected, m.received, m.numeric, m.count]);
  assert.deepEqual(seen, [
    ['status', 'string', 'number', false, 2],
    ['customer.number', 'string', 'number', false, 2],
    ['cost', 'number', 'string', true, 2],
    ['messages[]', 'object', 'string', false, 2],
  ]);
  assert.equal(met.list()[2].example, '"0.0018"');
  // Numeric strings count as numbers; any other value is shown as received and left out of computations.
  const v = viewCall(r.data!);
  assert.equal(v.cost, 0.0018);
  assert.equal(v.status, '7');
  assert.equal(v.customer?.number, '14155550100');
  assert.equal(callCost({ id: 'x', costBreakdown: { total: '1.25' } }), 1.25);
  assert.equal(callCost({ id: 'x', cost: 'free' }), undefined);
  assert.equal(callDuration({ id: 'x', durationSeconds: '42' }), 42);
  assert.equal(callDuration({ id: 'x', durationSeconds: 'long' }), undefined);
});

test('a record without an id cannot be read: the parse fails, so the list skips it', () => {
  assert.equal(CallSchema.safeParse({ createdAt: '2026-11-20T10:00:00.000Z' }).success, false);
  assert.equal(PhoneNumberSchema.safeParse({ number: '+14155550100' }).success, false);
});

test("numbers in either shape: the spec's did and boolean status, the platform's number, name and status word", () => {
  const spec = PhoneNumberSchema.parse({ id: 'p1', did: '+14155550100', status: false });
  const platform = PhoneNumberSchema.parse({ id: 'p2', number: '+14155550123', name: 'Billing line', status: 'activating', assistantId: 'a1' });
  const sip = PhoneNumberSchema.parse({ id: 'p3', name: 'Web SIP line', status: 'active', sipUri: 'sip:x@y' });
  assert.deepEqual([numberDid(spec), numberDid(platform), numberDid(sip)], ['+14155550100', '+14155550123', undefined]);
  assert.deepEqual([numberLabel(spec), numberLabel(platform), numberLabel(sip)], ['+14155550100', '+14155550123', 'Web SIP line']);
  assert.deepEqual([numberActive(spec), numberActive(platform), numberActive(sip)], [false, false, true]);
  assert.deepEqual([numberStatusWord(spec), numberStatusWord(platform), numberStatusWord(sip)], ['inactive', 'activating', 'active']);
  assert.deepEqual(linkOfNumber(platform), { assistantId: 'a1', source: 'service' });
});

test('tool calls and results are turns of their own: a call’s name and compact arguments, a result’s name and result, in order', () => {
  const v = viewCall({
    id: 't',
    createdAt: '2026-11-20T10:00:00Z',
    transcript: 'User: where is my order',
    messages: [
      { role: 'user', message: 'where is my order', time: 1, secondsFromStart: 1 },
      {
        role: 'tool-calls',
        time: 2,
        secondsFromStart: 2,
        toolCalls: [
          { id: 'a', type: 'function', function: { name: 'findOrder', arguments: '{\n "order": "ORD-1" }' } },
          { id: 'b', type: 'function', function: { name: 'notify', arguments: { to: 'ops' } } },
        ],
      },
      { role: 'tool-call-result', toolCallId: 'a', name: 'findOrder', result: 'shipped\ntoday', time: 3, secondsFromStart: 3 },
      // OpenAI's shape: an assistant message with tool_calls, then a `tool` message.
      { role: 'assistant', content: 'Let me check.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'track', arguments: '{"n":1}' } }] },
      { role: 'tool', tool_call_id: 'c', content: '{"at": "depot"}' },
    ],
  });
  assert.deepEqual(
    v.turns.map((t) => [t.role, t.text, t.secondsFromStart]),
    [
      ['user', 'where is my order', 1],
      ['tool-call', 'findOrder {"order":"ORD-1"}', 2],
      ['tool-call', 'notify {"to":"ops"}', 2],
      ['tool-result', 'findOrder: shipped today', 3],
      ['assistant', 'Let me check.', undefined],
      ['tool-call', 'track {"n":1}', undefined],
      ['tool-result', '{"at":"depot"}', undefined],
    ],
  );
  // The service's transcript text holds speech only: with tools, the dialogue is the transcript.
  assert.equal(
    v.transcript,
    'Caller: where is my order\nTool call: findOrder {"order":"ORD-1"}\nTool call: notify {"to":"ops"}\nTool result: findOrder: shipped today\n' +
      'Assistant: Let me check.\nTool call: track {"n":1}\nTool result: {"at":"depot"}',
  );
});
