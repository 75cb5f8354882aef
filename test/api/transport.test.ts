// The client against small real servers that answer the way other services and proxies do:
// envelope variants, error bodies, retries, timeouts, resets, aborts.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { AbortedError, ApiError, InputError, NetworkError, ResponseShapeError, TimeoutError, failure } from '../../src/api/errors.js';
import { drain, json, startServer, type Handler, type TestServer } from './servers.js';

const KEY = 'sk-test-0123456789abcdef-c0de';
const open: Array<{ close(): Promise<void> }> = [];
const tmp = mkdtempSync(join(tmpdir(), 'switchboard-transport-'));
after(async () => {
  for (const x of open.reverse()) await x.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function serve(handler: Handler, opts: Partial<ClientOptions> = {}): Promise<{ server: TestServer; api: VoiceAgentApi; lines: string[] }> {
  const server = await startServer(handler);
  const lines: string[] = [];
  const api = createClient({ baseUrl: server.url, apiKey: KEY, retryBaseMs: 5, debug: (l) => lines.push(l), ...opts });
  open.push(server, api);
  return { server, api, lines };
}

const assistant = { id: 'a1', name: 'Front desk', extraField: { kept: true } };

describe('envelopes', () => {
  for (const [label, body] of [
    ['a bare array', [assistant]],
    ['{ assistants }', { assistants: [assistant] }],
    ['{ data }', { data: [assistant] }],
    ['{ items }', { items: [assistant] }],
    ['{ results }', { results: [assistant] }],
  ] as const) {
    test(`a list answered as ${label} is accepted, unknown fields kept`, async () => {
      const { api } = await serve((_req, res) => json(res, 200, body));
      const list = await api.listAssistants();
      assert.equal(list.length, 1);
      assert.equal(list[0].id, 'a1');
      assert.deepEqual((list[0] as Record<string, unknown>).extraField, { kept: true });
    });
  }

  test('a single record is accepted bare or under its resource name', async () => {
    const { api } = await serve((req, res) => json(res, 200, req.url === '/assistants/a1' ? assistant : { message: 'ok', assistant }));
    assert.equal((await api.getAssistant('a1')).name, 'Front desk');
    assert.equal((await api.createAssistant({ name: 'Front desk' })).record!.id, 'a1');
  });

  test('an outbound call is accepted bare or under "call"', async () => {
    const call = { id: 'c1', createdAt: '2026-11-01T00:00:00.000Z', status: 'queued' };
    let n = 0;
    const { api } = await serve((_req, res) => json(res, 201, n++ === 0 ? call : { message: 'queued', call }));
    const input = { assistantId: 'a1', phoneNumberId: 'p1', customer: { number: '+14155550123' } };
    assert.equal((await api.placeOutboundCall(input)).record!.id, 'c1');
    assert.equal((await api.placeOutboundCall(input)).record!.status, 'queued');
  });

  test('a list record that cannot be read (no id, not an object) is skipped with a warning naming its position; the rest of the page is kept', async () => {
    const warnings: string[] = [];
    const { api } = await serve((_req, res) => json(res, 200, { assistants: [{ name: 'no id' }, 'text', { id: 'a2', name: 'kept' }] }), {
      onWarning: (l) => warnings.push(l),
    });
    const got = await api.listAssistants();
    assert.deepEqual(
      got.map((a) => a.id),
      ['a2'],
    );
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /^GET \/assistants: assistants\[0\] skipped, it cannot be read \(no id\)/);
    assert.match(warnings[1], /assistants\[1\] skipped, it cannot be read \(not an object: a string\)/);
  });

  test('a 200 with the wrong shape is a ResponseShapeError naming the request, not a zod dump', async () => {
    const { api } = await serve((_req, res) => json(res, 200, { assistant: { name: 'no id' } }));
    const err = await api.getAssistant('a1').then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ResponseShapeError);
    assert.ok(err instanceof ApiError, 'part of the ApiError family');
    assert.match(err.message, /^the service answered GET \/assistants\/a1 with an unexpected shape: assistant\.id: /);
    assert.ok(!err.message.includes('"code"'), err.message);
    // JSON in a shape we did not expect is still the service: no hint that the base URL is wrong.
    assert.doesNotMatch(failure(err).hint ?? '', /base URL/);
  });

  test('a 200 that is not a list where a list belongs says what came instead', async () => {
    const { api } = await serve((_req, res) => json(res, 200, { message: 'hello' }));
    await assert.rejects(api.listPhoneNumbers(), /unexpected shape: expected a list of phoneNumbers .* got an object with message/);
  });

  test('a 200 HTML page is a ResponseShapeError saying it was not JSON', async () => {
    const { api } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to nginx!</body></html>');
    });
    const err = await api.listFiles().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ResponseShapeError && /expected JSON, got text\/html starting "<html>/.test(err.message), String(err));
    assert.match(failure(err).hint ?? '', /is the Voice Agent Service/, 'a web page for a read: the base URL may point elsewhere');
  });

  test('a 200 with broken JSON says so', async () => {
    const { api } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"file": {"id": "f1"');
    });
    const err = await api.getFile('f1').then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ResponseShapeError);
    assert.equal(err.detail, 'its JSON is malformed starting "{"file": {"id": "f1""');
  });

  test('files without a pagination block get one describing the single page', async () => {
    const { api } = await serve((_req, res) => json(res, 200, [{ id: 'f1' }, { id: 'f2' }]));
    const page = await api.listFiles();
    assert.deepEqual(page.pagination, { total: 2, page: 1, limit: 2, totalPages: 1 });
  });
});

