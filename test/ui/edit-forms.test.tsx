// No work lost, and everything editable in the console: Esc on a changed form asks first, a
// failed save keeps what was typed, the edit form is the create form pre-filled (only changed
// fields sent), and D duplicates an assistant into a pre-filled create form.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { openConsole } from './support.js';
import { startFaultyServer, type FaultyServer } from '../support/faulty-server.js';
import { changedFields, formValuesFrom } from '../../src/ui/screens/assistants/AssistantForms.js';
import type { Assistant } from '../../src/api/schemas.js';
import { sandboxForFile } from '../support/sandbox.js';

const ESC_WAIT = () => new Promise((r) => setTimeout(r, 60));

describe('forms keep work', () => {
  const sb = sandboxForFile();
  let proxy: FaultyServer;
  before(async () => {
    proxy = await startFaultyServer({ mode: 'healthy', upstream: sb.url });
  });
  after(async () => {
    await proxy.close();
  });

  test('Esc on an unchanged form leaves; on a changed one a dialog asks, n keeps editing, y discards', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.press(KEYS.escape);
      await ESC_WAIT();
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistants', 'nothing typed: Esc just leaves');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.type('Half done');
      await c.press(KEYS.escape);
      await c.waitFor('Discard your changes?');
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new');
      await c.press('n');
      await ESC_WAIT();
      assert.equal(c.store.getState().dialog, null);
      assert.match(c.frame(), /› Name +Half done/, 'still there, still editable');
      await c.type('!');
      await c.waitFor(/› Name +Half done!/);
      await c.press(KEYS.escape);
      await c.waitFor('Discard your changes?');
      await c.press('y');
      await ESC_WAIT();
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistants');
    } finally {
      await c.close();
    }
  });

  test('a failed save keeps everything typed and shows why; the same Ctrl-S works once the service is back', async () => {
    const c = await openConsole({ ...sb, url: proxy.url });
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.type('Kept Bot');
      await c.press(KEYS.tab);
      await c.type('typed before the failure');
      await proxy.setMode('500');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Could not create the assistant');
      const f = c.frame();
      assert.match(f, /Name +Kept Bot/);
      assert.match(f, /typed before the failure/);
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new');
      await proxy.setMode('healthy');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Created assistant Kept Bot');
      assert.equal(c.store.getState().assistants.data!.find((a) => a.name === 'Kept Bot')?.description, 'typed before the failure');
    } finally {
      await proxy.setMode('healthy');
      await c.close();
    }
  });

  test('edit is the create form pre-filled: a field beyond name/description/status changes, and only it is sent', async () => {
    const c = await openConsole({ ...sb, url: proxy.url });
    try {
      await c.waitFor('NAME');
      const a = c.store.getState().assistants.data![0];
      await c.press('e');
      await c.waitFor(`Edit ${a.name}`);
      const f = c.frame();
      assert.match(f, /Model provider/, 'the whole create form');
      // First message is in the Call behaviour group: Tab to it (the form scrolls), replace it.
      const firstMessageRow = 17;
      for (let i = 0; i < firstMessageRow; i++) await c.press(KEYS.tab);
      await c.waitFor(/› First message/);
      await c.press('\x15'); // Ctrl-U: the line goes
      await c.type('Hello from the edit form');
      const before = proxy.requests.length;
      await c.press(KEYS.ctrlS);
      await c.waitFor('Saved assistant');
      const patch = proxy.requests.slice(before).find((r) => r.method === 'PATCH');
      assert.ok(patch, 'a PATCH was sent');
      assert.deepEqual(JSON.parse(patch!.body), { firstMessage: 'Hello from the edit form' });
      const saved = c.store.getState().assistants.data!.find((x) => x.id === a.id)!;
      assert.equal(saved.firstMessage, 'Hello from the edit form');
      assert.deepEqual(saved.voice, a.voice, 'untouched fields as they were');
      assert.deepEqual(saved.model, a.model);
    } finally {
      await c.close();
    }
  });

  test('D on an assistant opens the create form pre-filled from it; Ctrl-S creates the copy', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      const a = c.store.getState().assistants.data![0];
      await c.press('D');
      await c.waitFor(`New assistant from ${a.name}`);
      assert.match(c.frame(), new RegExp(`› Name +${a.name} \\(copy\\)`));
      await c.press(KEYS.ctrlS);
      await c.waitFor(`Created assistant ${a.name} (copy)`);
      const copy = c.store.getState().assistants.data!.find((x) => x.name === `${a.name} (copy)`)!;
      assert.ok(copy && copy.id !== a.id);
      assert.equal(copy.model?.messages?.[0]?.content, a.model?.messages?.find((m) => m.role === 'system')?.content);
      assert.deepEqual(copy.voice, a.voice);
      assert.equal(copy.firstMessage, a.firstMessage);
      assert.equal(copy.maxDurationSeconds, a.maxDurationSeconds);
    } finally {
      await c.close();
    }
  });
});

test('changedFields: unchanged values send nothing; a nested change keeps the keys the form does not show', () => {
  const a: Assistant = {
    id: 'a1',
    name: 'Desk',
    model: {
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.7,
      messages: [
        { role: 'system', content: 'Be kind' },
        { role: 'assistant', content: 'Hi' },
      ],
      knowledgeBase: { fileIds: ['f1'] },
    },
    voice: { provider: 'vapi', voiceId: 'Elliot', extra: 1 } as Assistant['voice'],
  };
  const v = formValuesFrom(a);
  assert.deepEqual(changedFields(a, v, v), {});
  const patch = changedFields(a, v, { ...v, systemPrompt: 'Be brief' }) as Record<string, unknown>;
  assert.deepEqual(Object.keys(patch), ['model']);
  assert.deepEqual(patch.model, {
    provider: 'openai',
    model: 'gpt-4o',
    temperature: 0.7,
    emotionRecognitionEnabled: false,
    knowledgeBase: { fileIds: ['f1'] },
    messages: [
      { role: 'system', content: 'Be brief' },
      { role: 'assistant', content: 'Hi' },
    ],
  });
  const voice = changedFields(a, v, { ...v, voiceId: 'Paige' }) as Record<string, unknown>;
  assert.deepEqual(voice, { voice: { provider: 'vapi', voiceId: 'Paige', extra: 1 } });
});
