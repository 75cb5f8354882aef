import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { composeReply, personaOf, substitute } from '../../src/sandbox/chat.js';
import { eventually, get, isErrorBody, post, upload } from './http.js';
import { readFileSync } from 'node:fs';

const MENU = `# Luigi's menu

## Pizzas

The Margherita costs 11 euros and comes with buffalo mozzarella and basil.
The Diavola costs 13 euros and is topped with spicy salami.

## Delivery

We deliver within 5 kilometres between 18:00 and 23:00. Delivery is free on orders over 30 euros.
`;

describe('sessions and chat', () => {
  const sb = sandboxForFile({ seed: false });
  let assistantId: string;
  before(async () => {
    const file = (await upload(sb, 'menu.md', MENU)).body.file;
    await eventually(async () => ((await get(sb, `/files/${file.id}`)).body.file.status === 'done' ? true : undefined));
    const r = await post(sb, '/assistants', {
      name: 'Luigi',
      firstMessage: 'Ciao {{guest}}! Welcome to {{restaurant}}.',
      firstMessageMode: 'assistant-speaks-first',
      model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'You are Luigi, the host at {{restaurant}}. Help guests order.' }] },
      knowledgeBase: { fileIds: [file.id] },
    });
    assistantId = r.body.assistant.id;
  });

  test('a session opens with the first message when the assistant speaks first', async () => {
    const r = await post(sb, '/sessions', { assistantId, name: 'Table 4' });
    assert.equal(r.status, 201);
    const s = r.body.session;
    assert.equal(s.name, 'Table 4');
    assert.equal(s.status, 'active');
    assert.equal(s.assistantId, assistantId);
    assert.deepEqual(s.messages, [{ role: 'assistant', content: 'Ciao {{guest}}! Welcome to {{restaurant}}.' }]);
    const got = await get(sb, `/chats/session/${s.id}`);
    assert.equal(got.status, 200);
    for (const k of ['id', 'name', 'status', 'assistantId', 'messages', 'updatedAt']) assert.deepEqual(got.body.session[k], s[k]);
  });

  test('a session of an assistant that waits starts empty, named after it', async () => {
    const a = (await post(sb, '/assistants', { name: 'Quiet', firstMessage: 'hi', firstMessageMode: 'assistant-waits-for-user' })).body.assistant;
    const s = (await post(sb, '/sessions', { assistantId: a.id })).body.session;
    assert.deepEqual(s.messages, []);
    assert.equal(s.name, 'Chat with Quiet');
  });

  test('a question about the knowledge base gets the passage quoted, and the session keeps both turns', async () => {
    const s = (await post(sb, '/sessions', { assistantId })).body.session;
    const r = await post(sb, '/chats', { sessionId: s.id, input: 'How much is the Diavola pizza?' });
    assert.equal(r.status, 201);
    const chat = r.body.chat;
    assert.equal(chat.status, 'completed');
    assert.equal(typeof chat.cost, 'number');
    assert.equal(chat.sessionId, s.id);
    assert.equal(chat.assistantId, assistantId);
    assert.equal(chat.input, 'How much is the Diavola pizza?');
    assert.equal(chat.output[0].role, 'assistant');
    assert.match(chat.output[0].content, /menu\.md/);
    assert.match(chat.output[0].content, /The Diavola costs 13 euros and is topped with spicy salami\./);
    const delivery = await post(sb, '/chats', { sessionId: s.id, input: 'Is delivery free?' });
    assert.match(delivery.body.chat.output[0].content, /Delivery is free on orders over 30 euros/);
    const got = (await get(sb, `/chats/session/${s.id}`)).body.session;
    assert.deepEqual(
      got.messages.map((m: any) => m.role),
      ['assistant', 'user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(got.messages[1].content, 'How much is the Diavola pizza?');
    assert.equal(got.messages[2].content, chat.output[0].content);
  });

  test('variable values fill the first message and the prompt, and hold for the session', async () => {
    const s = (await post(sb, '/sessions', { assistantId })).body.session;
    const hello = await post(sb, '/chats', {
      sessionId: s.id,
      input: 'Hello!',
      assistantOverrides: { variableValues: { guest: 'Ada', restaurant: 'Trattoria Uno' } },
    });
    assert.equal(hello.body.chat.output[0].content, 'Ciao Ada! Welcome to Trattoria Uno.');
    assert.deepEqual(hello.body.chat.assistantOverrides.variableValues, { guest: 'Ada', restaurant: 'Trattoria Uno' });
    const who = await post(sb, '/chats', { sessionId: s.id, input: 'Who are you?' });
    assert.match(who.body.chat.output[0].content, /^I'm Luigi, the host at Trattoria Uno\./);
  });

  test('a variable with no value stays as written, and the answer names it', async () => {
    const s = (await post(sb, '/sessions', { assistantId })).body.session;
    const r = await post(sb, '/chats', { sessionId: s.id, input: 'Hello!', assistantOverrides: { variableValues: { guest: 'Ada' } } });
    assert.equal(r.body.chat.output[0].content, 'Ciao Ada! Welcome to {{restaurant}}.');
    assert.deepEqual(r.body.chat.missingVariables, ['restaurant']);
    assert.equal(r.body.message, 'Chat message sent successfully; {{restaurant}} has no value (give it in assistantOverrides.variableValues)');
    const given = await post(sb, '/chats', { sessionId: s.id, input: 'Hello!', assistantOverrides: { variableValues: { restaurant: 'Uno' } } });
    assert.equal(given.body.chat.missingVariables, undefined);
    assert.equal(given.body.message, 'Chat message sent successfully');
  });

  test('the same input gets the same reply', async () => {
    const a = (await post(sb, '/sessions', { assistantId })).body.session;
    const b = (await post(sb, '/sessions', { assistantId })).body.session;
    const ra = await post(sb, '/chats', { sessionId: a.id, input: 'What time do you deliver?' });
    const rb = await post(sb, '/chats', { sessionId: b.id, input: 'What time do you deliver?' });
    assert.equal(ra.body.chat.output[0].content, rb.body.chat.output[0].content);
    assert.match(ra.body.chat.output[0].content, /18:00 and 23:00/);
  });

  test("the prompt's explicit rule beats the knowledge base, and retrieval quotes the section the question is about", async () => {
    const hours = readFileSync(new URL('../../assets/kb/opening-hours.md', import.meta.url), 'utf8');
    const file = (await upload(sb, 'opening-hours.md', hours)).body.file;
    await eventually(async () => ((await get(sb, `/files/${file.id}`)).body.file.status === 'done' ? true : undefined));
    const ask = async (prompt: string, input: string) => {
      const a = (
        await post(sb, '/assistants', {
          name: 'Front desk',
          model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: prompt }] },
          knowledgeBase: { fileIds: [file.id] },
        })
      ).body.assistant;
      const s = (await post(sb, '/sessions', { assistantId: a.id })).body.session;
      return (await post(sb, '/chats', { sessionId: s.id, input })).body.chat.output[0].content as string;
    };
    const ruled = 'You are the front desk of Bright Smile Dental. If asked about hours, say 8 to 6 on weekdays.';
    assert.equal(await ask(ruled, 'What are your hours?'), '8 to 6 on weekdays.');
    assert.equal(await ask(ruled, 'What are your opening hours?'), '8 to 6 on weekdays.');
    // A question the rule does not name still gets the knowledge base.
    assert.match(await ask(ruled, 'Is there parking?'), /\(Parking and access\): "Free parking/);
    // Without the rule: the section titled for the question, not one that mentions its word in passing.
    const plain = 'You are the front desk of Bright Smile Dental.';
    for (const q of ['What are your hours?', 'What are your opening hours?']) {
      const reply = await ask(plain, q);
      assert.match(reply, /opening-hours\.md \(Opening hours\): "Monday to Friday: 8:00 to 18:00\./, q);
      assert.doesNotMatch(reply, /Emergencies/, q);
    }
    assert.match(await ask(plain, 'What about emergencies?'), /\(Emergencies\)/);
  });

  test('errors: unknown session or assistant 404, missing fields 400', async () => {
    const s = (await post(sb, '/sessions', { assistantId })).body.session;
    const cases: [string, unknown, number, RegExp][] = [
      ['/sessions', { assistantId: 'ghost' }, 404, /assistant with id ghost/],
      ['/sessions', {}, 400, /^assistantId is required/],
      ['/sessions', { assistantId, name: 5 }, 400, /^name must be a string/],
      ['/chats', { sessionId: 'ghost', input: 'hi' }, 404, /chat session with id ghost/],
      ['/chats', { sessionId: s.id }, 400, /^input is required/],
      ['/chats', { sessionId: s.id, input: '' }, 400, /^input must not be empty/],
      ['/chats', { sessionId: s.id, input: 'x', assistantOverrides: { variableValues: 'no' } }, 400, /^assistantOverrides\.variableValues must be/],
      ['/chats', { input: 'x' }, 400, /^sessionId is required/],
    ];
    for (const [path, body, status, msg] of cases) {
      const r = await post(sb, path, body);
      assert.equal(r.status, status, `${path} ${JSON.stringify(body)}`);
      assert.ok(isErrorBody(r.body, status));
      assert.match(r.body.message, msg);
    }
    const missing = await get(sb, '/chats/session/ghost');
    assert.equal(missing.status, 404);
  });
});