describe('errors', () => {
  test('an error message given as a list is kept as a list and joined for display', async () => {
    const { api } = await serve((_req, res) =>
      json(res, 400, { statusCode: 400, error: 'Bad Request', message: ['name must be a string', 'voice is required'] }),
    );
    const err = await api.createAssistant({}).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 400);
    assert.deepEqual(err.serviceMessage, ['name must be a string', 'voice is required']);
    assert.equal(err.detail, 'name must be a string; voice is required');
    assert.equal(err.message, 'POST /assistants failed (400): name must be a string; voice is required');
    assert.equal(err.method, 'POST');
  });

  test('an HTML error page from a proxy becomes an ApiError with the status text', async () => {
    const { api, server } = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><h1>502 Bad Gateway</h1></html>');
    });
    const err = await api.sendChat({ sessionId: 's1', input: 'hi' }).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError && !(err instanceof ResponseShapeError));
    assert.equal(err.status, 502);
    assert.equal(err.message, 'POST /chats failed (502): Bad Gateway');
    assert.equal(server.requests.length, 1, 'a POST is never retried');
  });

  test('a 401 hints at login and never shows the key', async () => {
    const { api, lines } = await serve((_req, res) => json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'invalid API key' }));
    const err = await api.listCalls().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError);
    assert.match(failure(err).hint ?? '', /switchboard login.*SWITCHBOARD_API_KEY/);
    for (const text of [err.message, failure(err).hint ?? '', ...lines]) assert.ok(!text.includes(KEY), text);
  });

  test('getCall of an id the service does not know is a 404 ApiError', async () => {
    const { api } = await serve((_req, res) => json(res, 200, { message: 'ok', calls: [] }));
    await assert.rejects(api.getCall('c404'), (e: unknown) => e instanceof ApiError && e.status === 404 && /c404/.test(e.message));
  });

  test('an empty id is refused before anything is sent', async () => {
    const { api, server } = await serve((_req, res) => json(res, 200, {}));
    await assert.rejects(api.getAssistant(' '), InputError);
    assert.equal(server.requests.length, 0);
  });

  test('a base URL that is not http(s) is refused with a clear message', () => {
    assert.throws(
      () => createClient({ baseUrl: 'ftp://example.com', apiKey: KEY }),
      (e: unknown) => e instanceof InputError && /http:\/\//.test(e.message),
    );
    assert.throws(() => createClient({ baseUrl: 'not a url', apiKey: KEY }), /not a valid base URL/);
  });
});

