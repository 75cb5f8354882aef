// The sandbox fills the service's clock variables ({{now}}, {{date}}, …) when a chat does not give
// them: the one input of a reply outside the request and the records (`switchboard test --repeat`).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { clockVariables } from '../../src/sandbox/chat.js';
import { post } from './http.js';

const sb = sandboxForFile({ seed: false });
let assistantId: string;
before(async () => {
  await sb.started;
  assistantId = (
    await post(sb, '/assistants', {
      name: 'Clock',
      firstMessage: 'It is {{now}} ({{date}}, {{time}}, {{day}} {{month}} {{year}}); {{other}} stays.',
    })
  ).body.assistant.id;
});

test('{{now}} and the other clock variables are filled from the clock (UTC) unless the chat gives them; they are not kept in the session', async () => {
  const session = (await post(sb, '/sessions', { assistantId })).body.session;
  const t0 = Date.now();
  const chat = (await post(sb, '/chats', { sessionId: session.id, input: 'Hello' })).body.chat;
  const reply: string = chat.output[0].content;
  const m = /^It is (\S+) \((\d{4}-\d\d-\d\d), (\d\d:\d\d:\d\d), (\d+) (\w+) (\d{4})\); \{\{other\}\} stays\.$/.exec(reply);
  assert.ok(m, reply);
  const at = Date.parse(m[1]);
  assert.match(m[1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(at >= t0 - 1000 && at <= Date.now() + 1000, `${m[1]} is not now`);
  const v = clockVariables(new Date(at));
  assert.deepEqual(m.slice(2), [v.date, v.time, v.day, v.month, v.year]);
  assert.deepEqual(chat.assistantOverrides.variableValues, {}, "clock values are not recorded as the chat's variables");

  const given = (await post(sb, '/chats', { sessionId: session.id, input: 'Hello', assistantOverrides: { variableValues: { now: 'noon' } } })).body.chat;
  assert.match(given.output[0].content, /^It is noon \(/);
});