describe('the reply engine', () => {
  test('substitute leaves unknown variables as written', () => {
    assert.equal(substitute('Hi {{ name }}, {{other}}', { name: 'Bo' }), 'Hi Bo, {{other}}');
  });

  test("a question an instruction of the prompt covers gets the instruction's answer, not the instruction", () => {
    const p = personaOf({
      name: 'Zed',
      model: {
        messages: [
          {
            role: 'system',
            content:
              'You are Zed, a sales assistant for Zephyr bikes. If the caller asks about pricing, say the Zephyr costs 42 dollars. ' +
              'When someone asks about returns, tell them "Returns are free within 30 days".',
          },
        ],
      },
    });
    assert.equal(composeReply(p, [], 'What about pricing?'), 'The Zephyr costs 42 dollars.');
    assert.equal(composeReply(p, [], 'Can I make returns?'), 'Returns are free within 30 days.');
    assert.equal(composeReply(p, [], 'What about pricing?'), composeReply(p, [], 'What about pricing?'));
  });

  test('an unmatched question says so and points at the knowledge base', () => {
    const p = personaOf({ name: 'Kim', model: { messages: [{ role: 'system', content: 'You are Kim, a concierge.' }] } });
    const reply = composeReply(p, [{ name: 'faq.md', text: 'Parking costs 5 dollars.' }], 'Do you sell umbrellas?');
    assert.match(reply, /^I'm Kim, a concierge\. I don't have anything on "Do you sell umbrellas\?" yet\. You can ask me about faq\.md\.$/);
  });
});
