import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Call } from '../../src/api/schemas.js';
import { viewCall } from '../../src/api/records.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { callLines } from '../../src/ui/screens/calls/CallDetail.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { THEMES } from '../../src/ui/theme.js';

describe('Numbers and Calls screens', () => {
  // The service, in memory: these tests are about the console, not HTTP.
  const sb = createMemoryApi();

  test('numbers list; l links an assistant picked from a list and the row shows it', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'numbers' } });
    try {
      await c.waitFor('DID');
      await c.waitFor('PROVIDER');
      const n = c.store.getState().numbers.data![0];
      assert.ok(c.frame().includes(n.did!));
      await c.press('l');
      await c.waitFor('Link an assistant');
      const target = c.store.getState().assistants.data!.find((a) => a.id !== n.assistantId)!;
      await c.type(target.name!.slice(0, 8));
      await c.press(KEYS.enter);
      if (n.assistantId) {
        // A linked number: moving its calls to another assistant is asked first.
        await c.waitFor('Change where inbound calls go?');
        await c.press('y');
      }
      await c.waitFor('DID');
      const linked = c.store.getState().numbers.data!.find((x) => x.id === n.id)!;
      assert.equal(linked.assistantId, target.id);
      assert.ok(c.store.getState().flash?.kind === 'info', JSON.stringify(c.store.getState().flash));
    } finally {
      await c.close();
    }
  });

  test('call log newest first with a chart; Enter opens the transcript; filters validate dates', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      const calls = c.store.getState().callLog.calls;
      assert.ok(calls.length > 0);
      assert.ok(
        calls.every((x, i) => i === 0 || calls[i - 1].createdAt >= x.createdAt),
        'newest first',
      );
      assert.equal(viewCall(calls[0]).summary, undefined, 'the log keeps no summary');
      await c.press(KEYS.enter);
      await c.waitFor('Transcript');
      // The page shows the row at once and the summary and transcript when the whole record is in;
      // G before that would scroll the shorter page.
      const key = `call:${calls[0].id}`;
      await until(() => c.store.getState().records[key]?.status === 'ready', 'the whole call record');
      const full = c.store.getState().records[key]!.data as Call;
      const summary = viewCall(full).summary;
      assert.ok(summary, 'the seeded call has a summary');
      await c.waitFor(summary.split(' ').slice(0, 3).join(' '));
      await c.press('G');
      await c.waitFor(/Assistant:|Caller:/);
      const names = { assistant: 'a', number: 'n' };
      const fromRow = callLines(THEMES.dark, calls[0], names, 80, 'loading…').map((l) => l.text);
      assert.ok(
        !fromRow.some((t) => t.includes(summary.slice(0, 20))) && fromRow.filter((t) => t === '  loading…').length === 2,
        'summary and transcript say they are loading',
      );
      assert.ok(callLines(THEMES.dark, full, names, 80).some((l) => l.text.includes(summary.split(' ')[0])));
      await c.press(KEYS.escape);
      await c.press('f');
      await c.waitFor('Filter the call log');
      await c.press(KEYS.tab, KEYS.tab);
      await c.type('yesterday-ish');
      await c.press(KEYS.ctrlS);
      await c.waitFor('From date');
      assert.equal(c.store.getState().stack.at(-1)!.name, 'call-filters');
      for (let i = 0; i < 'yesterday-ish'.length; i++) await c.press(KEYS.backspace);
      await c.type('1d');
      await c.press(KEYS.ctrlS);
      await c.waitFor('from 1d');
      const since = Date.now() - 86_400_000 - 60_000;
      assert.ok(c.store.getState().callLog.calls.every((x) => Date.parse(x.createdAt) >= since));
    } finally {
      await c.close();
    }
  });

  test('outbound form rejects a non-E.164 number, then the placed call appears and goes live', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 200 });
    try {
      await c.waitFor('calls/day');
      await c.press('o');
      await c.waitFor('Place an outbound call');
      await c.press(KEYS.tab, KEYS.tab);
      await c.type('0800 123');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Not an E.164 number');
      for (let i = 0; i < 8; i++) await c.press(KEYS.backspace);
      await c.type('+14155550199');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Place this call?');
      await c.press('y');
      await c.waitFor('Calling +14155550199');
      const route = c.store.getState().stack.at(-1)!;
      assert.equal(route.name, 'call');
      assert.ok(c.store.getState().callLog.calls.some((x) => x.customer?.number === '+14155550199'));
      // The detail polls while the call is unfinished: wait for it to end (bounded).
      await c.waitFor(/status\s+ended/);
    } finally {
      await c.close();
    }
  });

  test("a number's page says its status in the list's word (active), not the service's boolean", async () => {
    const [n] = await sb.listPhoneNumbers();
    const c = await openConsole(sb, { initialRoute: { name: 'number', id: n.id } });
    try {
      await c.waitFor(/assistant\s+/);
      assert.match(c.frame(), /^status\s+active$/m);
      assert.doesNotMatch(c.frame(), /^status\s+true$/m);
    } finally {
      await c.close();
    }
  });

  test("an assistant's numbers, none yet: the footer says l and C are off and why, and l changes nothing but says so", async () => {
    const lonely = (await sb.createAssistant({ name: 'Lonely' })).record!;
    const c = await openConsole(sb, { initialRoute: { name: 'numbers', assistantId: lonely.id } });
    try {
      await c.waitFor('No number sends its calls to Lonely');
      const footer = () => c.frame().trimEnd().split('\n').at(-1) ?? '';
      // A number's keys (its spec's) are off with no number under the cursor, and say so where they are offered.
      assert.match(footer(), /l link assistant \(no number here\)/, footer());
      assert.match(footer(), /C its calls \(no number here\)/, footer());
      assert.doesNotMatch(footer(), /Enter open/, footer());
      await c.press('l');
      assert.deepEqual(c.store.getState().stack.at(-1), { name: 'numbers', assistantId: lonely.id });
      assert.match(c.frame(), /No number sends its calls to Lonely/);
      assert.match(c.store.getState().flash?.text ?? '', /no number here/);
    } finally {
      await c.close();
    }
  });
});
