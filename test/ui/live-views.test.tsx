// Live views: what the console shows follows the service, and the cursor follows its row.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { createClient } from '../../src/api/client.js';
import { openConsole, startTestSandbox, type Sandbox } from './support.js';

describe('live views', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof createClient>;
  before(async () => {
    sb = await startTestSandbox();
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  });
  after(async () => {
    await api.close();
    await sb.close();
  });

  test('the call log: a refresh that adds calls above the cursor leaves it on the same call; Enter opens that call', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    try {
      await c.waitFor('calls/day');
      await c.press('j', 'j', 'j');
      const chosen = c.store.getState().callLog.calls[3];
      const [assistant] = await api.listAssistants();
      const [number] = await api.listPhoneNumbers();
      for (const n of ['+14155550101', '+14155550102']) await api.placeOutboundCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: n } });
      await c.store.getState().actions.refreshCalls();
      assert.equal(c.store.getState().callLog.calls[5].id, chosen.id, 'two calls came in above it');
      await c.waitFor('+14155550102');
      await c.press(KEYS.enter);
      const top = c.store.getState().stack.at(-1)!;
      assert.deepEqual(top, { name: 'call', id: chosen.id }, 'Enter opens the call that was highlighted');
      await c.press(KEYS.escape);
      // Keys move on from where the cursor is now: k goes to the call above the chosen one.
      await c.waitFor('calls/day');
      await c.press('k');
      await c.press(KEYS.enter);
      assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: c.store.getState().callLog.calls[4].id });
    } finally {
      await c.close();
    }
  });
});
