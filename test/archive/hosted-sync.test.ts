// `archive sync` against a call log served the hosted ways (test/api/call-log-server.ts): pages
// capped at 100, strict bounds, date filters ignored. Every call is archived, "complete" is said
// only when the walk met an empty page, and a sync always ends: with the right calls, or with one
// clear message and the calls it could read.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { PagingError } from '../../src/api/pager.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { openSqlite } from '../../src/sqlite.js';
import { byNewest, callRecords, startCallLog, type CallLogOptions, type LogRecord } from '../api/call-log-server.js';

const open: Array<{ close(): Promise<void> | void }> = [];
const dir = mkdtempSync(join(tmpdir(), 'switchboard-hosted-sync-'));
after(async () => {
  for (const x of open.reverse()) await x.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function setup(records: LogRecord[], opts: CallLogOptions = {}) {
  const server = await startCallLog(records, opts);
  const api = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0 });
  const archive: CallArchive = openArchive(join(dir, `a${++n}.db`), { service: `remote:${server.url}` });
  open.push(server, api, { close: () => archive.close() });
  return { server, api, archive };
}

const heldIds = (archive: CallArchive) => archive.window({}, { limit: 100_000 }).map((r) => r.call.id);

test('a service capping pages at 100: every one of 350 calls archived, complete, and a sync with nothing new is one request', async () => {
  const records = callRecords(350);
  const { server, api, archive } = await setup(records, { cap: 100 });
  const r = await archive.sync(api);
  assert.equal(r.added, 350);
  assert.equal(r.complete, true);
  assert.deepEqual(
    heldIds(archive),
    byNewest(records).map((c) => c.id),
  );
  assert.equal(archive.status().complete, true);
  const before = server.requests.length;
  const again = await archive.sync(api);
  assert.deepEqual([again.added, again.updated, again.complete], [0, 0, true]);
  assert.equal(server.requests.length - before, 1, 'nothing new: one request');
});

test('the first page alone is not taken for the whole history: complete only once a page comes back empty', async () => {
  const records = callRecords(150);
  const { server, api, archive } = await setup(records, { cap: 100, refuse: 'limit must not be greater than {cap}' });
  const r = await archive.sync(api);
  assert.equal(r.added, 150);
  assert.ok(r.complete);
  const last = server.queries().at(-1)!;
  assert.ok(last.has('createdAtLt'), 'the walk asked past the last call');
});

test('an archive an older version marked complete after a short page is checked once and filled', async () => {
  const records = callRecords(250);
  const { server, api, archive } = await setup(records.slice(0, 100), { cap: 100 });
  await archive.sync(api);
  // As an older version left it: the first page held, the history "done", nothing to say it was checked.
  const db = openSqlite(archive.path);
  const state = JSON.parse((db.prepare(`SELECT value FROM meta WHERE key = 'sync'`).get() as { value: string }).value) as Record<string, unknown>;
  delete state.checked;
  db.prepare(`UPDATE meta SET value = ? WHERE key = 'sync'`).run(JSON.stringify(state));
  db.close();
  assert.equal(archive.status().complete, false, 'not said complete before it is checked');
  server.records = records;
  const r = await archive.sync(api);
  assert.equal(r.added, 150);
  assert.ok(r.complete);
  assert.equal(archive.count(), 250);
});

test("strict bounds: calls arriving later with the newest archived call's timestamp are not missed", async () => {
  const records = callRecords(120);
  const { server, api, archive } = await setup(records, { bounds: 'strict', cap: 100 });
  await archive.sync(api);
  assert.equal(archive.count(), 120);
  const twins = [0, 1, 2].map((i) => ({ ...records[0], id: `late${i}` }));
  server.records = [...records, ...twins];
  const r = await archive.sync(api);
  assert.equal(r.added, 3);
  assert.equal(archive.count(), 123);
});

test('date filters ignored, the log fits a page: sync ends by itself with every call, and new calls come on the next sync', async () => {
  const records = callRecords(350);
  const { server, api, archive } = await setup(records, { names: 'ignored' });
  const r = await archive.sync(api);
  assert.equal(r.added, 350);
  assert.ok(r.complete);
  assert.ok(server.requests.length < 30, `${server.requests.length} requests`);
  const newer = callRecords(3, 1000, 'n').map((c, i) => ({ ...c, createdAt: new Date(Date.parse(records[0].createdAt) + (i + 1) * 1000).toISOString() }));
  server.records = [...records, ...newer];
  const again = await archive.sync(api);
  assert.equal(again.added, 3);
  assert.equal(archive.count(), 353);
  assert.ok(again.notes.some((t) => /ignores the created-at filters/.test(t)) || r.notes.some((t) => /ignores the created-at filters/.test(t)));
});

test('date filters ignored and pages cut at 100 without saying so: the sync ends with the newest page, says it may have more, not complete', async () => {
  const records = callRecords(350);
  const { server, api, archive } = await setup(records, { names: 'ignored', cap: 100 });
  const r = await archive.sync(api);
  assert.deepEqual(
    heldIds(archive),
    records.slice(0, 100).map((c) => c.id),
  );
  assert.equal(r.complete, false);
  assert.equal(archive.status().complete, false);
  assert.deepEqual(r.notes.filter((t) => /gave 100 calls in one page/.test(t)).length, 1);
  assert.ok(server.requests.length < 30, `${server.requests.length} requests`);
});

test('date filters ignored and a page cap it names: the sync keeps the newest page and fails once, clearly; it is not complete', async () => {
  const records = callRecords(350);
  const { server, api, archive } = await setup(records, { names: 'ignored', cap: 100, refuse: 'limit must not be greater than {cap}' });
  await assert.rejects(archive.sync(api), (err: Error) => err instanceof PagingError && /ignores every created-at filter/.test(err.message));
  assert.deepEqual(
    heldIds(archive),
    records.slice(0, 100).map((c) => c.id),
  );
  assert.equal(archive.status().complete, false);
  assert.match(archive.lastSync()?.error ?? '', /ignores every created-at filter/);
  assert.ok(server.requests.length < 30, `${server.requests.length} requests`);
  // The next sync does not walk into the same wall: new calls only, and the reason as a note.
  const before = server.requests.length;
  const again = await archive.sync(api);
  assert.equal(again.complete, false);
  assert.ok(again.notes.some((t) => /ignores every created-at filter/.test(t)));
  assert.ok(server.requests.length - before <= 2);
});
