// The client against loopback servers answering in each envelope and error style a hosted
// service uses, and writes that must never be reported as failed (or sent twice).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { ApiError, ResponseShapeError, TimeoutError, NetworkError, failure } from '../../src/api/errors.js';
import { drain, json, startServer, type Handler, type TestServer } from './servers.js';

const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const x of open.reverse()) await x.close();
});

async function serve(handler: Handler, opts: Partial<ClientOptions> = {}): Promise<{ server: TestServer; api: VoiceAgentApi }> {
  const server = await startServer(handler);
  const api = createClient({ baseUrl: server.url, apiKey: 'sk-test-envelopes-0000', retryBaseMs: 5, ...opts });
  open.push(server, api);
  return { server, api };
}

function text(res: import('node:http').ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, contentType ? { 'content-type': contentType } : {});
  res.end(body);
}

const assistant = { id: 'a1', name: 'Front desk', createdAt: '2026-11-01T10:00:00.000Z' };
const call = {
  id: 'c1',
  createdAt: '2026-11-25T10:00:00.000Z',
  status: 'queued',
  assistantId: 'a1',
  phoneNumberId: 'p1',
  customer: { number: '+14155550123' },
};
const outbound = { assistantId: 'a1', phoneNumberId: 'p1', customer: { number: '+14155550123' } };

describe('single records in every envelope', () => {
  for (const [label, wrap] of [
    ['bare', (r: object) => r],
    ['{ <name> }', (r: object, name: string) => ({ [name]: r })],
    ['{ data }', (r: object) => ({ data: r })],
    ['{ message, data }', (r: object) => ({ message: 'Done successfully', data: r })],
    ['{ message, <name> }', (r: object, name: string) => ({ message: 'Done successfully', [name]: r })],
  ] as const) {
    test(`${label}: a read, a create, an outbound call and an update all give the record`, async () => {
      const { api } = await serve((req, res) => {
        if (req.url === '/calls/outbound') return json(res, 201, wrap(call, 'call'));
        return json(res, req.method === 'POST' ? 201 : 200, wrap(assistant, 'assistant'));
      });
      assert.equal((await api.getAssistant('a1')).name, 'Front desk');
      const created = await api.createAssistant({ name: 'Front desk' });
      assert.equal(created.record?.id, 'a1');
      assert.equal(created.unread, undefined);
      const placed = await api.placeOutboundCall(outbound);
      assert.equal(placed.record?.id, 'c1');
      assert.equal(placed.unread, undefined);
      if (label.includes('message')) assert.equal(placed.message, 'Done successfully');
      const updated = await api.updateAssistant('a1', { name: 'Front desk' });
      assert.equal(updated.record?.id, 'a1');
      assert.deepEqual(updated.record?.notApplied, []);
    });
  }
});

test('a list under { data: { <plural> } } is read', async () => {
  const { api } = await serve((_req, res) => json(res, 200, { message: 'ok', data: { assistants: [assistant] } }));
  assert.deepEqual(
    (await api.listAssistants()).map((a) => a.id),
    ['a1'],
  );
});

