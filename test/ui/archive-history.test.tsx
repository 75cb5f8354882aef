// The header while the console's archive back-fills its history: how far back it reaches and the
// share of the log held ("history 40% · back to 2026-03-02", "syncing history…" before the share
// is known), dropped part by part on a narrow terminal, and gone once the history is complete.
// The console runs on the memory api (its sync in the process), whose history pages are held
// part-way so the back-fill is seen under way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import type { CallFilters } from '../../src/api/schemas.js';
import { historyTail } from '../../src/ui/chrome-text.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import type * as Support from './support.js';

const CALLS = 3000;
const DAY = 86_400_000;

describe('the header during a back-fill', () => {
  test('the tail says the share and the day reached, drops the day and then itself when the room is short', () => {
    const h = { back: '2026-03-02T10:00:00.000Z', share: 0.4 };
    assert.equal(historyTail(h, 80), ' │ history 40% · back to 2026-03-02');
    assert.equal(historyTail(h, 20), ' │ history 40%');
    assert.equal(historyTail(h, 10), '');
    assert.equal(historyTail({ back: h.back }, 80), ' │ syncing history… · back to 2026-03-02');
    assert.equal(historyTail({}, 80), ' │ syncing history…');
    assert.equal(historyTail({ share: 0.999 }, 80), ' │ history 99%', 'never 100% before the back-fill ends');
    assert.equal(historyTail(undefined, 80), '', 'nothing once the history is complete');
  });

  test("the console's header shows the back-fill's progress while it runs, and nothing once it is complete", async () => {
    const { openConsole } = (await import('./support.js')) as typeof Support;
    // A short address and profile: the header has room for the whole tail at 100 columns.
    const memory = createMemoryApi({ baseUrl: 'http://m' });
    // Many calls over the last months: a back-fill of many pages.
    const like = memory.records.calls.filter((c) => c.endedAt !== undefined && c.endedAt !== null);
    const now = Date.now() - DAY;
    const made = Array.from({ length: CALLS }, (_, i) => {
      const c = like[i % like.length];
      const createdAt = now - Math.round((i * 90 * DAY) / CALLS);
      const shift = createdAt - c.createdAt;
      const at = (t: number | null | undefined) => (typeof t === 'number' ? t + shift : t);
      return { ...c, id: randomUUID(), createdAt, ringingAt: at(c.ringingAt), answeredAt: at(c.answeredAt), endedAt: at(c.endedAt) };
    });
    memory.records.calls.push(...(made as typeof memory.records.calls));
    memory.records.calls.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));

    // History pages (those with an upper date bound) after the first few wait until released.
    let released!: () => void;
    const release = new Promise<void>((r) => (released = r));
    let historyPages = 0;
    const held = (filters?: CallFilters) => filters?.createdAtLt !== undefined && ++historyPages > 3;
    const wrapApi = (api: VoiceAgentApi): VoiceAgentApi =>
      new Proxy(api, {
        get: (t, p) => {
          if (p !== 'callDetails' && p !== 'listCalls') return Reflect.get(t, p, t);
          const fn = Reflect.get(t, p, t) as VoiceAgentApi['callDetails'];
          return async (filters?: CallFilters, ro?: Parameters<VoiceAgentApi['callDetails']>[1]) => {
            if (held(filters)) await release;
            return fn.call(t, filters, ro);
          };
        },
      });
    const c = await openConsole(memory, { initialRoute: { name: 'calls' }, pollMs: 3_600_000, wrapApi, target: { profile: 'p' } });
    const header = () => (c.frame() ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n')[0];
    try {
      await until(() => historyPages > 3, 'the back-fill under way');
      await until(() => / │ (syncing history…|history \d{1,2}%)/.test(header()), `the back-fill's progress in the header: ${header()}`);
      const back = c.store.getState().archiveSync.history?.back;
      assert.ok(back, 'the back-fill says how far back it reaches');
      assert.match(header(), /● online │ (syncing history…|history \d{1,2}%) · back to \d{4}-\d\d-\d\d$/);
      assert.ok(header().endsWith(` · back to ${back.slice(0, 10)}`), `the day reached: ${header()}`);
      released();
      await until(() => c.store.getState().archiveSync.complete && !c.store.getState().archiveSync.running, 'the whole history');
      await until(() => !header().includes('history'), `the header without the back-fill: ${header()}`);
      assert.ok(header().trimEnd().endsWith('● online'), header());
    } finally {
      released();
      await c.close();
    }
  });
});
