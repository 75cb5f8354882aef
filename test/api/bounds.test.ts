// Every read from the network is bounded in size and in time: an answer that never ends stops at
// the most the client reads, and one trickled a byte at a time (never silent long enough for the
// body timeout) stops at the request's overall deadline. Each says which bound ended it.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { failure, ResponseTooLargeError, TimeoutError } from '../../src/api/errors.js';
import { startFaultyServer, type FaultyServer } from '../support/faulty-server.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { json, startServer } from './servers.js';

let endless: FaultyServer;
let trickle: FaultyServer;
let home: CliHome;
setUpAndTearDown(
  async () => {
    endless = await startFaultyServer({ mode: 'endless' });
    trickle = await startFaultyServer({ mode: 'trickle' });
    home = tempHome();
  },
  async () => {
    await endless.close();
    await trickle.close();
    home.cleanup();
  },
);

test('an answer that never ends is stopped at the most the client reads, with an error that says so', { timeout: 10 * 60_000 }, async () => {
  const api = createClient({ baseUrl: endless.url, apiKey: 'sk-test-bounds-0000', maxResponseBytes: 1024 * 1024, retries: 0 });
  try {
    const err = await api.listAssistants().then(
      () => assert.fail('an endless answer was taken as a list'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ResponseTooLargeError, String(err));
    assert.match(failure(err).message, /the answer to GET \/assistants was larger than 1 MB/);
    assert.match(failure(err).hint ?? '', /SWITCHBOARD_MAX_RESPONSE_MB/);
  } finally {
    await api.close();
  }
});

test('an answer trickled a byte at a time ends at the overall deadline, named as such', { timeout: 10 * 60_000 }, async () => {
  const api = createClient({ baseUrl: trickle.url, apiKey: 'sk-test-bounds-0000', timeouts: { bodyMs: 30_000, totalMs: 800 }, retries: 0 });
  try {
    const err = await api.listAssistants().then(
      () => assert.fail('a trickled answer was taken as a list'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TimeoutError, String(err));
    assert.equal(err.phase, 'total');
    assert.match(failure(err).message, /had not finished its answer after 0\.8s/);
  } finally {
    await api.close();
  }
});

test('a command against an endless answer exits 1 with one line naming the bound, which the environment can set', { timeout: 10 * 60_000 }, async () => {
  const r = await runCli(['assistants', 'list'], {
    env: { ...home.env, SWITCHBOARD_BASE_URL: endless.url, SWITCHBOARD_API_KEY: 'sk-test-bounds-0000', SWITCHBOARD_MAX_RESPONSE_MB: '2' },
  });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /larger than 2 MB, the most Switchboard reads/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test("ids '.' and '..' go on the wire percent-encoded, never as dot segments a proxy would resolve", async () => {
  const server = await startServer((_req, res) => json(res, 404, { statusCode: 404, error: 'Not Found', message: 'no such record' }));
  const api = createClient({ baseUrl: server.url, apiKey: 'sk-test-bounds-0000', retries: 0 });
  try {
    for (const id of ['.', '..']) {
      await api.deleteFile(id).catch(() => undefined);
      await api.getAssistant(id).catch(() => undefined);
      await api.updateAssistant(id, { name: 'x' }).catch(() => undefined);
      await api.getSession(id).catch(() => undefined);
      await api.getFile(id).catch(() => undefined);
    }
    const lines = server.requests.map((r) => `${r.method} ${r.url}`);
    assert.ok(lines.length >= 10, lines.join('\n'));
    for (const line of lines) assert.doesNotMatch(line, /\/\.\.?(\/|$|\?)/, `a dot segment on the wire: ${line}`);
    assert.ok(lines.includes('DELETE /files/%2E%2E'), lines.join('\n'));
    assert.ok(lines.includes('GET /assistants/%2E'), lines.join('\n'));
  } finally {
    await api.close();
    await server.close();
  }
});
