// The console's archive sync runs in a worker thread (src/archive/worker.ts), so a back-fill never
// holds the console's thread: against a real sandbox in a process of its own (as the console's
// embedded one is), a first sync of 12,000 calls into an empty archive leaves the store's event
// loop free (its longest stall is measured), while its progress and the call log's rows follow
// the pages as they land; the live refresh that follows (nothing much new) needs no worker.
// Disposing the store (a quit) mid-sync leaves no lease behind: the next store's sync runs and
// the archive ends with every call once. A call read meanwhile does not wait for the sync's
// transaction. A refused key says what to do. A refresh while a sync runs waits for the calls
// placed before it, not for the sync: a back-fill catches up between two of its pages, and a sync
// past its walk for new calls is followed by another.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import { walkCallLog } from '../../src/api/pager.js';
import { createConsoleStore, type ConsoleStore, type SyncWorkerTarget } from '../../src/store/index.js';
import { spawnSandbox, type SandboxChild } from '../../src/sandbox/child.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { openSqlite } from '../../src/sqlite.js';
import { openArchive } from '../../src/archive/index.js';
import { startFaultyServer } from '../support/faulty-server.js';
import { ROUTES } from '../../src/ui/screens/routes.js';
import { builtSkip, CLI } from '../support/cli.js';

// The sandbox is the built program's child, as the console's is (`npm run build` first).
const skip = builtSkip();
// Enough for a back-fill to commit several batches (at most 5,000 calls or a second each) before it ends.
const SEEDED = 12_000;

type Api = ReturnType<typeof createClient>;

