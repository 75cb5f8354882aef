// connect(): the one door to a service, embedded sandbox or remote, for console and commands.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../src/target.js';
import { NetworkError } from '../../src/api/errors.js';
import { startTestSandbox } from '../support/sandbox.js';

const home = mkdtempSync(join(tmpdir(), 'switchboard-home-'));
after(() => rmSync(home, { recursive: true, force: true }));

test('with nothing configured, connect() starts the embedded sandbox, seeded, over HTTP; close() stops it', async () => {
  const env = { HOME: home };
  const lines: string[] = [];
  const conn = await connect({ env, debug: (l) => lines.push(l) });
  let url: string;
  try {
    assert.equal(conn.target.kind, 'sandbox');
    assert.equal(conn.target.profile, 'sandbox');
    url = conn.target.baseUrl!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(conn.target.apiKey && conn.target.apiKey.length >= 16, 'a generated key');
    assert.ok((await conn.api.listAssistants()).length > 0, 'seeded on first run');
    assert.ok(existsSync(join(home, '.local', 'share', 'switchboard', 'sandbox')), 'data in the XDG data dir');
    assert.match(lines[0], /^GET \/assistants → 200/);
  } finally {
    await conn.close();
    await conn.close();
  }
  // The port is released: a fresh client finds nothing listening there.
  const { createClient } = await import('../../src/api/client.js');
  const probe = createClient({ baseUrl: url, apiKey: 'k', retries: 0 });
  await assert.rejects(probe.listAssistants(), NetworkError);
  await probe.close();

  // Second run on the same data dir: the records made before are still there, with a new key.
  const again = await connect({ env });
  try {
    assert.notEqual(again.target.apiKey, conn.target.apiKey);
    assert.ok((await again.api.listPhoneNumbers()).length >= 3);
  } finally {
    await again.close();
  }
});

test('SWITCHBOARD_BASE_URL + SWITCHBOARD_API_KEY connect to that service', async () => {
  const sb = await startTestSandbox();
  const conn = await connect({ env: { HOME: home, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey } });
  try {
    assert.deepEqual([conn.target.kind, conn.target.profile, conn.target.baseUrl], ['remote', 'env', sb.url]);
    assert.ok((await conn.api.listCalls({ limit: 1 })).length === 1);
  } finally {
    await conn.close();
    await sb.close();
  }
});

test('an unknown --profile fails before anything starts, naming the known profiles', async () => {
  await assert.rejects(connect({ profile: 'prod', env: { HOME: home } }), /no profile named "prod".*known profiles: sandbox/);
});
