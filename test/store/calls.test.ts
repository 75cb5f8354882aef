// The call log on the archive, against a real sandbox: it opens from the archive and syncs in
// the background; the store holds a window of rows around the cursor, not the log; g/G reach
// either end at once; the cursor follows its call when calls arrive above it; a refresh is
// gap-free whatever arrived; `r` during a background sync does not start a second one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleState, type ConsoleStore, type Route } from '../../src/store/index.js';
import { walkCallLog } from '../../src/api/pager.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import type { Call } from '../../src/api/schemas.js';
import { ROUTES, specOf } from '../../src/ui/screens/routes.js';

type Api = ReturnType<typeof createClient>;

/** Every call the service has, newest first, by walking its pages. */
async function serviceLog(api: Api, filters = {}): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of walkCallLog(api, filters, { pageSize: 1000 })) for (const c of page) ids.push(c.id);
  return ids;
}

/** Moves the call log's cursor (as its keys do) and returns the call under it. */
function cursorTo(store: ConsoleStore, index: number): Call | undefined {
  store.getState().actions.setCursor(index, store.getState().callLog.total, 20);
  const log = store.getState().callLog;
  return log.calls[store.getState().views.calls.cursor - log.from];
}

/** The whole log as the store shows it, read window by window (as paging down the screen would). */
function wholeLog(store: ConsoleStore): Call[] {
  const calls: Call[] = [];
  const total = store.getState().callLog.total;
  for (let i = 0; i < total; i += 20) {
    cursorTo(store, i);
    const log = store.getState().callLog;
    for (let j = i; j < Math.min(total, i + 20); j++) calls.push(log.calls[j - log.from]);
  }
  return calls;
}

/** The store's log holds exactly the service's calls, newest first (calls created in the same millisecond may come in either order). */
async function sameAsService(store: ConsoleStore, api: Api): Promise<void> {
  const service = await serviceLog(api);
  const log = wholeLog(store);
  assert.equal(log.length, service.length, 'as many calls as the service has');
  assert.deepEqual(new Set(log.map((c) => c.id)), new Set(service), 'the same calls, none missing, none twice');
  assert.equal(new Set(log.map((c) => c.id)).size, log.length, 'no call twice');
  assert.ok(
    log.every((c, i) => i === 0 || Date.parse(log[i - 1].createdAt) >= Date.parse(c.createdAt)),
    'newest first',
  );
}

/** Seeds `n` calls the service creates after the newest call the store has archived (a sync reads new calls from there on). */
function seedNewer(store: ConsoleStore, dataDir: string, n: number): void {
  store.getState().actions.setCursor(0, store.getState().callLog.total, 20);
  const newest = Date.parse(store.getState().callLog.calls[0].createdAt);
  const now = Date.now();
  // seedCalls ends each 15 minutes before its `now`.
  seedCalls(dataDir, n, { now: now + 15 * 60_000, days: (now - newest - 1000) / 86_400_000 });
}

const synced = (store: ConsoleStore) =>
  until(
    () => store.getState().callLog.status === 'ready' && !store.getState().archiveSync.running && store.getState().archiveSync.lastAt !== undefined,
    'a finished sync',
  );

