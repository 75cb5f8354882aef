import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox } from '../support/sandbox.js';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/index.js';
import { CALLS_PAGE_SIZE, callPoller } from '../../src/store/calls.js';
import { walkCallLog } from '../../src/api/pager.js';
import { seedCalls } from '../../src/sandbox/seed.js';


describe('console store: the call log', () => {
  let sb: Awaited<ReturnType<typeof startTestSandbox>>;
  let api: ReturnType<typeof createClient>;
  let store: ConsoleStore;
  before(async () => {
    sb = await startTestSandbox();
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url }, { initialRoute: { name: 'calls' } });
  });
  after(async () => {
    store.getState().actions.dispose();
    await api.close();
    await sb.close();
  });

  test('the first page, then older pages: newest first, no call twice, until the end', async () => {
    await until(() => store.getState().callLog.status === 'ready', 'first page');
    const first = store.getState().callLog.calls;
    assert.equal(first.length, CALLS_PAGE_SIZE, 'the seeded log has more than one page');
    for (let i = 0; i < 100 && !store.getState().callLog.exhausted; i++) await store.getState().actions.loadMoreCalls();
    const all = store.getState().callLog.calls;
    assert.ok(all.length > first.length);
    assert.equal(new Set(all.map((c) => c.id)).size, all.length, 'no duplicates');
    assert.ok(all.every((c, i) => i === 0 || all[i - 1].createdAt >= c.createdAt), 'newest first');
    const everything = await api.listCalls({ limit: 1000 });
    assert.equal(all.length, everything.length, 'paging reaches every call');
  });

  test('each load more is one update of the log, however many pages it fetched', async () => {
    const { seedCalls } = await import('../../src/sandbox/seed.js');
    seedCalls(sb.dataDir, 6000);
    await store.getState().actions.loadCalls({ force: true });
    let updates = 0;
    const stop = store.subscribe((s, prev) => void (s.callLog.calls !== prev.callLog.calls && updates++));
    try {
      for (let i = 0; i < 100 && !store.getState().callLog.exhausted; i++) {
        const before = { updates, loaded: store.getState().callLog.calls.length };
        await store.getState().actions.loadMoreCalls();
        assert.equal(updates - before.updates, 1, `one update at ${before.loaded} calls`);
        assert.ok(store.getState().callLog.calls.length > before.loaded);
      }
    } finally {
      stop();
    }
    const all = store.getState().callLog.calls;
    assert.ok(all.length > 6000 && store.getState().callLog.exhausted);
    assert.equal(new Set(all.map((c) => c.id)).size, all.length, 'no duplicates');
    assert.ok(all.every((c, i) => i === 0 || all[i - 1].createdAt >= c.createdAt), 'newest first');
    const quiet = store.getState().callLog;
    await store.getState().actions.refreshCalls();
    assert.equal(store.getState().callLog, quiet, 'a refresh that finds nothing new leaves the log as it was (no redraw)');
  });

  test('a placed call joins the log; refresh follows its status; only the top view polls', async () => {
    const s = store.getState();
    const assistant = (await api.listAssistants())[0];
    const number = (await api.listPhoneNumbers())[0];
    const call = await s.actions.placeCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550123' } });
    assert.ok(call);
    assert.equal(store.getState().callLog.calls[0].id, call!.id);
    assert.ok(callPoller({ name: 'calls' }, store.getState()), 'the call log polls while on top and live');
    s.actions.toggleLive();
    assert.equal(callPoller({ name: 'calls' }, store.getState()), null, 'paused');
    s.actions.toggleLive();
    assert.equal(callPoller({ name: 'files' }, store.getState()), null);
    for (let i = 0; i < 200; i++) {
      await store.getState().actions.refreshCalls();
      if (store.getState().callLog.calls.find((c) => c.id === call!.id)?.status === 'ended') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(store.getState().callLog.calls.find((c) => c.id === call!.id)?.status, 'ended');
  });

  test('filters: a bad date is refused with the field named; a good one reloads the log', async () => {
    const { actions } = store.getState();
    assert.match(actions.applyCallFilters({ assistantId: '', phoneNumberId: '', from: 'last tuesday', to: '', id: '' }) ?? '', /^From date/);
    const a = (await api.listAssistants())[1];
    assert.equal(actions.applyCallFilters({ assistantId: a.id, phoneNumberId: '', from: '', to: '', id: '' }), null);
    await until(() => store.getState().callLog.status === 'ready', 'filtered page');
    const calls = store.getState().callLog.calls;
    assert.ok(calls.length > 0 && calls.every((c) => c.assistantId === a.id));
  });
});

describe('console store: the live refresh keeps the log whole', () => {
  let sb: Awaited<ReturnType<typeof startTestSandbox>>;
  let api: ReturnType<typeof createClient>;
  let store: ConsoleStore;
  before(async () => {
    sb = await startTestSandbox();
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url }, { initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    await until(() => store.getState().callLog.status === 'ready', 'first page');
  });
  after(async () => {
    store.getState().actions.dispose();
    await api.close();
    await sb.close();
  });

  /** Every call the service has, newest first, by walking its pages. */
  async function serviceLog(): Promise<string[]> {
    const ids: string[] = [];
    for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) for (const c of page) ids.push(c.id);
    return ids;
  }

  test('r while older calls are loading: "loading older" ends, and load more works again', async () => {
    const { actions } = store.getState();
    const more = actions.loadMoreCalls();
    assert.equal(store.getState().callLog.loadingMore, true);
    const reload = actions.loadCalls({ force: true });
    await Promise.all([more, reload]);
    assert.equal(store.getState().callLog.status, 'ready');
    assert.equal(store.getState().callLog.loadingMore, false, 'the stale load more does not leave "loading older…" on');
    const loaded = store.getState().callLog.calls.length;
    await store.getState().actions.loadMoreCalls();
    assert.ok(store.getState().callLog.calls.length > loaded, 'load more is not refused as already running');
  });

  test('5,000 calls arriving between two refreshes: the log stays a contiguous prefix of the service\'s', async () => {
    const newest = Date.parse(store.getState().callLog.calls[0].createdAt);
    const now = Date.now();
    // Created after the newest loaded call and before now (seedCalls ends each 15 minutes before its `now`).
    seedCalls(sb.dataDir, 5000, { now: now + 15 * 60_000, days: (now - newest - 1000) / 86_400_000 });
    await store.getState().actions.refreshCalls();
    const log = store.getState().callLog.calls.map((c) => c.id);
    const service = await serviceLog();
    assert.ok(log.length >= 5050, `every new call is loaded (${log.length})`);
    assert.deepEqual(log, service.slice(0, log.length), 'the loaded log is the newest calls of the service, none missing between');
  });
});
