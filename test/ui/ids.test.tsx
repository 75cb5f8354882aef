// Ids you can copy and type, where you are in a list, and what the lists show: the copy keys
// (the clipboard write itself is the terminal's, test/e2e/copy.test.ts), on the memory api.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { copyable } from '../../src/ui/terminal.js';

describe('ids you can copy', () => {
  const sb = createMemoryApi();

  test('Y copies the selected call id, # its customer number; the flash says what was copied', async () => {
    const copied: string[] = [];
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, copy: (t) => (copied.push(t), copyable(t)) });
    try {
      await c.waitFor('calls/day');
      await c.press('j');
      const call = c.store.getState().callLog.calls[1];
      await c.press('Y');
      await until(() => copied.length === 1, 'a copy');
      assert.deepEqual(copied, [call.id]);
      await c.waitFor(`Copied the id ${call.id}`);
      await c.press('#');
      await until(() => copied.length === 2, 'a second copy');
      assert.equal(copied[1], call.customer?.number);
      await c.waitFor('Copied the customer number');
    } finally {
      await c.close();
    }
  });

  test('a DID with control bytes is not copied, and the flash shows it escaped', async () => {
    const copied: string[] = [];
    sb.records.numbers[0].did = '+1415\x1b]52;c;ZXZpbA==\x07';
    const c = await openConsole(sb, { initialRoute: { name: 'numbers' }, copy: (t) => (copied.push(t), copyable(t)) });
    try {
      await c.waitFor('DID');
      await c.press('#');
      await c.waitFor('Not copied');
      assert.equal(c.store.getState().flash?.kind, 'error');
      assert.ok(!c.frame().includes('\x07'), 'no raw control byte on screen');
    } finally {
      await c.close();
    }
  });

  test('what may be copied: ids, DIDs, phone numbers; nothing with control bytes or spaces', () => {
    for (const ok of ['01a21299-5b1c-4c3e-9d7e-2f1a0b3c4d5e', '+14155550123', 'sip:agent@example.com']) assert.ok(copyable(ok), ok);
    for (const bad of ['', 'a\x1bb', 'a\x07', 'a b', 'a\nb', '\u009b', 'x'.repeat(300)]) assert.ok(!copyable(bad), JSON.stringify(bad));
  });
});
