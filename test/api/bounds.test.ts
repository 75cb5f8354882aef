// Every read from the network is bounded in size and in time: an answer that never ends stops at
// the most the client reads, and one trickled a byte at a time (never silent long enough for the
// body timeout) stops at the request's overall deadline. Each says which bound ended it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { failure, ResponseTooLargeError, TimeoutError } from '../../src/api/errors.js';
import { startFaultyServer, type FaultyServer } from '../support/faulty-server.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

let endless: FaultyServer;
let trickle: FaultyServer;
let home: CliHome;
before(async () => {
  endless = await startFaultyServer({ mode: 'endless' });
  trickle = await startFaultyServer({ mode: 'trickle' });
  home = tempHome();
});
after(async () => {
  await endless.close();
  await trickle.close();
  home.cleanup();
});

test('an answer that never ends is stopped at the most the client reads, with an error that says so', { timeout: 60_000 }, async () => {
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

test('an answer trickled a byte at a time ends at the overall deadline, named as such', { timeout: 60_000 }, async () => {
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

test('a command against an endless answer exits 1 with one line naming the bound, which the environment can set', { timeout: 60_000 }, async () => {
  const r = await runCli(['assistants', 'list'], { env: { ...home.env, SWITCHBOARD_BASE_URL: endless.url, SWITCHBOARD_API_KEY: 'sk-test-bounds-0000', SWITCHBOARD_MAX_RESPONSE_MB: '2' } });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /larger than 2 MB, the most Switchboard reads/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});