describe('requests', () => {
  test('every request carries x-api-key; filters are sent under their own names only', async () => {
    const { api, server } = await serve((_req, res) => json(res, 200, { message: 'ok', calls: [] }));
    await api.listCalls({ assistantId: 'a 1', limit: 5, createdAtGt: '2026-11-01T00:00:00.000Z', id: '' });
    await api.callDetails({ phoneNumberId: 'p1', createdAtLt: '2026-11-02T00:00:00.000Z' });
    assert.equal(server.requests[0].url, '/calls?assistantId=a+1&limit=5&createdAtGt=2026-11-01T00%3A00%3A00.000Z');
    assert.equal(server.requests[1].url, '/calls/details?phoneNumberId=p1&createdAtLt=2026-11-02T00%3A00%3A00.000Z');
    for (const r of server.requests) assert.equal(r.headers['x-api-key'], KEY);
  });

  test('ids are sent as one path segment', async () => {
    const { api, server } = await serve((_req, res) => json(res, 200, { file: { id: 'x' } }));
    await api.getFile('../assistants?x=1');
    assert.equal(server.requests[0].url, '/files/..%2Fassistants%3Fx%3D1');
  });

  test('a base URL with a path prefix keeps it', async () => {
    const server = await startServer((_req, res) => json(res, 200, { phoneNumbers: [] }));
    const api = createClient({ baseUrl: `${server.url}/v1/`, apiKey: KEY });
    open.push(server, api);
    await api.listPhoneNumbers();
    assert.equal(server.requests[0].url, '/v1/phone-numbers');
  });

  test('debug gets one line per request without the key, and requests share one keep-alive connection', async () => {
    const { api, server, lines } = await serve((_req, res) => json(res, 200, { calls: [] }));
    for (let i = 0; i < 6; i++) await api.listCalls({ limit: 100 });
    assert.equal(lines.length, 6);
    assert.match(lines[0], /^GET \/calls\?limit=100 → 200 \(\d+ ms\)$/);
    // Kept alive: connections are reused rather than opened per request.
    assert.ok(server.connections < 6, `${server.connections} connections for 6 requests`);
  });

  test('clients of one base URL share a dispatcher; closing one leaves the other working', async () => {
    const server = await startServer((_req, res) => json(res, 200, { phoneNumbers: [] }));
    open.push(server);
    const a = createClient({ baseUrl: server.url, apiKey: KEY });
    const b = createClient({ baseUrl: server.url, apiKey: KEY });
    open.push(b);
    for (let i = 0; i < 3; i++) await a.listPhoneNumbers();
    for (let i = 0; i < 3; i++) await b.listPhoneNumbers();
    const portsOf = (from: number, to: number) => new Set(server.requests.slice(from, to).map((r) => r.port));
    const shared = [...portsOf(0, 3)].filter((p) => portsOf(3, 6).has(p));
    assert.ok(shared.length > 0, 'b reuses a connection a opened');
    await a.close();
    assert.deepEqual(await b.listPhoneNumbers(), []);
  });

  test('after close() the client refuses to send', async () => {
    const server = await startServer((_req, res) => json(res, 200, { phoneNumbers: [] }));
    open.push(server);
    const api = createClient({ baseUrl: server.url, apiKey: KEY });
    await api.listPhoneNumbers();
    await api.close();
    await api.close();
    await assert.rejects(api.listPhoneNumbers(), /already closed/);
  });
});

describe('retries', () => {
  test('a GET answered 503 then 200 succeeds on the retry', async () => {
    const { api, server, lines } = await serve((_req, res, n) => (n === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { assistants: [assistant] })));
    assert.equal((await api.listAssistants()).length, 1);
    assert.equal(server.requests.length, 2);
    assert.match(lines[0], /^GET \/assistants → 503 \(\d+ ms\), retrying in \d+ ms$/);
  });

  for (const status of [502, 503, 504]) {
    test(`a GET that keeps answering ${status} is tried 1 + retries times, then fails with that status`, async () => {
      const { api, server } = await serve((_req, res) => json(res, status, { message: 'upstream down' }), { retries: 2 });
      await assert.rejects(api.listPhoneNumbers(), (e: unknown) => e instanceof ApiError && e.status === status);
      assert.equal(server.requests.length, 3);
    });
  }

  test('retries: 0 means one attempt', async () => {
    const { api, server } = await serve((_req, res) => json(res, 503, {}), { retries: 0 });
    await assert.rejects(api.listPhoneNumbers(), ApiError);
    assert.equal(server.requests.length, 1);
  });

  test('a GET answered 500 is not retried (a real failure, not a gateway hiccup)', async () => {
    const { api, server } = await serve((_req, res) => json(res, 500, { message: 'boom' }));
    await assert.rejects(api.listAssistants(), (e: unknown) => e instanceof ApiError && e.status === 500);
    assert.equal(server.requests.length, 1);
  });

  for (const [label, run] of [
    ['POST', (api: VoiceAgentApi) => api.createSession({ assistantId: 'a1' })],
    ['PATCH', (api: VoiceAgentApi) => api.updateAssistant('a1', { name: 'x' })],
    ['DELETE', (api: VoiceAgentApi) => api.deleteFile('f1')],
  ] as const) {
    test(`a ${label} answered 503 is not retried`, async () => {
      const { api, server } = await serve((_req, res) => json(res, 503, { message: 'busy' }));
      await assert.rejects(run(api), (e: unknown) => e instanceof ApiError && e.status === 503);
      assert.equal(server.requests.length, 1);
    });
  }

  test('a GET whose connection is reset is retried; a POST is not', async () => {
    const { api, server } = await serve((req, res, n) => {
      if (n === 1 || req.method === 'POST') req.socket.destroy();
      else json(res, 200, { assistants: [] });
    });
    assert.deepEqual(await api.listAssistants(), []);
    assert.equal(server.requests.length, 2);
    const err = await api.createAssistant({ name: 'x' }).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof NetworkError, String(err));
    assert.match(err.message, /connection to http:\/\/127\.0\.0\.1:\d+ was closed before the service answered POST \/assistants/);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
  });

  test('connection refused is a NetworkError naming the base URL, retried for GET', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const api = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retryBaseMs: 5, debug: (l) => lines.push(l) });
    open.push(api);
    const err = await api.listCalls().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof NetworkError);
    assert.equal(err.message, `nothing is answering at http://127.0.0.1:${port} (connection refused)`);
    assert.match(failure(err).hint ?? '', new RegExp(`running at http://127.0.0.1:${port}`));
    assert.equal(lines.filter((l) => l.includes('retrying')).length, 2);
  });
});

