// 429 Too Many Requests from small real servers: a GET waits (as long as Retry-After asks, or a
// growing backoff without one, never longer than the cap) and tries again; writes fail at once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { RATE_LIMIT_RETRIES, retryAfterMs, type RateLimitWait } from '../../src/api/http.js';
import { drain, json, startServer, type Handler, type TestServer } from './servers.js';
import { until } from '../support/wait.js';

const KEY = 'sk-test-0123456789abcdef-7a7e';
const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const x of open.reverse()) await x.close();
});

async function serve(handler: Handler, opts: Partial<ClientOptions> = {}): Promise<{ server: TestServer; api: VoiceAgentApi; waits: RateLimitWait[] }> {
  const server = await startServer(handler);
  const waits: RateLimitWait[] = [];
  const api = createClient({ baseUrl: server.url, apiKey: KEY, retryBaseMs: 5, onRateLimited: (w) => waits.push(w), ...opts });
  open.push(server, api);
  return { server, api, waits };
}

function tooMany(res: ServerResponse, retryAfter?: string): void {
  const body = JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' });
  res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}) }).end(body);
}

test('a GET answered 429 with Retry-After: 1 waits a second and succeeds', async () => {
  const { server, api, waits } = await serve((_req, res, n) => (n === 1 ? tooMany(res, '1') : json(res, 200, [])));
  const started = performance.now();
  assert.deepEqual(await api.listAssistants(), []);
  const ms = performance.now() - started;
  assert.equal(server.requests.length, 2);
  assert.ok(ms >= 950, `waited ${Math.round(ms)} ms, Retry-After asked 1000`);
  assert.deepEqual(waits, [{ method: 'GET', path: '/assistants', waitMs: 1000 }]);
});

test('a GET answered 429 without Retry-After backs off and retries, beyond the budget for failures', async () => {
  const { server, api, waits } = await serve((_req, res, n) => (n <= 3 ? tooMany(res) : json(res, 200, [])), { retries: 1 });
  assert.deepEqual(await api.listPhoneNumbers(), []);
  assert.equal(server.requests.length, 4);
  assert.equal(waits.length, 3);
});

test('a GET that is always rate limited gives up after a bounded number of tries with the 429', async () => {
  const { server, api } = await serve((_req, res) => tooMany(res, '0'));
  await assert.rejects(api.listAssistants(), (err: unknown) => err instanceof ApiError && err.status === 429);
  assert.equal(server.requests.length, RATE_LIMIT_RETRIES + 1);
});

test('a Retry-After beyond the cap is not waited out: the 429 is reported at once', async () => {
  const { server, api, waits } = await serve((_req, res) => tooMany(res, '3600'));
  await assert.rejects(api.listAssistants(), (err: unknown) => err instanceof ApiError && err.status === 429);
  // No wait was begun (each is reported before it starts), rather than a clock that a busy machine can break.
  assert.deepEqual(waits, []);
  assert.equal(server.requests.length, 1);
});

test('a POST answered 429 is not retried (it may not be idempotent)', async () => {
  const { server, api } = await serve(async (req, res) => {
    await drain(req);
    tooMany(res, '0');
  });
  await assert.rejects(api.createAssistant({ name: 'x' }), (err: unknown) => err instanceof ApiError && err.status === 429);
  assert.equal(server.requests.length, 1);
});

test('closing the client ends a rate-limit wait at once', async () => {
  // 29 s to wait (the longest the client waits is 30): the request can only end before the 20-s guard because close() ended the wait.
  const { server, api } = await serve((_req, res) => tooMany(res, '29'));
  const pending = assert.rejects(api.listAssistants(), NetworkError);
  await until(() => server.requests.length === 1, 'the first answer, a 429');
  await api.close();
  let guard: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((r) => (guard = setTimeout(() => r('stuck'), 20_000)));
  try {
    assert.notEqual(await Promise.race([pending.then(() => 'ended' as const), stuck]), 'stuck', 'the wait went on after close()');
  } finally {
    clearTimeout(guard);
  }
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs('7', now), 7000);
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  assert.equal(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(retryAfterMs(undefined, now), undefined);
});