describe("the console's archive sync in a worker thread", { skip }, () => {
  let sb: SandboxChild;
  let dataDir: string;
  let api: Api;
  let total: number;
  const caches: string[] = [];
  const stores: ConsoleStore[] = [];
  /** Workers each store started (its syncWorker was asked for a target). */
  const workers = new Map<ConsoleStore, { n: number }>();

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
    sb = await spawnSandbox({ dataDir, entry: CLI, execArgv: [] });
    seedCalls(dataDir, SEEDED);
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    total = 0;
    for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) total += page.length;
  });
  after(async () => {
    for (const s of stores) s.getState().actions.dispose();
    await api.close();
    await sb.close();
    rmSync(dataDir, { recursive: true, force: true });
    for (const c of caches) rmSync(c, { recursive: true, force: true });
  });

  /** A console's store on the call log, its sync in a worker with `target` (the sandbox's by default). */
  function consoleStore(cacheDir: string, target: Partial<SyncWorkerTarget> = {}): ConsoleStore {
    const started = { n: 0 };
    const store = createConsoleStore(
      api,
      { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir },
      {
        routes: ROUTES,
        initialRoute: { name: 'calls' },
        pollMs: 3_600_000,
        syncWorker: async () => {
          started.n++;
          return { baseUrl: sb.url, apiKey: sb.apiKey, ...target };
        },
      },
    );
    store.getState().actions.resize(100, 30);
    stores.push(store);
    workers.set(store, started);
    return store;
  }
  const freshCache = () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
    caches.push(dir);
    return dir;
  };
  const synced = (store: ConsoleStore) =>
    until(() => !store.getState().archiveSync.running && store.getState().archiveSync.lastAt !== undefined, 'a finished sync');
  const archived = (cacheDir: string) => {
    const db = openSqlite(join(cacheDir, 'archive', 'sandbox.db'), { readOnly: true });
    try {
      const calls = db.prepare('SELECT count(*) AS n, count(DISTINCT id) AS ids FROM calls').get() as { n: number; ids: number };
      const leases = (db.prepare('SELECT count(*) AS n FROM lease').get() as { n: number }).n;
      return { ...calls, leases };
    } finally {
      db.close();
    }
  };

  test("a first sync of 12,000 calls never holds the store's thread; its progress and the rows follow the pages", async () => {
    const cacheDir = freshCache();
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const store = consoleStore(cacheDir);
    const totals: number[] = [];
    const phases = new Set<string>();
    const unsubscribe = store.subscribe((s) => {
      if (s.callLog.total !== totals.at(-1)) totals.push(s.callLog.total);
      if (s.archiveSync.phase) phases.add(s.archiveSync.phase);
    });
    try {
      await synced(store);
    } finally {
      delay.disable();
      unsubscribe();
    }
    const s = store.getState();
    const worst = delay.max / 1e6;
    console.log(
      `# longest stall of the store's thread during the sync: ${worst.toFixed(1)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms); totals ` +
        `seen: ${totals.join(', ')}`,
    );
    assert.equal(s.archiveSync.error, undefined);
    assert.ok(s.archiveSync.complete, 'the whole history');
    assert.equal(s.callLog.total, total, "every call of the service's");
    assert.deepEqual(archived(cacheDir), { n: total, ids: total, leases: 0 });
    assert.ok(phases.has('backfill'), 'it said it was fetching older calls');
    assert.ok(totals.filter((n) => n > 0 && n < total).length >= 2, `the rows were read again as pages landed (totals ${totals.join(', ')})`);
    // The outcome that keeps the store's thread free is that the sync ran in a worker; how long the
    // thread was held is a speed, and belongs to the bench (keys while the archive back-fills).
    assert.equal(workers.get(store)?.n, 1, 'in a worker');
    // The live refresh of a log just synced finds the calls of the last moments: no worker for that.
    await store.getState().actions.refreshCalls();
    assert.equal(workers.get(store)?.n, 1, 'the refresh ran on the store thread');
    assert.equal(store.getState().archiveSync.error, undefined);
  });

  test('a quit mid-sync leaves no lease: the next console syncs, and every call is archived once', async () => {
    const cacheDir = freshCache();
    const first = consoleStore(cacheDir);
    await until(() => first.getState().callLog.total > 0, 'the first pages');
    assert.ok(first.getState().archiveSync.running, 'still syncing');
    const syncing = first.getState().actions.syncArchive();
    first.getState().actions.dispose();
    // A stopped worker keeps no process alive (a quit is instant): this test waits for it to end.
    const alive = setInterval(() => undefined, 1000);
    await syncing.finally(() => clearInterval(alive));
    const partial = archived(cacheDir);
    assert.ok(partial.n < total, `stopped part way (${partial.n} of ${total})`);
    assert.equal(partial.leases, 0, 'no lease left behind');

    const second = consoleStore(cacheDir);
    await synced(second);
    assert.equal(second.getState().archiveSync.error, undefined);
    assert.equal(second.getState().callLog.total, total, 'every call');
    assert.deepEqual(archived(cacheDir), { n: total, ids: total, leases: 0 }, 'each once');
  });

  test("a call read while a sync's transaction holds the archive is shown at once, not after the transaction", async () => {
    const cacheDir = freshCache();
    const path = join(cacheDir, 'archive', 'sandbox.db');
    openArchive(path, { service: `sandbox:${sb.url}` }).close();
    const [call] = await api.callDetails({ limit: 1 });
    const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir }, { routes: ROUTES, pollMs: 3_600_000 });
    stores.push(store);
    // Another connection (a worker's sync) is in the middle of a write transaction.
    const writer = openSqlite(path);
    writer.exec('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      await store.getState().actions.loadCall(call.id);
      const ms = performance.now() - started;
      assert.equal(store.getState().records[`call:${call.id}`]?.status, 'ready');
      assert.ok(ms < 2000, `the call took ${ms.toFixed(0)} ms: its archive write waited for the lock`);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  test('a refused key: the sync says so and what to do, as before', async () => {
    const store = consoleStore(freshCache(), { apiKey: 'sk-wrong-0000000000000000' });
    await synced(store);
    const { error, hint } = store.getState().archiveSync;
    assert.match(error ?? '', /GET \/calls\/details failed \(401\)/);
    assert.match(hint ?? '', /switchboard login/);
  });

  /** Two outbound calls placed now, straight at the sandbox: their ids. */
  async function placeTwo(): Promise<string[]> {
    const [assistant] = await api.listAssistants();
    const [number] = await api.listPhoneNumbers();
    const ids: string[] = [];
    for (const n of ['+14155550181', '+14155550182'])
      ids.push((await api.placeOutboundCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: n } })).record!.id);
    total += ids.length;
    return ids;
  }
  const newest = (store: ConsoleStore, n: number) =>
    store
      .getState()
      .callLog.calls.slice(0, n)
      .map((c) => c.id)
      .sort();

  test('a refresh while the first back-fill runs brings the calls placed meanwhile between two pages, not when the back-fill ends', async () => {
    // Pages of history answered 250 ms late: the back-fill of 12,000 calls takes 3 s at least.
    const proxy = await startFaultyServer({
      mode: 'healthy',
      upstream: sb.url,
      holdAnswer: (_m, url) => (url.startsWith('/calls/details') && !url.includes('createdAtGt') ? 250 : 0),
    });
    try {
      const cacheDir = freshCache();
      const store = consoleStore(cacheDir, { baseUrl: proxy.url });
      await until(() => store.getState().archiveSync.phase === 'backfill' && store.getState().callLog.total > 0, 'the back-fill under way');
      const placed = await placeTwo();
      await store.getState().actions.refreshCalls();
      assert.deepEqual(newest(store, 2), placed.sort(), 'the two new calls head the log');
      assert.ok(
        store.getState().archiveSync.running && store.getState().callLog.total < total,
        `the back-fill still runs (${store.getState().callLog.total} of ${total})`,
      );
      await synced(store);
      assert.equal(store.getState().archiveSync.error, undefined);
      assert.deepEqual(archived(cacheDir), { n: total, ids: total, leases: 0 }, 'every call once');
      assert.equal(workers.get(store)?.n, 1, 'caught up in the same worker');
    } finally {
      await proxy.close();
    }
  });

  test('a refresh while a sync is past its walk for new calls runs one more sync after it, and waits for that', async () => {
    const cacheDir = freshCache();
    const first = consoleStore(cacheDir);
    await synced(first);
    first.getState().actions.dispose();
    // The walk for new calls is answered 300 ms late: the sync has read the log before the calls are placed.
    const proxy = await startFaultyServer({ mode: 'healthy', upstream: sb.url, holdAnswer: (_m, url) => (url.includes('createdAtGt') ? 300 : 0) });
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: sb.apiKey });
    // The sandbox's archive (its identity is the target's URL), the requests through the proxy.
    const store = createConsoleStore(
      viaProxy,
      { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir },
      { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000 },
    );
    stores.push(store);
    try {
      await until(() => proxy.answered.some((r) => r.includes('createdAtGt')), 'the first sync has its answer');
      const placed = await placeTwo();
      await store.getState().actions.refreshCalls();
      assert.deepEqual(newest(store, 2), placed.sort(), 'the two new calls head the log');
      assert.equal(proxy.seen.filter((r) => r.includes('createdAtGt')).length, 2, 'two walks for new calls: the running sync, then one more');
      assert.ok(!proxy.seen.some((r) => /calls\/details\?limit=\d+&createdAtLt=/.test(r)), 'no history walked: the archive was whole');
      await synced(store);
      assert.deepEqual(archived(cacheDir), { n: total, ids: total, leases: 0 });
    } finally {
      store.getState().actions.dispose();
      await viaProxy.close();
      await proxy.close();
    }
  });

  test('while keys come, the rows are read again in the gaps just after keys, not at random moments in front of one', async () => {
    // History answered 400 ms late: a back-fill of several seconds, its batches committed every second or so.
    const proxy = await startFaultyServer({
      mode: 'healthy',
      upstream: sb.url,
      holdAnswer: (_m, url) => (url.startsWith('/calls/details') && !url.includes('createdAtGt') ? 400 : 0),
    });
    try {
      const store = consoleStore(freshCache(), { baseUrl: proxy.url });
      await until(() => store.getState().archiveSync.phase === 'backfill' && store.getState().callLog.total > 0, 'the back-fill under way');
      // A held j: the dispatcher says a key was drawn every 50 ms. What the store does in the gap
      // after a key runs in the immediate keyHandled queues, before this test's own immediate, so
      // `when` tells (by the event loop's order, not by a clock) whether a re-read came there.
      let when: 'no key yet' | 'right after a key' | 'elsewhere' = 'no key yet';
      const seen: string[] = [];
      const unsubscribe = store.subscribe((s, prev) => {
        if (s.callLog.total !== prev.callLog.total && when !== 'no key yet') seen.push(when);
      });
      const keys = setInterval(() => {
        when = 'right after a key';
        store.getState().actions.keyHandled();
        setImmediate(() => (when = 'elsewhere'));
      }, 50);
      try {
        await until(() => seen.length >= 4 || !store.getState().archiveSync.running, 'four re-reads');
      } finally {
        clearInterval(keys);
        unsubscribe();
      }
      assert.ok(seen.length >= 3, `the rows followed the pages (${seen.join(', ')})`);
      assert.deepEqual(
        seen,
        seen.map(() => 'right after a key'),
        'each re-read came in the gap right after a key',
      );
      await synced(store);
    } finally {
      await proxy.close();
    }
  });
});
