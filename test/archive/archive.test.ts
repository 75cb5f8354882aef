// The archive's API as the console uses it (src/archive/index.ts), in process, synced from a real
// sandbox over HTTP: windows and keyset pages agree with each other and with the service's order,
// reads while another handle writes, a snippet's hit parts, clear and a change
// of service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { walkCallLog } from '../../src/api/pager.js';
import { openArchive, type CallArchive, type SyncProgress } from '../../src/archive/index.js';
import { openArchiveDb } from '../../src/archive/schema.js';
import { syncArchive } from '../../src/archive/sync.js';
import { CallWriter } from '../../src/archive/write.js';
import type { Call } from '../../src/api/schemas.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';
import { sandboxForFile } from '../support/sandbox.js';

const sb = sandboxForFile();
let api: VoiceAgentApi;
let dir: string;
let archive: CallArchive;
let serviceIds: string[];

before(async () => {
  await sb.started;
  api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  dir = mkdtempSync(join(tmpdir(), 'switchboard-archive-'));
  archive = openArchive(join(dir, 'cache', 'archive', 'test.db'), { service: 'sandbox:a' });
  serviceIds = [];
  for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) serviceIds.push(...page.map((c) => c.id));
});

after(async () => {
  archive.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the archive API', () => {
  test('a first sync reports progress and holds the whole log, in the service order; files are 0700/0600', async () => {
    const seen: SyncProgress[] = [];
    const r = await archive.sync(api, { onProgress: (p) => seen.push(p), pageSize: 100 });
    assert.equal(r.added, serviceIds.length);
    assert.ok(r.complete);
    assert.ok(seen.some((p) => p.phase === 'backfill' && p.held > 0));
    assert.equal(archive.count(), serviceIds.length);
    assert.deepEqual(
      archive.window({}, { limit: 100_000 }).map((r) => r.call.id),
      serviceIds,
    );
    assert.equal(statSync(archive.path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'cache', 'archive')).mode & 0o777, 0o700);
    // A new file gets 16 KiB pages (a record left much of a 4 KiB page unused).
    const raw = openSqlite(archive.path, { readOnly: true });
    try {
      assert.equal(pragmaValue(raw, 'page_size'), 16_384);
    } finally {
      raw.close();
    }
    const again = await archive.sync(api);
    assert.deepEqual([again.added, again.updated], [0, 0]);
    assert.ok(archive.lastSync()?.at);
  });

  test('a count on time alone (read from the quarter-hour rollup) is the number of calls in the window, at any bounds', () => {
    const all = archive.window({}, { limit: 100_000 });
    assert.equal(archive.count({}), all.length);
    const times = all.map((r) => Date.parse(r.call.createdAt));
    // Bounds on a call, a millisecond either side of one, on quarter hours, and spanning none.
    const picks = [0, 3, all.length >> 2, all.length >> 1, all.length - 2].map((i) => times[i]);
    const quarter = Math.floor(times[all.length >> 1] / 900_000) * 900_000;
    const bounds = [...picks, ...picks.map((t) => t - 1), ...picks.map((t) => t + 1), quarter, quarter - 1, quarter + 900_000];
    const inWindow = (after?: number, before?: number) =>
      times.filter((t) => (after === undefined || t >= after) && (before === undefined || t <= before)).length;
    for (const after of [undefined, ...bounds]) {
      for (const before of [undefined, ...bounds]) {
        if (after !== undefined && before !== undefined && before < after - 900_000) continue;
        assert.equal(archive.count({ after, before }), inWindow(after, before), `after ${after}, before ${before}`);
      }
    }
    assert.equal(archive.count({ after: new Date(picks[2]).toISOString() }), inWindow(picks[2]), 'ISO bounds too');
  });

  test('window by offset, keyset pages both ways and indexOf agree', () => {
    const all = archive.window({}, { limit: 100_000 });
    assert.deepEqual(archive.window({}, { offset: 10, limit: 5 }), all.slice(10, 15));
    const older = archive.page({}, all[9].position, { limit: 5 });
    assert.deepEqual(older, all.slice(10, 15));
    const newer = archive.page({}, all[15].position, { limit: 5, direction: 'newer' });
    assert.deepEqual(newer, all.slice(10, 15));
    assert.equal(archive.indexOf({}, all[42].position), 42);
    // A filtered window is the filtered list.
    const assistant = all[0].call.assistantId!;
    const mine = archive.window({ assistantId: assistant }, { limit: 100_000 });
    assert.deepEqual(
      mine,
      all.filter((r) => r.call.assistantId === assistant),
    );
    assert.equal(archive.count({ assistantId: assistant }), mine.length);
    // Dates: inclusive bounds, ISO or ms.
    const at = all[20].call.createdAt;
    assert.ok(archive.window({ after: at }, { limit: 100_000 }).every((r) => r.call.createdAt >= at));
    assert.ok(archive.window({ before: Date.parse(at) }, { limit: 100_000 }).some((r) => r.call.id === all[20].call.id));
  });

  test("the call log's orders: windows sorted by duration, cost, status or creation (calls without a value last), and indexOf agrees", () => {
    const all = archive.window({}, { limit: 100_000 });
    type By = 'created' | 'duration' | 'cost' | 'status';
    const valueOf = (r: (typeof all)[number], by: By) =>
      by === 'created' ? r.position : by === 'duration' ? r.call.durationSeconds : by === 'cost' ? r.call.cost : r.call.status;
    const assistant = all[0].call.assistantId!;
    for (const by of ['created', 'duration', 'cost', 'status'] as const)
      for (const desc of [false, true])
        for (const q of [{}, { assistantId: assistant }]) {
          const rows = archive.window(q, { limit: 100_000, order: { by, desc } });
          const what = `${by} ${desc ? 'desc' : 'asc'} ${JSON.stringify(q)}`;
          assert.equal(rows.length, archive.count(q), what);
          // Expected: the same calls sorted in JS (nulls last, ties by creation in the same direction).
          const sign = desc ? -1 : 1;
          const expected = [...rows].sort((a, b) => {
            const [x, y] = [valueOf(a, by) ?? null, valueOf(b, by) ?? null];
            if (x === null || y === null) return x === y ? sign * (a.position - b.position) : x === null ? 1 : -1;
            return x < y ? -sign : x > y ? sign : sign * (a.position - b.position);
          });
          assert.deepEqual(
            rows.map((r) => r.call.id),
            expected.map((r) => r.call.id),
            what,
          );
          // (The seed's calls have all ended: status is ordered by its ties.)
          if (by === 'duration' || by === 'cost') assert.ok(new Set(rows.map((r) => valueOf(r, by))).size > 1, `${what}: the seed has more than one value`);
          // Paging by offset is the same list, and each row's index is where it stands.
          assert.deepEqual(archive.window(q, { offset: 7, limit: 5, order: { by, desc } }), rows.slice(7, 12), what);
          for (const i of [0, 1, 7, Math.floor(rows.length / 2), rows.length - 1])
            assert.equal(archive.indexOf(q, rows[i].position, { by, desc }), i, `${what}: row ${i}`);
        }
  });

  test('get returns the full record; search hits come in parts with the matched words marked', () => {
    const [first] = archive.window({}, { limit: 1 });
    const full = archive.get(first.call.id)!;
    assert.equal(full.id, first.call.id);
    assert.ok('messages' in full && 'transcript' in full);
    const hits = archive.search('thank*', {}, { limit: 5 });
    assert.ok(hits.length > 0);
    for (const h of hits) {
      assert.equal(h.parts.map((p) => p.text).join(''), h.snippet);
      assert.ok(h.parts.some((p) => p.hit && /^thank/i.test(p.text)));
      assert.doesNotMatch(h.snippet, /\n/);
    }
    assert.equal(archive.countSearch('thank*'), archive.count({ text: 'thank*' }));
    assert.deepEqual(archive.search('"', {}, { limit: 5 }), []);
    assert.equal(archive.count({ text: '(((' }), 0);
  });

  test('counts read from the rollup agree with counting the calls, after calls change and go', () => {
    const db = openSqlite(archive.path, { readOnly: true });
    try {
      const all = archive.window({}, { limit: 100_000 });
      const counted = (where: string, ...params: (string | number)[]) =>
        (db.prepare(`SELECT count(*) AS n FROM calls ${where}`).get(...params) as { n: number }).n;
      const check = () => {
        const a = all[0].call;
        assert.equal(archive.count(), counted(''));
        assert.equal(archive.count({ text: ' ' }), counted(''));
        assert.equal(archive.count({ assistantId: a.assistantId! }), counted('WHERE assistant = (SELECT rowid FROM names WHERE value = ?)', a.assistantId!));
        assert.equal(archive.count({ phoneNumberId: a.phoneNumberId! }), counted('WHERE number = (SELECT rowid FROM names WHERE value = ?)', a.phoneNumberId!));
        assert.equal(archive.count({ status: 'ended' }), counted("WHERE status = 'ended'"));
        assert.equal(archive.count({ assistantId: 'no-such-assistant' }), 0);
        // dates: whole quarter hours from the rollup, the ends from the calls
        const mid = Date.parse(all[Math.floor(all.length / 2)].call.createdAt);
        for (const [after, before] of [
          [mid - 3_600_000 + 7, mid + 60_000],
          [mid, mid],
          [undefined, mid + 1],
          [mid - 1, undefined],
        ]) {
          const bounds = [after === undefined ? '' : `created_at >= ${after}`, before === undefined ? '' : `created_at <= ${before}`];
          const where = bounds.filter(Boolean).join(' AND ');
          assert.equal(archive.count({ after, before }), counted(`WHERE ${where}`), `after ${after} before ${before}`);
        }
        assert.equal(
          archive.count({ assistantId: a.assistantId!, status: 'ended' }),
          counted("WHERE assistant = (SELECT rowid FROM names WHERE value = ?) AND status = 'ended'", a.assistantId!),
        );
      };
      check();
      // A call that moves to another assistant and status, and one written again unchanged.
      const [first, second] = all;
      archive.put([{ ...archive.get(first.call.id)!, assistantId: 'moved-assistant', status: 'in-progress' }]);
      assert.equal(archive.count({ assistantId: 'moved-assistant' }), 1);
      check();
      archive.put([archive.get(second.call.id)!]);
      check();
    } finally {
      db.close();
    }
  });

  test('a second handle reads what the first writes; clear stops nothing but empties', () => {
    const reader = openArchive(archive.path);
    try {
      const first = archive.window({}, { limit: 1 })[0].call;
      archive.put([{ ...first, note: 'seen by the reader' } as never]);
      assert.equal((reader.get(first.id) as unknown as { note?: string }).note, 'seen by the reader');
      assert.equal(reader.count(), archive.count());
      archive.clear();
      assert.equal(reader.count(), 0);
      assert.equal(reader.stats('day').total.calls, 0);
    } finally {
      reader.close();
    }
  });

  test('opened for another service, the archive starts empty', async () => {
    await archive.sync(api);
    assert.equal(archive.count(), serviceIds.length);
    const other = openArchive(archive.path, { service: 'sandbox:b' });
    try {
      assert.equal(other.count(), 0);
      assert.equal(other.lastSync(), undefined);
    } finally {
      other.close();
    }
  });

  // A walk writes pages into a transaction left open while the next page is on its way.
  test('the next page is on the wire before a page is written, so the service answers while the archive writes', async () => {
    const order: string[] = [];
    const sent = (m: unknown) => {
      const path = (m as { request: { path: string } }).request.path;
      if (path.includes('/calls/details')) order.push('sent');
    };
    class Logged extends CallWriter {
      override write(calls: readonly Call[]) {
        order.push('write');
        return super.write(calls);
      }
    }
    const db = openArchiveDb(join(dir, 'order.db'), 'sandbox:a');
    subscribe('undici:client:sendHeaders', sent);
    try {
      await syncArchive(db, new Logged(db), api, { pageSize: 100 });
    } finally {
      unsubscribe('undici:client:sendHeaders', sent);
      db.close();
    }
    const pages = Math.ceil(serviceIds.length / 100);
    assert.ok(pages >= 3, `the sandbox's log has ${serviceIds.length} calls: too few pages to tell`);
    // A page's next request goes out before it is written: every write but the last has one more request before it than writes.
    const writes = order.flatMap((o, i) => (o === 'write' ? [order.slice(0, i).filter((x) => x === 'sent').length] : []));
    assert.ok(writes.length >= pages, `${writes.length} writes`);
    writes
      .slice(0, -1)
      .forEach((sentBefore, k) => assert.ok(sentBefore >= k + 2, `write ${k + 1} had only ${sentBefore} requests before it: ${order.join(' ')}`));
  });

  test('a write on the same handle while a sync is between pages is its own: put kept, clear stops the sync', async () => {
    archive.clear();
    let calls = 0;
    const during = (action: () => void): VoiceAgentApi => ({
      ...api,
      callDetails: async (...a: Parameters<VoiceAgentApi['callDetails']>) => {
        // The third answer comes after the first page is written, while the sync is between pages: this runs between.
        const answer = await api.callDetails(...a);
        if (++calls === 3) action();
        return answer;
      },
    });
    const first = serviceIds[0];
    await archive.sync(
      during(() => {
        archive.put([{ ...archive.get(first)!, note: 'put mid-sync' } as never]);
      }),
      { pageSize: 100 },
    );
    assert.equal(archive.count(), serviceIds.length);
    assert.equal((archive.get(first) as unknown as { note?: string }).note, 'put mid-sync');

    archive.clear();
    calls = 0;
    await assert.rejects(
      archive.sync(
        during(() => archive.clear()),
        { pageSize: 100 },
      ),
      { name: 'ArchiveCleared' },
    );
    assert.equal(archive.count(), 0);
  });

  test('a sync waiting on a slow page holds no write lock: another handle writes at once', async () => {
    archive.clear();
    const other = openArchive(archive.path);
    try {
      let calls = 0;
      let tookMs = -1;
      const slow: VoiceAgentApi = {
        ...api,
        callDetails: async (...a: Parameters<VoiceAgentApi['callDetails']>) => {
          const answer = await api.callDetails(...a);
          if (++calls === 2) {
            await new Promise((r) => setTimeout(r, 300));
            const t0 = performance.now();
            other.put([answer[0]]); // blocks this thread until the lock is free (10 s at most)
            tookMs = performance.now() - t0;
          }
          return answer;
        },
      };
      await archive.sync(slow, { pageSize: 100 });
      assert.ok(tookMs >= 0 && tookMs < 1000, `the other handle waited ${Math.round(tookMs)} ms for the write lock`);
      assert.equal(archive.count(), serviceIds.length);
    } finally {
      other.close();
    }
  });
});
