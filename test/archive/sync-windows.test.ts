// The back-fill in parallel time windows, against the hosted fixture: every call archived exactly
// once whatever the service's bounds (strict or inclusive), with runs of equal creation times on
// the windows' and the pages' edges, under a rate limit and a storm of 429s, and across kill -9s
// of a real child process at random points of the back-fill.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { builtSkip, runCli, tempHome } from '../support/cli.js';
import { fixturesForFile, type HostedFixture } from '../support/hosted-fixture.js';
import { helperArgs } from '../support/child-sandbox.js';
import { createConsoleStore } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';
import { until } from '../support/wait.js';

const fixture = fixturesForFile();

function tempArchive(fx: HostedFixture): { archive: CallArchive; path: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-windows-'));
  const path = join(dir, 'archive.db');
  const archive = openArchive(path, { service: `hosted:${fx.url}` });
  return { archive, path, done: () => (archive.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** Runs of `run` calls sharing one instant, 1 ms apart: any millisecond a window is cut at is an edge between two runs. */
function tiesEverywhere(fx: HostedFixture, run: number): void {
  const top = Date.parse(fx.calls[0].createdAt as string);
  fx.calls.forEach((c, i) => (c.createdAt = new Date(top - Math.floor(i / run)).toISOString()));
}

/** Every id of the fixture, held once, and the sync's own count says each was added once. */
function assertExactlyOnce(fx: HostedFixture, archive: CallArchive): void {
  const held = archive.window({}, { limit: 1_000_000 }).map((r) => r.call.id);
  assert.equal(new Set(held).size, held.length, 'no call held twice');
  assert.deepEqual(new Set(held), new Set(fx.calls.map((c) => c.id as string)));
}

describe('the back-fill in windows', () => {
  for (const dateFilters of ['vapi', 'inclusive'] as const) {
    for (const spread of ['spaced', 'ties'] as const) {
      const shape = spread === 'ties' ? 'runs of equal times on every edge' : 'calls minutes apart';
      test(`${dateFilters} bounds, ${shape}: every call once, pages in parallel`, async () => {
        const fx = await fixture({ calls: 3000, pageCap: 'silent', pageCapSize: 100, dateFilters, latencyMs: 5 });
        if (spread === 'ties') tiesEverywhere(fx, 7);
        const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
        const t = tempArchive(fx);
        try {
          const r = await t.archive.sync(api, { concurrency: 8 });
          assert.equal(r.complete, true);
          assert.equal(r.added, 3000);
          assert.equal(r.updated, 0, 'no call read by two windows');
          assert.ok(fx.inFlightMax >= 2, `the service saw ${fx.inFlightMax} requests at once`);
          assert.ok(fx.inFlightMax <= 8, `the ceiling is 8, the service saw ${fx.inFlightMax}`);
          assertExactlyOnce(fx, t.archive);
          const again = await t.archive.sync(api);
          assert.equal(again.added + again.updated, 0);
        } finally {
          t.done();
          await api.close();
        }
      });
    }
  }

  test('a rate limit of 10 requests a second (429 with Retry-After, no headers): every call once, no request refused twice in a row', async () => {
    const fx = await fixture({ calls: 1500, pageCap: 'silent', pageCapSize: 100, latencyMs: 20, rateLimit: { perSecond: 10, headers: false } });
    const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
    const t = tempArchive(fx);
    try {
      const r = await t.archive.sync(api, { concurrency: 16 });
      assert.equal(r.complete, true);
      assert.equal(r.added, 1500);
      assertExactlyOnce(fx, t.archive);
      assert.ok(
        fx.callPages.some((p) => p.status === 429),
        'the limit was reached',
      );
      const last = new Map<string, number>();
      for (const p of fx.callPages) {
        assert.ok(!(p.status === 429 && last.get(p.query) === 429), `${p.query} refused twice in a row`);
        last.set(p.query, p.status);
      }
    } finally {
      t.done();
      await api.close();
    }
  });

  test('X-RateLimit headers cap the pace: the service refuses next to nothing', async () => {
    const fx = await fixture({ calls: 1500, pageCap: 'silent', pageCapSize: 100, latencyMs: 20, rateLimit: { perSecond: 10, headers: true } });
    const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
    const t = tempArchive(fx);
    try {
      const r = await t.archive.sync(api, { concurrency: 16 });
      assert.equal(r.added, 1500);
      assertExactlyOnce(fx, t.archive);
      const refused = fx.callPages.filter((p) => p.status === 429).length;
      assert.ok(refused <= 2, `${refused} refused`);
    } finally {
      t.done();
      await api.close();
    }
  });

  test('a service answering 429 to everything: the sync ends with one clear error after a bounded number of requests, then resumes', async () => {
    const fx = await fixture({ calls: 1500, pageCap: 'silent', pageCapSize: 100 });
    const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey, retries: 0 });
    const t = tempArchive(fx);
    try {
      const before = fx.callPages.length;
      fx.faults.push({ path: /^\/calls/, status: 429, message: 'Too many requests' });
      await assert.rejects(t.archive.sync(api, { concurrency: 16 }), (err: Error) => {
        assert.match(err.message, /429 \(too many requests\).*run it again later/);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
      const sent = fx.callPages.length - before;
      assert.ok(sent <= 12, `${sent} requests sent into the storm`);
      fx.faults.splice(0);
      const r = await t.archive.sync(api);
      assert.equal(r.complete, true);
      assertExactlyOnce(fx, t.archive);
    } finally {
      t.done();
      await api.close();
    }
  });

  for (const dateFilters of ['vapi', 'inclusive'] as const) {
    test(`kill -9 at random points of the back-fill (${dateFilters} bounds, ties on the edges): resumed, every call once`, async () => {
      const fx = await fixture({ calls: 4000, pageCap: 'silent', pageCapSize: 100, dateFilters, latencyMs: 15 });
      tiesEverywhere(fx, 3);
      const t = tempArchive(fx);
      t.archive.close();
      try {
        let finished = false;
        for (let round = 0; round < 6 && !finished; round++) {
          const child = spawn(process.execPath, [...helperArgs('sync-child'), fx.url, fx.apiKey, t.path, '8'], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
          // A random number of pages answered after this run's start, then the kill.
          const start = fx.callPages.length;
          const at = 3 + Math.floor(Math.random() * 12);
          while (fx.callPages.length - start < at && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
          child.kill('SIGKILL');
          await exited;
          finished = out.includes('done ');
        }
        const archive = openArchive(t.path, { service: `hosted:${fx.url}` });
        try {
          const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
          const r = await archive.sync(api);
          await api.close();
          assert.equal(r.complete, true);
          assertExactlyOnce(fx, archive);
        } finally {
          archive.close();
        }
      } finally {
        rmSync(join(t.path, '..'), { recursive: true, force: true });
      }
    });
  }
});

/** Marks calls `from` … `to` (indexes, newest first) in progress, or ended again (their records restored, with a new summary). */
function setUnfinished(fx: HostedFixture, groups: [number, number][], unfinished: boolean, kept: Map<string, Record<string, unknown>>): string[] {
  const ids: string[] = [];
  for (const [from, to] of groups)
    for (let i = from; i <= to; i++) {
      const c = fx.calls[i];
      ids.push(c.id as string);
      if (unfinished) {
        kept.set(c.id as string, { ...c });
        c.status = 'in-progress';
        delete c.endedAt;
        delete c.endedReason;
      } else {
        Object.assign(c, kept.get(c.id as string), { analysis: { summary: `ended after the first sync ${i}` } });
      }
    }
  return ids;
}

describe("the console's sync, in its worker thread", () => {
  // The console reads the profile's syncConcurrency as the commands do (src/ui/run.tsx gives it to the worker).
  test("keeps to the profile's ceiling of history requests in flight", async () => {
    const fx = await fixture({ calls: 1500, pageCap: 'silent', pageCapSize: 100, latencyMs: 20 });
    const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
    const cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-console-sync-'));
    // The profile's ceiling reaches the store as the console's run.tsx hands it over: with the worker's target.
    const worker = async () => ({ baseUrl: fx.url, apiKey: fx.apiKey, concurrency: 1 });
    const target = { kind: 'remote', profile: 'far', baseUrl: fx.url, cacheDir } as const;
    const store = createConsoleStore(api, target, { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000, syncWorker: worker });
    try {
      store.getState().actions.resize(100, 30);
      await until(() => store.getState().archiveSync.complete && !store.getState().archiveSync.running, 'the whole history archived');
      // One history request at a time, beside at most one other (the new calls' walk, the screen's own read);
      // without the setting the default ceiling keeps 6 to 8 in flight here.
      assert.ok(fx.inFlightMax <= 2, `the service saw ${fx.inFlightMax} requests at once`);
    } finally {
      store.getState().actions.dispose();
      await api.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('unfinished calls read again in few requests', () => {
  // Three stretches of unfinished calls: one of two pages, two of one; their first and last calls
  // share their instants with ended calls just outside them, and a page edge falls inside a run of ties.
  const groups: [number, number][] = [
    [300, 449],
    [1500, 1529],
    [2600, 2639],
  ];
  const tieEdges = (fx: HostedFixture) => {
    for (const [from, to] of groups) {
      fx.calls[from - 1].createdAt = fx.calls[from].createdAt;
      fx.calls[to + 1].createdAt = fx.calls[to].createdAt;
    }
    for (let i = 398; i <= 402; i++) fx.calls[i].createdAt = fx.calls[398].createdAt;
  };
  for (const dateFilters of ['vapi', 'inclusive'] as const) {
    test(`${dateFilters} bounds, ties on the stretches' edges: each read through its stretch, every one updated once`, async () => {
      const fx = await fixture({ calls: 3000, pageCap: 'silent', pageCapSize: 100, dateFilters, latencyMs: 2 });
      tieEdges(fx);
      fx.calls[0].status = 'ended';
      fx.calls[0].endedAt = fx.calls[0].startedAt;
      const kept = new Map<string, Record<string, unknown>>();
      const ids = setUnfinished(fx, groups, true, kept);
      const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
      const t = tempArchive(fx);
      try {
        const first = await t.archive.sync(api, { concurrency: 8 });
        assert.equal(first.added, 3000);
        assert.equal(t.archive.window({ status: 'in-progress' }, { limit: 10_000 }).length, ids.length);
        setUnfinished(fx, groups, false, kept);
        // The calls just outside each stretch changed too: only the unfinished are read again.
        for (const [from, to] of groups) for (const i of [from - 1, to + 1]) fx.calls[i].analysis = { summary: 'changed, not unfinished' };
        // One the service no longer has: not in its stretch, so asked for alone, and removed.
        const [gone] = fx.calls.splice(1510, 1);
        const before = fx.requests.length;
        const r = await t.archive.sync(api);
        const sent = fx.requests.slice(before).filter((q) => q.path.startsWith('/calls'));
        // One call read alone: GET /calls/{id}, or the service's list filtered to its id.
        const byId = sent.filter((q) => q.query.id !== undefined || /^\/calls\/(?!details$)[^/]+$/.test(q.path));
        assert.deepEqual(
          byId.map((q) => q.query.id ?? q.path),
          [gone.id],
          `${byId.length} calls read one by one`,
        );
        // The new calls' page, a page or two for each stretch, the one asked for alone.
        assert.ok(sent.length <= 9, `${sent.length} requests for ${ids.length} unfinished calls`);
        assert.equal(r.updated, ids.length - 1, 'every unfinished call updated once, no other call');
        assert.equal(r.removed, 1);
        assert.equal(r.added, 0);
        assert.equal(t.archive.window({ status: 'in-progress' }, { limit: 10_000 }).length, 0);
        for (const id of ids) if (id !== gone.id) assert.match(String(t.archive.get(id)?.analysis?.summary), /^ended after the first sync/);
        assertExactlyOnce(fx, t.archive);
      } finally {
        t.done();
        await api.close();
      }
    });
  }

  test('a service that ignores the date filters: read one by one, and one it no longer has is removed', async () => {
    const fx = await fixture({ calls: 80, dateFilters: 'ignored' });
    const kept = new Map<string, Record<string, unknown>>();
    const ids = setUnfinished(fx, [[10, 29]], true, kept);
    const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey });
    const t = tempArchive(fx);
    try {
      await t.archive.sync(api);
      setUnfinished(fx, [[10, 29]], false, kept);
      fx.calls.splice(29, 1);
      const before = fx.requests.length;
      const r = await t.archive.sync(api);
      const byId = fx.requests.slice(before).filter((q) => q.query.id !== undefined || /^\/calls\/(?!details$)[^/]+$/.test(q.path));
      // (The newest call, in progress in the seed too, came with the new calls' page.)
      assert.equal(byId.length, ids.length);
      assert.equal(r.updated, ids.length - 1);
      assert.equal(r.removed, 1);
    } finally {
      t.done();
      await api.close();
    }
  });
});

describe('commands while the history is not complete (built CLI)', { skip: builtSkip() }, () => {
  test('calls stats waits for new calls only and says what the archive covers; --complete waits for all; archive sync -o json gives figures', async () => {
    const fx = await fixture({ calls: 1200, pageCap: 'silent', pageCapSize: 100, latencyMs: 5 });
    const home = tempHome();
    try {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
      const partial = await runCli(['calls', 'stats', '-o', 'json'], { env });
      assert.equal(partial.code, 0, partial.stderr);
      assert.match(partial.stderr, /note: history back to 2026-11-\d\d(, about \d+% of the log)?; --complete waits for all of it/);
      const calls = (rows: string) => (JSON.parse(rows) as { calls: number }[]).reduce((sum, r) => sum + r.calls, 0);
      assert.ok((calls(partial.stdout) ?? 0) < 1200, partial.stdout);
      const whole = await runCli(['calls', 'stats', '--complete', '-o', 'json'], { env });
      assert.equal(whole.code, 0, whole.stderr);
      assert.doesNotMatch(whole.stderr, /history back to/);
      assert.equal(calls(whole.stdout), 1200);
      const sync = await runCli(['archive', 'sync', '--concurrency', '4', '-o', 'json'], { env });
      const r = JSON.parse(sync.stdout) as { complete: boolean; held: number; callsPerSecond: number; etaSeconds: number };
      assert.equal(r.complete, true);
      assert.equal(r.held, 1200);
      assert.equal(r.etaSeconds, 0);
      assert.equal(typeof r.callsPerSecond, 'number');
    } finally {
      home.cleanup();
    }
  });
});
