// Walking the call log of a service that is not our sandbox: one that caps pages at 100 (silently
// or with a 400), bounds created-at strictly (Vapi) or inclusively, names its filters otherwise or
// ignores them. Every walk ends by itself, returns each call once, only calls in the range asked,
// or stops with one clear message; what it learns is kept for the next client.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import { PagingError, allFiles, fetchCallsBefore, walkCallLog } from '../../src/api/pager.js';
import type { ServiceTraits } from '../../src/api/traits.js';
import { limitNamedIn } from '../../src/api/traits.js';
import type { CallFilters } from '../../src/api/schemas.js';
import { byNewest, callRecords, startCallLog, type CallLogOptions, type LogRecord } from './call-log-server.js';
import { json, startServer } from './servers.js';

const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const x of open.reverse()) await x.close();
});

async function serve(records: LogRecord[], opts: CallLogOptions = {}, client: Partial<ClientOptions> = {}) {
  const server = await startCallLog(records, opts);
  const learned: Partial<ServiceTraits>[] = [];
  const api = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0, onLearned: (p) => learned.push(p), ...client });
  open.push(server, api);
  return { server, api, learned };
}

async function walk(api: ReturnType<typeof createClient>, filters: CallFilters = {}, pageSize = 1000, notices: string[] = []) {
  const ids: string[] = [];
  for await (const page of walkCallLog(api, filters, { pageSize, onNotice: (n) => notices.push(n) })) ids.push(...page.map((c) => c.id));
  return ids;
}

const newestIds = (records: LogRecord[]) => byNewest(records).map((r) => r.id);

test('a service capping pages at 100 without saying so: every call, once; the cap is learned', async () => {
  const records = callRecords(350);
  const { api, learned, server } = await serve(records, { cap: 100 });
  assert.deepEqual(await walk(api), newestIds(records));
  assert.equal(api.traits.callPageCap, 100);
  assert.ok(learned.some((p) => p.callPageCap === 100));
  // Learned after the second page: the rest are asked at 100.
  const limits = server.queries().map((q) => q.get('limit'));
  assert.deepEqual(limits.slice(0, 2), ['1000', '1000']);
  assert.ok(
    limits.slice(2).every((l) => l === '100'),
    limits.join(','),
  );
});

test('a service refusing a limit over 100 with a 400: asked again at 100, learned, and a second client starts there', async () => {
  const records = callRecords(250);
  const { api, learned, server } = await serve(records, { cap: 100, refuse: 'limit must not be greater than {cap}' });
  assert.deepEqual(await walk(api), newestIds(records));
  assert.deepEqual(learned[0], { callPageCap: 100 });
  assert.equal(server.queries().filter((q) => q.get('limit') === '1000').length, 1, 'refused once, then 100');
  // The next client for this target is given what was learned: no 400 at all.
  const next = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0, traits: api.traits });
  open.push(next);
  const before = server.requests.length;
  assert.deepEqual((await next.listCalls({ limit: 500 })).length, 100);
  assert.equal(new URL(server.requests[before].url, 'http://x').searchParams.get('limit'), '100');
  // One page of the log (no walk) is usable too.
  const fresh = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0 });
  open.push(fresh);
  assert.equal((await fresh.callDetails({ limit: 1000 })).length, 100);
});

test('limitNamedIn reads the limit out of the usual 400 messages', () => {
  assert.equal(limitNamedIn('limit must not be greater than 100'), 100);
  assert.equal(limitNamedIn('querystring/limit must be <= 250'), 250);
  assert.equal(limitNamedIn('limit must be less than 101'), 100);
  assert.equal(limitNamedIn('The maximum limit is 50'), 50);
  assert.equal(limitNamedIn('name must be shorter than 100'), undefined);
});

/** 30 calls a second apart, but three share the instant where a page of 10 ends (the 10th, 11th and 12th). */
function straddling(): LogRecord[] {
  const records = callRecords(30);
  for (const i of [10, 11]) records[i].createdAt = records[9].createdAt;
  return records;
}

test('strict bounds (Vapi): three calls sharing a timestamp across a page boundary are none of them skipped', async () => {
  const records = straddling();
  const { api, server } = await serve(records, { bounds: 'strict', alsoInclusive: ['createdAtGe', 'createdAtLe'] });
  const ids = await walk(api, {}, 10);
  assert.deepEqual([...ids].sort(), records.map((r) => r.id).sort());
  assert.equal(new Set(ids).size, ids.length, 'no call twice');
  // The next page asks up to the oldest seen + 1 ms.
  assert.equal(server.queries()[1].get('createdAtLt'), new Date(Date.parse(records[9].createdAt) + 1).toISOString());
});

test('inclusive bounds and a silent cap: no call twice, none missing, across shared timestamps', async () => {
  const records = straddling();
  const { api } = await serve(records, { cap: 10 });
  const ids = await walk(api, {}, 1000);
  assert.deepEqual(ids, newestIds(records));
});

test('filters under other names: noticed on the first page, the honoured names learned; only calls in range', async () => {
  const records = callRecords(350);
  const { api, server } = await serve(records, { names: ['createdAfter', 'createdBefore'], cap: 100 });
  const from = records[220].createdAt;
  const to = records[20].createdAt;
  const ids = await walk(api, { createdAtGt: from, createdAtLt: to });
  assert.deepEqual(
    ids,
    records.slice(20, 221).map((r) => r.id),
  );
  assert.deepEqual(api.traits.callDateFilter, { after: 'createdAfter', before: 'createdBefore', inclusive: true });
  assert.ok(server.requests.length < 20, `${server.requests.length} requests`);
  // Remembered: a second walk asks with those names from its first request.
  const n = server.queries().length;
  assert.deepEqual(await walk(api, { createdAtGt: from, createdAtLt: to }), ids);
  assert.ok(
    server
      .queries()
      .slice(n)
      .every((q) => q.has('createdAfter') && !q.has('createdAtGt')),
  );
});

