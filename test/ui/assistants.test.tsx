import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { openConsole } from './support.js';
import { until } from '../support/wait.js';
import { sandboxForFile } from '../support/sandbox.js';

describe('Assistants screen', () => {
  const sb = sandboxForFile();

  test('lists assistants; j moves, Enter opens the grouped detail, Esc comes back to the same row', async () => {
    const c = await openConsole(sb);
    try {
      const first = await c.waitFor('NAME');
      assert.match(first, /STATUS/);
      const names = c.store.getState().assistants.data!.map((a) => a.name!);
      assert.ok(names.length >= 2);
      await c.press('j');
      await c.press(KEYS.enter);
      const detail = await c.waitFor('System prompt');
      assert.ok(detail.includes(names[1].slice(0, 20)), detail);
      assert.ok(detail.includes('Model'));
      await c.press('G'); // the end of the detail: the later groups
      const end = c.frame();
      assert.ok(end.includes('Hang-up prompt'), end);
      assert.ok(/Knowledge-base files|Analysis plan/.test(end), end);
      await c.press('g');
      assert.ok(c.frame().includes('System prompt'));
      await c.press(KEYS.escape);
      await c.waitFor('NAME');
      assert.equal(c.store.getState().views['assistants'].cursor, 1);
      // The selected row is drawn inverse: its name is on the highlighted line.
      assert.ok(c.frame().includes(names[1].slice(0, 15)));
      // y: the raw record as the service returned it.
      await c.press('y');
      const raw = await c.waitFor('"id":');
      assert.ok(raw.includes(`"name": ${JSON.stringify(names[1])}`), raw);
      await c.press(KEYS.escape);
      await c.waitFor('NAME');
      // /: the list narrows to rows containing the text; Esc in the filter clears it.
      await c.press('/');
      await c.type(names[2].slice(0, 5));
      await c.press(KEYS.enter);
      const narrowed = c.frame();
      assert.ok(narrowed.includes(names[2].slice(0, 15)));
      assert.ok(!narrowed.includes(names[0].slice(0, 15)), narrowed);
      await c.press('/', KEYS.escape);
      assert.ok(c.frame().includes(names[0].slice(0, 15)));
    } finally {
      await c.close();
    }
  });

  test('create form: validates as you type, refuses an empty name, and creates', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Name is required');
      await c.type('Test Bot');
      // Temperature is field 4 (name, description, active, provider, model, temperature).
      await c.press(KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab);
      await c.press(KEYS.backspace, KEYS.backspace, KEYS.backspace);
      await c.type('x');
      await c.waitFor('Temperature must be a number');
      await c.press(KEYS.backspace);
      await c.type('0.5');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Created assistant Test Bot');
      const made = c.store.getState().assistants.data!.find((a) => a.name === 'Test Bot');
      assert.ok(made, 'the new assistant is in the cache');
      assert.equal(made!.model?.temperature, 0.5);
      assert.equal(made!.model?.provider, 'openai');
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant');
    } finally {
      await c.close();
    }
  });

  test('edit toggles status and saves; c opens chat with the assistant', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      const a = c.store.getState().assistants.data![0];
      await c.press('e');
      await c.waitFor(`Edit ${a.name}`);
      await c.press(KEYS.tab, KEYS.tab, ' ');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Saved assistant');
      const after = c.store.getState().assistants.data!.find((x) => x.id === a.id)!;
      assert.equal(after.status, a.status === false);
      await c.press('c');
      // The chat opens for the assistant, then stands on the session it makes: on a busy machine that may be on top already.
      await until(() => c.store.getState().stack.at(-1)?.name === 'chat-session', 'the chat opens on a new session');
      const top = c.store.getState().stack.at(-1) as { name: 'chat-session'; sessionId: string };
      assert.equal((await c.api.getSession(top.sessionId)).assistantId, a.id);
    } finally {
      await c.close();
    }
  });

  test('a wrong key shows the service error; r retries', async () => {
    const c = await openConsole(sb, { apiKey: 'sk-wrong-key-0000' });
    try {
      const f = await c.waitFor('Could not load assistants');
      assert.match(f, /401|key|unauthor/i);
      assert.match(f, /unauthorized/);
      await c.press('r');
      await c.waitFor('Could not load assistants');
    } finally {
      await c.close();
    }
  });
});
