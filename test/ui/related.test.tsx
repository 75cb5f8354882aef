// Related records one key away (k9s's jumps): a file's assistants, a number's assistant and calls,
// an assistant's numbers and calls from the list too; Esc and `-` come back. A number has a page of
// its own, and re-linking a linked number asks first, naming both assistants.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kbFileIds } from '../../src/api/records.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

describe('related records', () => {
  const sb = createMemoryApi();
  const top = (c: { store: { getState(): { stack: unknown[] } } }) => c.store.getState().stack.at(-1);
  const names = (c: { store: { getState(): { stack: { name: string }[] } } }) => c.store.getState().stack.map((r) => r.name);

  test('a on a file lists the assistants using it; Esc comes back', async () => {
    const assistants = await sb.listAssistants();
    const user = assistants.find((a) => kbFileIds(a).length > 0)!;
    const fileId = kbFileIds(user)[0];
    const others = assistants.filter((a) => !kbFileIds(a).includes(fileId));
    const c = await openConsole(sb, { initialRoute: { name: 'file', id: fileId } });
    try {
      await c.waitFor('parsedTextBytes');
      await c.press('a');
      await until(() => (top(c) as { usingFile?: string }).usingFile === fileId, 'the assistants using the file');
      const frame = await c.waitFor(user.name!.slice(0, 12));
      assert.match(frame, /1 assistant\b/);
      // The title and the status line name the file, not its id.
      const file = (await sb.listFiles()).files.find((f) => f.id === fileId)!;
      assert.ok(file.name && !frame.includes(`using ${fileId}`), `the file's id is shown:\n${frame}`);
      assert.ok(frame.includes(`assistants using ${file.name}`), `no title naming ${file.name}:\n${frame}`);
      assert.ok(frame.includes(`using ${file.name}`));
      for (const o of others) assert.ok(!frame.includes(o.name!.slice(0, 12)), `${o.name} does not use the file:\n${frame}`);
      await c.press(KEYS.escape);
      await until(() => (top(c) as { name: string }).name === 'file', 'back on the file');
    } finally {
      await c.close();
    }
  });

  test('from a number: a opens its assistant, C its calls; - and Esc come back', async () => {
    const n = (await sb.listPhoneNumbers()).find((x) => x.assistantId)!;
    const c = await openConsole(sb, { initialRoute: { name: 'number', id: n.id } });
    try {
      await c.waitFor(n.did!);
      await c.press('a');
      await until(() => (top(c) as { name: string }).name === 'assistant', 'its assistant');
      assert.deepEqual(top(c), { name: 'assistant', id: n.assistantId });
      await c.press('-');
      await until(() => (top(c) as { name: string }).name === 'number', '- back on the number');
      await c.press('C');
      await until(() => (top(c) as { name: string }).name === 'calls', 'its calls');
      assert.equal(c.store.getState().callLog.filters.phoneNumberId, n.id);
      assert.equal(c.store.getState().callLog.filters.assistantId, undefined);
      await c.press(KEYS.escape);
      await until(() => (top(c) as { name: string }).name === 'number', 'Esc back on the number');
    } finally {
      await c.close();
    }
  });

  test('from the assistants list: C opens its calls, N its numbers only', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('MODEL');
      const first = c.store.getState().assistants.data![0];
      await c.press('C');
      await until(() => (top(c) as { name: string }).name === 'calls', 'its calls');
      assert.equal(c.store.getState().callLog.filters.assistantId, first.id);
      assert.deepEqual(names(c), ['assistants', 'calls']);
      await c.press(KEYS.escape);
      await until(() => names(c).length === 1, 'back on the list');
      await c.press('N');
      await until(() => (top(c) as { name: string }).name === 'numbers', 'its numbers');
      const all = await sb.listPhoneNumbers();
      const mine = all.filter((x) => x.assistantId === first.id);
      assert.ok(mine.length > 0 && mine.length < all.length, 'the seed links some numbers to it, not all');
      const frame = await c.waitFor(mine[0].did!);
      for (const x of all) assert.equal(frame.includes(x.did!), mine.includes(x), `${x.did} shown only if linked to it:\n${frame}`);
    } finally {
      await c.close();
    }
  });

  test('Enter on a number opens its page; re-linking a linked number names both assistants and waits for yes', async () => {
    const all = await sb.listPhoneNumbers();
    const n = all.find((x) => x.assistantId)!;
    const assistants = await sb.listAssistants();
    const before = assistants.find((a) => a.id === n.assistantId)!;
    const after = assistants.find((a) => a.id !== n.assistantId && a.status !== false)!;
    const c = await openConsole(sb, { initialRoute: { name: 'numbers' } });
    try {
      await c.waitFor('PROVIDER');
      const row = c.store.getState().numbers.data!.findIndex((x) => x.id === n.id);
      for (let i = 0; i < row; i++) await c.press('j');
      await c.press(KEYS.enter);
      await until(() => (top(c) as { name: string }).name === 'number', 'the number page');
      assert.deepEqual(top(c), { name: 'number', id: n.id });
      await c.waitFor(before.name!);
      await c.press('l');
      await c.waitFor('Link an assistant');
      await c.type(after.name!.slice(0, 8));
      await c.press(KEYS.enter);
      const dialog = await c.waitFor('Change where inbound calls go?');
      assert.ok(dialog.includes(before.name!.slice(0, 12)) && dialog.includes(after.name!.slice(0, 12)), dialog);
      await c.press('n');
      await until(() => c.store.getState().dialog === null, 'declined');
      assert.equal((await sb.listPhoneNumbers()).find((x) => x.id === n.id)!.assistantId, before.id, 'not re-linked on no');
      await c.press(KEYS.enter);
      await c.waitFor('Change where inbound calls go?');
      await c.press('y');
      await until(() => sb.records.numbers.find((x) => x.id === n.id)!.assistantId === after.id, 're-linked on yes');
    } finally {
      await c.close();
    }
  });
});

describe('breadcrumbs', () => {
  const sb = createMemoryApi();

  test('a new search from the results replaces them, and a quoted phrase is quoted once', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      await c.press(':');
      await c.type('search refund');
      await c.press(KEYS.enter);
      await c.waitFor('Calls › search "refund"');
      await c.press(':');
      await c.type('search "return window"');
      await c.press(KEYS.enter);
      const frame = await c.waitFor('Calls › search "return window"');
      assert.ok(!frame.includes('""'), frame);
      assert.deepEqual(
        c.store.getState().stack.map((r) => r.name),
        ['calls', 'call-search'],
      );
      await c.press(KEYS.escape);
      await until(() => c.store.getState().stack.length === 1, 'one Esc back to the call log');
    } finally {
      await c.close();
    }
  });
});
