// Walking the call log by creation time across page boundaries, against a small real server
// whose records share timestamps (the case the inclusive cursor has to get right).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { fetchCallsBefore, walkCallLog } from '../../src/api/pager.js';
import { json, startServer, type TestServer } from './servers.js';

interface Rec {
  id: string;
  createdAt: string;
  assistantId: string;
}

const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const x of open.reverse()) await x.close();
});

/** GET /calls the way the service defines it: newest first, createdAtLt/Gt inclusive, limit. */
async function callLog(records: Rec[]): Promise<{ server: TestServer; api: ReturnType<typeof createClient> }> {
  const sorted = [...records].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
  const server = await startServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const lt = q.get('createdAtLt');
    const gt = q.get('createdAtGt');
    const limit = Number(q.get('limit') ?? 100);
    const calls = sorted
      .filter((c) => !lt || Date.parse(c.createdAt) <= Date.parse(lt))
      .filter((c) => !gt || Date.parse(c.createdAt) >= Date.parse(gt))
      .filter((c) => !q.get('assistantId') || c.assistantId === q.get('assistantId'))
      .slice(0, limit);
    json(res, 200, { message: 'ok', calls });
  });
  const api = createClient({ baseUrl: server.url, apiKey: 'k' });
  open.push(server, api);
  return { server, api };
}

const t0 = Date.parse('2026-11-01T00:00:00.000Z');
function rec(i: number, second: number, assistantId = 'a1'): Rec {
  return { id: `c${String(i).padStart(4, '0')}`, createdAt: new Date(t0 + second * 1000).toISOString(), assistantId };
}

async function walkAll(api: ReturnType<typeof createClient>, pageSize: number, filters = {}) {
  const pages: string[][] = [];
  for await (const page of walkCallLog(api, filters, { pageSize })) pages.push(page.map((c) => c.id));
  return pages;
}

test('every record once, newest first, across pages whose boundaries fall inside shared timestamps', async () => {
  // 30 records, three per second: every page of 7 ends in the middle of a group.
  const records = Array.from({ length: 30 }, (_, i) => rec(i, Math.floor(i / 3)));
  const { api } = await callLog(records);
  const pages = await walkAll(api, 7);
  const ids = pages.flat();
  assert.equal(ids.length, 30);
  assert.equal(new Set(ids).size, 30);
  const expected = [...records].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1)).map((r) => r.id);
  assert.deepEqual(ids, expected);
  assert.ok(pages.length >= 5);
});

test('more records on one timestamp than a page holds: the limit grows instead of stalling', async () => {
  const records = [...Array.from({ length: 12 }, (_, i) => rec(i, 10)), rec(100, 5), rec(101, 4)];
  const { api, server } = await callLog(records);
  const ids = (await walkAll(api, 5)).flat();
  assert.equal(ids.length, 14);
  assert.equal(new Set(ids).size, 14);
  assert.deepEqual(ids.slice(-2), ['c0100', 'c0101']);
  const limits = server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'));
  assert.ok(limits.includes('10') && limits.includes('20'), `limits asked: ${limits.join(',')}`);
});

test('over 1000 records in one instant: the walk still ends and reaches older records', async () => {
  const records = [...Array.from({ length: 1005 }, (_, i) => rec(i, 50)), rec(2000, 40), rec(2001, 30)];
  const { api } = await callLog(records);
  const ids = (await walkAll(api, 500)).flat();
  assert.equal(new Set(ids).size, ids.length, 'no duplicates');
  assert.ok(ids.length >= 1000);
  assert.deepEqual(ids.slice(-2), ['c2000', 'c2001']);
});

test('load more: the cursor from one page fetches the next; done when a page comes back empty', async () => {
  const records = Array.from({ length: 9 }, (_, i) => rec(i, i));
  const { api, server } = await callLog(records);
  const first = await fetchCallsBefore(api, { assistantId: 'a1' }, undefined, { pageSize: 4 });
  assert.deepEqual(
    first.calls.map((c) => c.id),
    ['c0008', 'c0007', 'c0006', 'c0005'],
  );
  assert.equal(first.cursor.done, false);
  const second = await fetchCallsBefore(api, { assistantId: 'a1' }, first.cursor, { pageSize: 4 });
  assert.deepEqual(
    second.calls.map((c) => c.id),
    ['c0004', 'c0003', 'c0002'],
  );
  const third = await fetchCallsBefore(api, { assistantId: 'a1' }, second.cursor, { pageSize: 4 });
  assert.deepEqual(
    third.calls.map((c) => c.id),
    ['c0001', 'c0000'],
  );
  // A short page is not the end (a service may cap pages silently): an empty one is.
  assert.equal(third.cursor.done, false);
  const fourth = await fetchCallsBefore(api, { assistantId: 'a1' }, third.cursor, { pageSize: 4 });
  assert.deepEqual(fourth.calls, []);
  assert.equal(fourth.cursor.done, true);
  for (const r of server.requests) assert.match(r.url, /assistantId=a1/, 'filters ride along on every page');
  assert.match(server.requests[1].url, /createdAtLt=2026-11-01T00%3A00%3A05\.001Z/, 'next page = up to the oldest seen, overlapping it by 1 ms');
});

test("the walk honours the caller's own createdAtLt and an empty log yields nothing", async () => {
  const records = Array.from({ length: 6 }, (_, i) => rec(i, i));
  const { api } = await callLog(records);
  const ids = (await walkAll(api, 2, { createdAtLt: new Date(t0 + 3000).toISOString() })).flat();
  assert.deepEqual(ids, ['c0003', 'c0002', 'c0001', 'c0000']);
  const empty = await callLog([]);
  assert.deepEqual(await walkAll(empty.api, 10), []);
});
