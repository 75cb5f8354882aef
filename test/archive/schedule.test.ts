// The console's sync scheduling on its own (src/archive/schedule.ts), on the memory service and a
// real archive: one sync at a time, a caller during a sync waits for it, the rows are read again
// before a sync is said to be over, a recent whole archive syncs on the caller's thread and any
// other sync in the worker, and stop() ends it all and lets every waiter go on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openArchive, SyncScheduler, type CallArchive, type SyncStatus } from '../../src/archive/index.js';
import type { SyncHost } from '../../src/archive/schedule.js';
import { createMemoryApi } from '../support/memory-api.js';

function setUp(over: Partial<SyncHost> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-schedule-'));
  const archive: CallArchive = openArchive(join(dir, 'calls.db'), { service: 'memory' });
  const api = createMemoryApi();
  let status: SyncStatus = { running: false, complete: false };
  const log: string[] = [];
  const host: SyncHost = {
    archive: () => archive,
    api,
    inGap: (fn) => fn(),
    status: () => status,
    setStatus: (patch) => {
      if (patch.running !== undefined) log.push(patch.running ? 'start' : 'end');
      status = { ...status, ...patch };
    },
    reread: () => log.push('reread'),
    note: (text) => log.push(`note: ${text}`),
    ...over,
  };
  return {
    archive,
    api,
    log,
    host,
    status: () => status,
    set: (s: SyncStatus) => (status = s),
    done: () => {
      archive.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('one sync at a time; a caller while it runs waits for it; the rows are read before it is said to be over', async () => {
  const t = setUp();
  try {
    const s = new SyncScheduler(t.host);
    const first = s.sync();
    assert.equal(s.running, true);
    assert.equal(t.status().running, true);
    const second = s.sync();
    await Promise.all([first, second]);
    assert.equal(s.running, false);
    assert.equal(t.status().running, false);
    assert.equal(t.status().complete, true);
    assert.equal(t.status().error, undefined);
    assert.equal(t.archive.count(), t.api.records.calls.length);
    // Never two at once: each start is followed by its end, and the rows are read before each end.
    const marks = t.log.filter((l) => l !== 'reread');
    assert.ok(marks.length >= 2 && marks.length <= 4, marks.join(' '));
    marks.forEach((m, i) => assert.equal(m, i % 2 ? 'end' : 'start', marks.join(' ')));
    assert.equal(t.log[t.log.indexOf('end') - 1], 'reread', t.log.join(' '));
  } finally {
    t.done();
  }
});

test('a recent whole archive syncs on the caller’s thread; any other sync asks for the worker', async () => {
  let asked = 0;
  const t = setUp({
    worker: () => {
      asked++;
      return Promise.reject(new Error('no worker in this test'));
    },
  });
  try {
    const s = new SyncScheduler(t.host);
    await s.sync();
    assert.equal(asked, 1, 'the first sync of a console runs in the worker');
    assert.equal(t.status().running, false);
    assert.match(t.status().error ?? '', /no worker in this test/);
    assert.equal(t.log.at(-2), 'reread', 'the rows are read before the error is shown');

    t.set({ running: false, complete: true, lastAt: Date.now() - 1000 });
    await s.sync();
    assert.equal(asked, 1, 'synced a second ago and whole: no worker');
    assert.equal(t.status().error, undefined);
    assert.equal(t.archive.count(), t.api.records.calls.length);

    t.set({ running: false, complete: true, lastAt: Date.now() - 120_000 });
    await s.sync();
    assert.equal(asked, 2, 'two minutes since: the worker again');
  } finally {
    t.done();
  }
});

test('stop() ends the sync: nothing more is read or said, and every caller goes on', async () => {
  const t = setUp();
  try {
    const s = new SyncScheduler(t.host);
    const first = s.sync();
    const waiting = s.sync();
    s.stop();
    assert.equal(s.stopped, true);
    await Promise.all([first, waiting]);
    assert.equal(s.running, false);
    assert.deepEqual(t.log, ['start'], 'no re-read and no end after stop()');
  } finally {
    t.done();
  }
});
