// Writes that cannot be taken back ask first and say exactly what they do: an outbound call names
// the assistant, the from number (one linked to that assistant by default) and the customer; a
// file's delete names the assistants that lose it and starts on cancel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kbFileIds } from '../../src/api/records.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

describe('confirmations', () => {
  const sb = createMemoryApi();

  test("an outbound call from an assistant's page: from its own number, and placed only after a yes naming all three", async () => {
    const numbers = await sb.listPhoneNumbers();
    const assistants = await sb.listAssistants();
    // An assistant whose number is not the first of the list: the old default would be another's.
    const mine = numbers.find((n, i) => i > 0 && n.assistantId)!;
    const a = assistants.find((x) => x.id === mine.assistantId)!;
    const placed = () => sb.asked.filter((x) => x === 'placeOutboundCall').length;
    const c = await openConsole(sb, { initialRoute: { name: 'call-outbound', assistantId: a.id } });
    try {
      await c.waitFor('Place an outbound call');
      await c.waitFor(mine.did!);
      await c.press(KEYS.tab, KEYS.tab);
      await c.type('+14155550177');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Place this call?');
      const message = c.store.getState().dialog!.message;
      assert.ok(message.includes(a.name!) && message.includes(mine.did!) && message.includes('+14155550177'), message);
      await c.press('n');
      await until(() => c.store.getState().dialog === null, 'declined');
      assert.equal(placed(), 0, 'nothing placed on no');
      assert.equal(c.store.getState().stack.at(-1)!.name, 'call-outbound', 'the form stays');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Place this call?');
      await c.press('y');
      await until(() => placed() === 1, 'placed on yes');
    } finally {
      await c.close();
    }
  });

  test('deleting a file names the assistants that lose it, and Enter alone cancels', async () => {
    const assistants = await sb.listAssistants();
    const user = assistants.find((x) => kbFileIds(x).length > 0)!;
    const fileId = kbFileIds(user)[0];
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      await until(() => c.store.getState().assistants.status === 'ready', 'the assistants, for the dialog');
      const row = c.store.getState().files.data!.files.findIndex((f) => f.id === fileId);
      for (let i = 0; i < row; i++) await c.press('j');
      await c.press('d');
      await c.waitFor('Delete file');
      assert.ok(c.store.getState().dialog!.message.includes(`${user.name} lose it`), c.store.getState().dialog!.message);
      await c.waitFor(/❯ cancel/);
      await c.press(KEYS.enter);
      await until(() => c.store.getState().dialog === null, 'closed');
      assert.ok(
        c.store.getState().files.data!.files.some((f) => f.id === fileId),
        'the file stays',
      );
    } finally {
      await c.close();
    }
  });
});

describe('knowledge-base picker', () => {
  const sb = createMemoryApi();

  test('j moves (as help says) and Enter saves exactly the marked set; a filter is typed after /, and its Enter saves nothing', async () => {
    const a = (await sb.listAssistants()).find((x) => kbFileIds(x).length === 1)!;
    const [marked] = kbFileIds(a);
    const saved = async () => new Set(kbFileIds(await sb.getAssistant(a.id)));
    const c = await openConsole(sb, { initialRoute: { name: 'assistant-kb', id: a.id } });
    try {
      await c.waitFor('Knowledge-base files of');
      const files = c.store.getState().files.data!.files;
      const second = files[1]!;
      const third = files.find((f) => f.id !== marked && f.id !== second.id)!;
      const flashed = () => /now uses \d knowledge-base files?/.test(c.store.getState().flash?.text ?? '');
      // j to the second file, Space marks (or unmarks) it, Enter saves.
      await c.press('j', ' ', KEYS.enter);
      await until(flashed, 'saved');
      const want = new Set([marked, second.id]);
      if (second.id === marked) want.delete(marked);
      assert.deepEqual(await saved(), want);
      // The third by its name, through the filter: the filter's Enter ends it and saves nothing.
      c.store.getState().actions.clearFlash();
      c.store.getState().actions.push({ name: 'assistant-kb', id: a.id });
      await c.waitFor('j/k move');
      await c.press('/');
      // While the filter is typed, Space is text: the footer offers no toggle, and nothing is marked.
      await c.waitFor('filter: ▏');
      assert.doesNotMatch(c.frame().split('\n').at(-1) ?? '', /toggle/, `the footer while filtering:\n${c.frame()}`);
      await c.press(' ');
      await c.waitFor('filter:  ▏');
      // → marks nothing while filtering either (it toggled the row under the cursor, unseen).
      const marks = () => (c.frame().match(/\[x\]/g) ?? []).length;
      const before = marks();
      await c.press(KEYS.right);
      await c.press(KEYS.backspace);
      await c.waitFor('filter: ▏');
      assert.equal(marks(), before, `→ while filtering:\n${c.frame()}`);
      await c.type(third.name!.slice(0, 6));
      await c.press(KEYS.enter);
      await c.waitFor('j/k move');
      assert.equal(c.store.getState().flash, null, 'not saved by the filter');
      await c.press(' ', KEYS.enter);
      await until(flashed, 'saved again');
      assert.deepEqual(await saved(), new Set([...want, third.id]));
    } finally {
      await c.close();
    }
  });
});

describe('link picker', () => {
  const sb = createMemoryApi();

  test('a name typed into the filter picks that assistant, though an id above it holds the same letters', async () => {
    // Ids are hex: "e2e" sits inside many. The decoy is listed first, its id holding the text typed.
    const at = new Date(Date.now() - 90 * 86_400_000).toISOString();
    const decoy = { id: '0c0ffee0-0000-4000-8e2e-000000000001', body: { name: 'Decoy' }, createdAt: at, updatedAt: at };
    const bot = { id: '0c0ffee0-0000-4000-8000-000000000002', body: { name: 'E2E Bot' }, createdAt: at, updatedAt: at };
    sb.records.assistants.unshift(decoy, bot);
    const number = (await sb.listPhoneNumbers()).find((n) => !n.assistantId)!;
    const c = await openConsole(sb, { initialRoute: { name: 'number-link', id: number.id } });
    try {
      await c.waitFor('Link an assistant');
      await c.type('E2E');
      await c.waitFor('filter: E2E');
      const rows = c.frame().split('\n');
      const first = rows.findIndex((l) => l.includes('Decoy') || l.includes('E2E Bot'));
      assert.match(rows[first] ?? '', /E2E Bot/, `the named one first:\n${c.frame()}`);
      await c.press(KEYS.enter);
      await until(() => sb.asked.includes('linkNumber'), 'linked');
      assert.equal((await sb.listPhoneNumbers()).find((n) => n.id === number.id)!.assistantId, bot.id);
    } finally {
      await c.close();
    }
  });
});