describe("error bodies become one line of the service's words", () => {
  for (const [label, answer, words] of [
    ['a JSON string', (res: import('node:http').ServerResponse) => json(res, 400, 'customer.number is invalid'), 'customer.number is invalid'],
    ['{ error: "…" }', (res: import('node:http').ServerResponse) => json(res, 400, { error: 'customer.number is invalid' }), 'customer.number is invalid'],
    [
      '{ error: { message, code } }',
      (res: import('node:http').ServerResponse) => json(res, 400, { error: { message: 'customer.number is invalid', code: 'E_NUMBER' } }),
      'customer.number is invalid (E_NUMBER)',
    ],
    [
      '{ errors: [...] }',
      (res: import('node:http').ServerResponse) => json(res, 422, { errors: [{ message: 'customer.number is invalid' }, 'name is too long'] }),
      'customer.number is invalid; name is too long',
    ],
    [
      'an HTML page',
      (res: import('node:http').ServerResponse) => text(res, 400, 'text/html', '<html><head><title>Invalid number</title></head><body>…</body></html>'),
      'Invalid number',
    ],
    ['text/plain', (res: import('node:http').ServerResponse) => text(res, 400, 'text/plain', 'customer.number is invalid'), 'customer.number is invalid'],
  ] as const) {
    test(label, async () => {
      const { api } = await serve((_req, res) => answer(res));
      const err = await api.placeOutboundCall(outbound).then(
        () => assert.fail('should throw'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ApiError && !(err instanceof ResponseShapeError), String(err));
      assert.equal(err.detail, words);
      assert.match(failure(err).message, new RegExp(`failed \\(4\\d\\d\\): ${words.replace(/[()]/g, '\\$&')}$`));
    });
  }
});

describe('a 2xx to a write is a success whatever its body', () => {
  test('numbers link answered 200 text/plain: the text is the message', async () => {
    const { api } = await serve((_req, res) => text(res, 200, 'text/plain; charset=utf-8', 'Inbound agent configured successfully'));
    assert.deepEqual(await api.linkNumber({ assistantId: 'a1', phoneNumberId: 'p1' }), { message: 'Inbound agent configured successfully' });
  });

  test('a delete answered 204 with no body is done', async () => {
    const { api } = await serve((_req, res) => text(res, 204, '', ''));
    assert.deepEqual(await api.deleteFile('f1'), { message: '' });
  });

  test('an outbound call accepted with no call in the answer: no record, what came back, never an error', async () => {
    for (const answer of [
      (res: import('node:http').ServerResponse) => json(res, 201, { message: 'Call queued' }),
      (res: import('node:http').ServerResponse) => text(res, 202, 'text/plain', 'Call queued'),
      (res: import('node:http').ServerResponse) => text(res, 200, 'text/html', '<html><title>Call queued</title></html>'),
      (res: import('node:http').ServerResponse) => json(res, 201, { message: 'Call queued', data: { status: 'queued' } }),
    ]) {
      const { api, server } = await serve((_req, res) => answer(res));
      const placed = await api.placeOutboundCall(outbound);
      assert.equal(placed.record, undefined);
      assert.ok(placed.unread, 'says what came back');
      assert.equal(placed.unread.said, 'Call queued');
      assert.ok(placed.unread.status >= 200 && placed.unread.status < 300);
      assert.equal(server.requests.length, 1, 'sent once, nothing re-read');
    }
  });

  test('an update answered without a record is re-read', async () => {
    const { api, server } = await serve((req, res) =>
      req.method === 'PATCH' ? text(res, 200, 'text/plain', 'Updated') : json(res, 200, { ...assistant, name: 'Renamed' }),
    );
    const updated = await api.updateAssistant('a1', { name: 'Renamed' });
    assert.equal(updated.record?.name, 'Renamed');
    assert.deepEqual(updated.record?.notApplied, []);
    assert.equal(updated.unread?.said, 'Updated');
    assert.equal(updated.unread?.recordFrom, 'a re-read of the assistant');
    assert.deepEqual(
      server.requests.map((r) => r.method),
      ['PATCH', 'GET'],
    );
  });

  test('a create answered without a record finds the newest assistant with that name', async () => {
    const older = { id: 'a0', name: 'Front desk', createdAt: '2026-10-01T00:00:00.000Z' };
    const newer = { id: 'a9', name: 'Front desk', createdAt: '2026-11-25T00:00:00.000Z' };
    const { api, server } = await serve((req, res) =>
      req.method === 'POST'
        ? json(res, 201, { message: 'Assistant created successfully' })
        : json(res, 200, [older, newer, { id: 'x', name: 'Other', createdAt: '2026-11-26T00:00:00.000Z' }]),
    );
    const created = await api.createAssistant({ name: 'Front desk' });
    assert.equal(created.record?.id, 'a9');
    assert.equal(created.unread?.said, 'Assistant created successfully');
    assert.match(created.unread?.recordFrom ?? '', /newest assistant named "Front desk"/);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
  });

  test('a read answered with a web page hints that the base URL is elsewhere; a read in a shape we did not expect does not', async () => {
    const page = await serve((_req, res) => text(res, 200, 'text/html', '<html><title>Welcome</title></html>'));
    const err = await page.api.listAssistants().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.match(failure(err).hint ?? '', /is the Voice Agent Service/);
    const odd = await serve((_req, res) => json(res, 200, { total: 3 }));
    const shape = await odd.api.listAssistants().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(shape instanceof ResponseShapeError);
    assert.doesNotMatch(failure(shape).hint ?? '', /Voice Agent Service/);
    // A 404 page for the whole collection: not this API. For one id: an ordinary 404, the page's words kept.
    const missing = await serve((_req, res) =>
      text(res, 404, 'text/html', '<html><title>404 Not Found</title><h1>Not Found</h1><p>Assistant not found</p></html>'),
    );
    assert.match(failure(await missing.api.listAssistants().catch((e: unknown) => e)).hint ?? '', /is the Voice Agent Service/);
    const one = failure(await missing.api.getAssistant('nope').catch((e: unknown) => e));
    assert.match(one.message, /failed \(404\): Assistant not found$/);
    assert.doesNotMatch(one.hint ?? '', /Voice Agent Service/);
  });
});

describe('a write whose fate is unknown is not sent again, and says how to check', () => {
  test('an outbound call that times out is sent once; the message says it may have happened and where to look', async () => {
    const { api, server } = await serve((req) => void drain(req), { timeouts: { headersMs: 200 }, retries: 3 });
    const err = await api.placeOutboundCall(outbound).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError && err.phase === 'headers', String(err));
    assert.equal(err.mayHaveActed, true);
    assert.equal(server.requests.length, 1, 'never re-sent');
    const f = failure(err);
    assert.match(
      f.message,
      new RegExp(
        String.raw`did not start answering .*; it may have happened anyway: look in the call log for a call to \+14155550123 ` +
          String.raw`\(${'`'}switchboard calls list --assistant a1 --number p1 --after \d{4}-\d\d-\d\dT[\d:.]+Z${'`'}\)`,
      ),
    );
    assert.match(f.hint ?? '', /twice/);
  });

  test('a create whose connection is lost after sending is sent once and may have happened', async () => {
    const { api, server } = await serve((req) => void drain(req).then(() => req.socket.destroy()), { retries: 3 });
    const err = await api.createAssistant({ name: 'Front desk' }).then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof NetworkError, String(err));
    assert.equal(server.requests.length, 1);
    assert.match(failure(err).message, /may have happened anyway: look for "Front desk" in `switchboard assistants list`/);
  });

  test('an outbound call answered 503 is not retried, while a read is', async () => {
    const { api, server } = await serve((req, res) => json(res, 503, { message: 'busy' }), { retries: 2 });
    await assert.rejects(api.placeOutboundCall(outbound), (e: unknown) => e instanceof ApiError && e.status === 503);
    assert.equal(server.requests.length, 1);
    await assert.rejects(api.listAssistants(), (e: unknown) => e instanceof ApiError && e.status === 503);
    assert.equal(server.requests.length, 4, 'the GET was tried three times');
  });

  test('a read that times out never says it may have happened', async () => {
    const { api, server } = await serve((req, res, n) => (n === 1 ? void drain(req) : json(res, 200, [assistant])), {
      timeouts: { headersMs: 200 },
      retries: 1,
    });
    const err = await api.listAssistants().then(
      () => assert.fail('should throw'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError);
    assert.equal(err.mayHaveActed, false);
    assert.doesNotMatch(failure(err).message, /may have happened/);
    assert.equal(server.requests.length, 1);
  });
});