test('filters ignored altogether, a log that fits a page: the walk ends, filters on its own side and says so once', async () => {
  const records = callRecords(350);
  const { api, server } = await serve(records, { names: 'ignored' });
  const notices: string[] = [];
  const ids = await walk(api, { createdAtGt: records[200].createdAt, createdAtLt: records[100].createdAt }, 1000, notices);
  assert.deepEqual(
    ids,
    records.slice(100, 201).map((r) => r.id),
  );
  assert.equal(notices.length, 1);
  assert.match(notices[0], /ignores the created-at filters/);
  assert.equal(api.traits.callDateFilter, 'none');
  assert.ok(server.requests.length < 20, `${server.requests.length} requests`);
  // The whole log: all of it, once.
  assert.deepEqual(await walk(api), newestIds(records));
});

test('filters ignored and pages capped (a cap it names): the walk gives the newest page and stops with one clear message', async () => {
  const records = callRecords(350);
  const { api, server } = await serve(records, { names: 'ignored', cap: 100, refuse: 'limit must not be greater than {cap}' });
  const ids: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const page of walkCallLog(api, {}, { pageSize: 100 })) ids.push(...page.map((c) => c.id));
    })(),
    (err: Error) => err instanceof PagingError && /ignores every created-at filter/.test(err.message) && /newest 100 calls/.test(err.message),
  );
  assert.deepEqual(
    ids,
    records.slice(0, 100).map((r) => r.id),
  );
  assert.ok(server.requests.length < 20, `${server.requests.length} requests`);
});

test('filters ignored and pages cut short silently: the walk ends with the newest page and says older calls may be out of reach', async () => {
  const records = callRecords(350);
  const { api } = await serve(records, { names: 'ignored', cap: 100 });
  const notices: string[] = [];
  assert.deepEqual(
    await walk(api, {}, 1000, notices),
    records.slice(0, 100).map((r) => r.id),
  );
  assert.equal(notices.length, 1);
  assert.match(notices[0], /gave 100 calls in one page: if it caps its pages at 100, older calls cannot be read/);
});

test('a range the ignored filters would have served: only calls inside it, never one outside', async () => {
  const records = callRecords(50);
  const { api } = await serve(records, { names: 'ignored', cap: 100 });
  const page = await fetchCallsBefore(api, { createdAtGt: records[30].createdAt, createdAtLt: records[10].createdAt }, undefined, { pageSize: 100 });
  assert.deepEqual(
    page.calls.map((c) => c.id),
    records.slice(10, 31).map((r) => r.id),
  );
});

test("an assistant filter the service ignores: only that assistant's calls, across pages that hold none of them", async () => {
  const records = callRecords(120).map((r, i) => ({ ...r, assistantId: i >= 100 && i % 2 === 0 ? 'a2' : 'a1' }));
  const { api } = await serve(records, { ignoreOtherFilters: true, cap: 50 });
  assert.deepEqual(
    await walk(api, { assistantId: 'a2' }),
    records.filter((r) => r.assistantId === 'a2').map((r) => r.id),
  );
});

test('GET /files: a totalPages of 10^12 and a service that answers page 1 to every page end the walk', async () => {
  const files = Array.from({ length: 30 }, (_, i) => ({ id: `f${i}`, name: `f${i}.txt`, createdAt: '2026-11-01T00:00:00.000Z' }));
  const server = await startServer((req, res, n) => {
    if (n > 50) return json(res, 500, { message: 'the walk does not end' });
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const page = Number(q.get('page') ?? 1);
    const lying = q.get('limit') === '7';
    // Pages of 10 (a silent cap) that never run out: past the end, page 1 again.
    const from = lying ? 0 : ((page - 1) * 10) % 30;
    json(res, 200, { files: files.slice(from, from + 10), pagination: { total: 10 ** 13, page, limit: 100, totalPages: 10 ** 12 } });
  });
  const api = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0 });
  open.push(server, api);
  assert.deepEqual(
    (await allFiles(api)).map((f) => f.id),
    files.map((f) => f.id),
  );
  assert.equal(api.traits.filesPageCap, 10);
  assert.deepEqual(
    (await allFiles(api, { limit: 7 })).map((f) => f.id),
    files.slice(0, 10).map((f) => f.id),
  );
});

test("connect() hands a client what earlier clients of the profile learned, and keeps what it learns; the console's api forwards both", async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { connect, ApiOnceConnected } = await import('../../src/target.js');
  const home = mkdtempSync(join(tmpdir(), 'switchboard-traits-'));
  try {
    const records = callRecords(250);
    const server = await startCallLog(records, { cap: 100 });
    open.push(server);
    const env = { HOME: home, XDG_STATE_HOME: join(home, 'state'), SWITCHBOARD_BASE_URL: server.url, SWITCHBOARD_API_KEY: 'k' };
    const first = await connect({ env });
    const shown = new ApiOnceConnected(Promise.resolve(first));
    assert.deepEqual(await walk(shown), newestIds(records));
    assert.equal(shown.traits.callPageCap, 100);
    await first.close();
    const second = await connect({ env });
    assert.equal(second.api.traits.callPageCap, 100);
    const at = server.requests.length;
    await second.api.listCalls({ limit: 1000 });
    assert.equal(new URL(server.requests[at].url, 'http://x').searchParams.get('limit'), '100');
    await second.close();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
