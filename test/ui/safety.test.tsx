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