describe('timeouts and aborts', () => {
  test('no response headers within headersMs is a TimeoutError (headers), not retried', async () => {
    const { api, server } = await serve(() => undefined /* never answers */, { timeouts: { headersMs: 300 } });
    const err = await api.listAssistants().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError);
    assert.equal(err.phase, 'headers');
    assert.match(err.message, /GET \/assistants: the service did not start answering within 0\.3s/);
    assert.equal(server.requests.length, 1);
  });

  test('a body that stalls past bodyMs is a TimeoutError (body)', async () => {
    const { api } = await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"assistants":[');
      },
      { timeouts: { bodyMs: 300 }, retries: 0 },
    );
    await assert.rejects(api.listAssistants(), (e: unknown) => e instanceof TimeoutError && e.phase === 'body');
  });

  test('an AbortSignal cancels a request in flight with an AbortedError (name AbortError)', async () => {
    const controller = new AbortController();
    const { api } = await serve(() => controller.abort() /* abort once the request has arrived; never answer */);
    const err = await api.listCalls({}, { signal: controller.signal }).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AbortedError);
    assert.equal(err.name, 'AbortError');
    assert.equal(err.message, 'GET /calls was cancelled');
  });

  test('an already aborted signal sends nothing', async () => {
    const { api, server } = await serve((_req, res) => json(res, 200, { calls: [] }));
    await assert.rejects(api.listCalls({}, { signal: AbortSignal.abort() }), AbortedError);
    assert.equal(server.requests.length, 0);
  });

  test('an abort during the backoff between retries stops at once', async () => {
    const controller = new AbortController();
    const { api, server } = await serve(
      (_req, res) => {
        json(res, 503, {});
        setImmediate(() => controller.abort());
      },
      { retryBaseMs: 60_000 },
    );
    await assert.rejects(api.listAssistants({ signal: controller.signal }), AbortedError);
    assert.equal(server.requests.length, 1);
  });

  test('an upload that takes longer than headersMs still succeeds while the service keeps reading', async () => {
    const path = sparseFile(4 * 1024 * 1024);
    const { api } = await serve(
      async (req, res) => {
        for await (const _chunk of req) await sleep(20);
        json(res, 201, { file: { id: 'f1' } });
      },
      { timeouts: { headersMs: 200, bodyMs: 5_000 } }, // undici alone would count the upload against headersMs
    );
    assert.equal((await api.uploadFile(path)).record!.id, 'f1');
  });

  test('an upload the service stops reading is a TimeoutError (upload)', async () => {
    const path = sparseFile(16 * 1024 * 1024);
    const { api } = await serve((req) => void req.pause(), { timeouts: { bodyMs: 300 } });
    const err = await api.uploadFile(path).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError, String(err));
    assert.equal(err.phase, 'upload');
    assert.equal(err.message, 'POST /files: the service stopped taking the upload for 0.3s');
  });

  test('an upload the service reads but never answers is a TimeoutError (headers)', async () => {
    const path = sparseFile(256 * 1024);
    const { api } = await serve((req) => void drain(req), { timeouts: { headersMs: 200, bodyMs: 200 } });
    const err = await api.uploadFile(path).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError && err.phase === 'headers', String(err));
    assert.equal(err.message, 'POST /files: the service did not start answering within 0.4s');
  });

  test('an upload can be aborted mid-stream', async () => {
    const path = sparseFile(20 * 1024 * 1024);
    const controller = new AbortController();
    const { api } = await serve(async (req, res) => {
      await drain(req).catch(() => 0);
      json(res, 201, { file: { id: 'f' } });
    });
    await assert.rejects(api.uploadFile(path, { signal: controller.signal, onProgress: (sent) => sent > 1024 * 1024 && controller.abort() }), AbortedError);
  });
});

/** A file of zeros that costs no disk; removed with the temp dir after the tests. */
function sparseFile(bytes: number): string {
  const path = join(tmp, `upload-${bytes}-${Math.random().toString(36).slice(2)}.bin`);
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
