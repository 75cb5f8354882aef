// The archive's sync in a worker thread (src/archive/worker.ts), against a real sandbox: the same
// sync as on the caller's thread (every call, progress as pages land), its client's --debug lines
// and errors brought back as the same kinds (a refused key still says `switchboard login`), its
// thread at a lower CPU priority than the caller's, and a worker terminated mid-sync leaves no
// lease behind for the next sync of this same process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { startFaultyServer } from '../support/faulty-server.js';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import { walkCallLog } from '../../src/api/pager.js';
import { AbortedError, ApiError, failure } from '../../src/api/errors.js';
import { openArchive, syncInWorker, type SyncProgress } from '../../src/archive/index.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { openSqlite } from '../../src/sqlite.js';

const leases = (path: string) => {
  const db = openSqlite(path, { readOnly: true });
  try {
    return db.prepare(`SELECT owner, pid FROM lease`).all() as { owner: string; pid: number }[];
  } finally {
    db.close();
  }
};

/** Each thread's nice value in this process (/proc/self/task/<tid>/stat, field 19). */
const niceValues = () => readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));

describe('the archive sync in a worker thread', () => {
  const sb = sandboxForFile();
  let dir: string;
  before(async () => {
    seedCalls(sb.dataDir, 3000);
    dir = mkdtempSync(join(tmpdir(), 'switchboard-worker-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("every call of the service, progress as pages land, its client's request lines (never the key)", async () => {
    const archive = openArchive(join(dir, 'all.db'), { service: 'test' });
    try {
      const progress: SyncProgress[] = [];
      const lines: string[] = [];
      const r = await syncInWorker(
        archive.path,
        { baseUrl: sb.url, apiKey: sb.apiKey },
        {
          pageSize: 500,
          onProgress: (p) => progress.push(p),
          debug: (l) => lines.push(l),
        },
      );
      const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
      let service = 0;
      for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) service += page.length;
      await api.close();
      assert.ok(r.complete, 'the whole history');
      assert.equal(r.added, archive.count(), 'what it says it added is what this thread reads');
      assert.equal(archive.count(), service, "every call of the service's");
      assert.ok(
        progress.some((p) => p.phase === 'backfill' && p.added > 0),
        'back-fill progress',
      );
      assert.equal(progress.at(-1)?.held, archive.count(), 'the calls held, as it last said');
      assert.ok(
        lines.some((l) => /^GET \/calls\/details\S* → 200/.test(l)),
        `request lines:\n${lines.slice(0, 3).join('\n')}`,
      );
      assert.ok(!lines.some((l) => l.includes(sb.apiKey)), 'never the key');
      assert.deepEqual(leases(archive.path), [], 'its lease released');
    } finally {
      archive.close();
    }
  });

  test('a refused key comes back as the same error: 401, and what to do', async () => {
    const archive = openArchive(join(dir, 'refused.db'), { service: 'test' });
    try {
      const err = await syncInWorker(archive.path, { baseUrl: sb.url, apiKey: 'sk-wrong-0000000000000000' }).then(
        () => assert.fail('a sync with a wrong key succeeded'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ApiError, `an ApiError, not ${String(err)}`);
      assert.equal(err.status, 401);
      assert.match(failure(err).message, /GET \/calls\/details failed \(401\)/);
      assert.equal(failure(err).kind, 'auth');
      assert.match(failure(err).hint ?? '', /switchboard login/);
    } finally {
      archive.close();
    }
  });

  test('a worker terminated mid-sync (its finally never ran) leaves no lease: the next sync of this process runs', async () => {
    const hung = await startFaultyServer({ mode: 'slow' });
    const archive = openArchive(join(dir, 'terminated.db'), { service: 'test' });
    try {
      const stop = new AbortController();
      const syncing = syncInWorker(archive.path, { baseUrl: hung.url, apiKey: 'sk-test-hung-000000000000' }, { signal: stop.signal, graceMs: 0 });
      // The lease is taken and a request is in flight that will never be answered.
      await until(() => hung.seen.some((s) => s.startsWith('GET /calls/details')), 'the worker asked for calls');
      assert.equal(leases(archive.path).length, 1, 'the worker holds the lease');
      assert.equal(leases(archive.path)[0].pid, process.pid, "this process's pid: it looks alive");
      // Meanwhile its thread yields the CPU to this one (on Linux, a thread's own nice value).
      if (process.platform === 'linux') assert.ok(niceValues().includes(10), `a thread at nice 10 (${niceValues().join(', ')})`);
      stop.abort();
      await assert.rejects(syncing, (e: unknown) => e instanceof AbortedError);
      assert.deepEqual(leases(archive.path), [], 'released by the thread that started it');
      // The next sync (on this thread, as the commands do) is not told another one holds the archive.
      const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
      try {
        const r = await archive.sync(api, { wait: false });
        assert.equal(r.busy, false, 'not busy');
        assert.ok(r.complete && archive.count() >= 3000);
      } finally {
        await api.close();
      }
    } finally {
      archive.close();
      await hung.close();
    }
  });
});