describe('console store: the call log on the archive', () => {
  // A placed call's timeline at 100 ms a simulated second: it ends within about a second of refreshes, not eleven.
  const sb = sandboxForFile({ callPace: 100 });
  let api: Api;
  let store: ConsoleStore;
  before(async () => {
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: sb.url };
    store = createConsoleStore(api, target, { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    store.getState().actions.resize(100, 30);
  });
  after(async () => {
    store.getState().actions.dispose();
    await api.close();
  });

  test('after the first sync: every call of the service, newest first, no call twice', async () => {
    await synced(store);
    await sameAsService(store, api);
    assert.ok(store.getState().archiveSync.complete, 'the whole history is archived');
  });

  test('6,000 more calls: the store holds a window, not the log; G and g reach either end at once', async () => {
    seedNewer(store, sb.dataDir, 6000);
    await store.getState().actions.loadCalls({ force: true });
    await synced(store);
    const service = await serviceLog(api);
    const log = store.getState().callLog;
    assert.equal(log.total, service.length);
    assert.ok(log.calls.length <= 3 * 30, `a window of rows (${log.calls.length}), not ${log.total}`);
    // Each read is a new rows array (a listener may be told of one twice when sets nest).
    const seen = new Set([log.calls]);
    const stop = store.subscribe((s) => void seen.add(s.callLog.calls));
    const readsSoFar = () => seen.size - 1;
    try {
      assert.equal(cursorTo(store, log.total - 1)?.createdAt, service.at(-1) && (await api.getCall(service.at(-1)!)).createdAt, 'G: the oldest call');
      assert.equal(readsSoFar(), 1, 'one read');
      assert.equal(cursorTo(store, 0)?.id, service[0], 'g: the newest call');
      assert.equal(cursorTo(store, 3000)?.id, service[3000], 'the middle');
      assert.equal(cursorTo(store, 3001)?.id, service[3001], 'j inside the window reads nothing');
      assert.equal(readsSoFar(), 3);
    } finally {
      stop();
    }
    await store.getState().actions.refreshCalls();
    const quiet = store.getState().callLog;
    await store.getState().actions.refreshCalls();
    assert.equal(store.getState().callLog.calls, quiet.calls, 'a refresh that finds nothing new leaves the rows as they were (no redraw)');
  });

  test('j and k one at a time: the next rows are read in the gap after a key, never by the key that reaches them; rows held stay', async () => {
    const service = await serviceLog(api);
    cursorTo(store, 3000);
    const body = Math.max(1, store.getState().rows);
    let ahead = 0;
    const missed: number[] = [];
    const renewed = new Set<number>();
    // A read whose screen the rows held before it already covered is one read ahead; any other was a key waiting on the archive.
    const stop = store.subscribe((s, prev) => {
      if (s.callLog.calls === prev.callLog.calls) return;
      const scroll = s.views.calls.scroll;
      const [was, now] = [prev.callLog, s.callLog];
      if (was.from <= scroll && scroll + body <= was.from + was.calls.length) ahead++;
      else missed.push(s.views.calls.cursor);
      // The rows both windows hold are the same objects: the table formats none of them again.
      for (let p = Math.max(was.from, now.from); p < Math.min(was.from + was.calls.length, now.from + now.calls.length); p++)
        if (was.calls[p - was.from] !== now.calls[p - now.from]) renewed.add(p);
    });
    try {
      for (const i of [...Array.from({ length: 150 }, (_, k) => 3001 + k), ...Array.from({ length: 300 }, (_, k) => 3149 - k)]) {
        assert.equal(cursorTo(store, i)?.id, service[i], `the call at ${i}`);
        // The key is drawn: work waiting for the gap runs now, before the next key.
        store.getState().actions.keyHandled();
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      stop();
    }
    assert.deepEqual(missed, [], 'no key waited for a window');
    assert.equal(renewed.size, 0, 'no row held was read again');
    assert.ok(ahead >= 4, `windows read ahead (${ahead})`);
  });

  test('a placed call joins the log; refresh follows its status; only the top view polls', async () => {
    const callPoller = (r: Route, st: ConsoleState) => specOf(r).poll?.(r, st) ?? null;
    const s = store.getState();
    cursorTo(store, 0);
    const assistant = (await api.listAssistants())[0];
    const number = (await api.listPhoneNumbers())[0];
    const call = await s.actions.placeCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550123' } });
    assert.ok(call);
    store.getState().actions.setCursor(0, store.getState().callLog.total, 20);
    assert.equal(store.getState().callLog.calls[0].id, call!.record!.id);
    assert.notEqual(store.getState().callLog.calls[0].status, 'ended', 'placed, not yet ended: the refreshes below must bring the change');
    assert.ok(callPoller({ name: 'calls' }, store.getState()), 'the call log polls while on top and live');
    s.actions.toggleLive();
    assert.equal(callPoller({ name: 'calls' }, store.getState()), null, 'paused');
    s.actions.toggleLive();
    assert.equal(callPoller({ name: 'files' }, store.getState()), null);
    for (let i = 0; i < 200; i++) {
      await store.getState().actions.refreshCalls();
      if (store.getState().callLog.calls.find((c) => c.id === call!.record!.id)?.status === 'ended') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(store.getState().callLog.calls.find((c) => c.id === call!.record!.id)?.status, 'ended');
  });

  test('filters: a bad date is refused with the field named; a good one shows only its calls, all of them', async () => {
    const { actions } = store.getState();
    assert.match(actions.applyCallFilters({ assistantId: '', phoneNumberId: '', from: 'last tuesday', to: '', id: '' }) ?? '', /^From date/);
    const a = (await api.listAssistants())[1];
    assert.equal(actions.applyCallFilters({ assistantId: a.id, phoneNumberId: '', from: '', to: '', id: '' }), null);
    const calls = store.getState().callLog.calls;
    assert.ok(calls.length > 0 && calls.every((c) => c.assistantId === a.id));
    assert.equal(store.getState().callLog.total, (await serviceLog(api, { assistantId: a.id })).length);
    actions.applyCallFilters({ assistantId: '', phoneNumberId: '', from: '', to: '', id: '' });
  });
});

describe('console store: the live refresh on the archive', () => {
  const sb = sandboxForFile();
  let api: Api;
  let store: ConsoleStore;
  before(async () => {
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: sb.url };
    store = createConsoleStore(api, target, { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    store.getState().actions.resize(100, 30);
    await synced(store);
  });
  after(async () => {
    store.getState().actions.dispose();
    await api.close();
  });

  test('r while a sync runs: no second sync, and the log is whole when it ends', async () => {
    const { actions } = store.getState();
    seedNewer(store, sb.dataDir, 3000);
    const first = actions.refreshCalls();
    assert.equal(store.getState().archiveSync.running, true);
    const again = actions.loadCalls({ force: true });
    await Promise.all([first, again]);
    assert.equal(store.getState().archiveSync.running, false, 'the status line does not stay on "syncing…"');
    await sameAsService(store, api);
  });

  test('calls arriving above the cursor: it stays on its call', async () => {
    const chosen = cursorTo(store, 3)!;
    const [assistant] = await api.listAssistants();
    const [number] = await api.listPhoneNumbers();
    for (const n of ['+14155550101', '+14155550102'])
      await api.placeOutboundCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: n } });
    await store.getState().actions.refreshCalls();
    const view = store.getState().views.calls;
    assert.equal(view.cursor, 5, 'two calls came in above it');
    const log = store.getState().callLog;
    assert.equal(log.calls[view.cursor - log.from].id, chosen.id);
  });

  test("5,000 calls arriving while the console is on another screen: back on the log, it is the service's, none missing between", async () => {
    const { actions } = store.getState();
    const before = store.getState().callLog.total;
    seedNewer(store, sb.dataDir, 5000);
    actions.goTo({ name: 'files' });
    const back = performance.now();
    actions.goTo({ name: 'calls' });
    await until(() => store.getState().callLog.total >= before + 5000 && !store.getState().archiveSync.running, 'the new calls are in');
    const ms = performance.now() - back;
    await sameAsService(store, api);
    console.log(`# 5,000 new calls synced into the archive in ${Math.round(ms)} ms (${store.getState().callLog.total} archived, whole)`);
  });
});
