// --read-only through the built CLI: every write command refuses with one line, exit 2, and sends
// no write to the service (a recording server sees GETs only); reads still work. A profile's
// readOnly setting does the same, and local writes (config, archive) are refused under the flag.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome } from '../support/cli.js';

const home = tempHome();
let server: Server;
const seen: string[] = [];
let env: NodeJS.ProcessEnv;
let baseUrl: string;
const assistant = { id: 'asst_1', name: 'Front desk', createdAt: '2026-11-25T10:00:00.000Z' };
const number = { id: 'pn_1', did: '+12125550142', createdAt: '2026-11-25T10:00:00.000Z' };

before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      // The lists hold the records the writes name (commands look names up with a read first).
      const body = req.url?.startsWith('/assistants/asst_1')
        ? assistant
        : req.url?.startsWith('/assistants')
          ? [assistant]
          : req.url?.startsWith('/phone-numbers')
            ? [number]
            : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = { ...home.env, SWITCHBOARD_BASE_URL: baseUrl, SWITCHBOARD_API_KEY: 'sk-test-readonly-0000' };
  writeFileSync(join(home.dir, 'spec.json'), JSON.stringify({ name: 'New' }));
  writeFileSync(join(home.dir, 'kb.txt'), 'opening hours: 9 to 5\n');
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  home.cleanup();
});

const WRITES: [string, string[], RegExp][] = [
  ['assistants create', ['assistants', 'create', '--file', 'SPEC'], /POST \/assistants refused/],
  ['assistants update', ['assistants', 'update', 'asst_1', '--name', 'x'], /PATCH \/assistants\/asst_1 refused/],
  ['assistants clone', ['assistants', 'clone', 'asst_1'], /POST \/assistants refused/],
  ['numbers link', ['numbers', 'link', 'pn_1', '--assistant', 'asst_1'], /POST \/phone-numbers\/inbound\/setup refused/],
  ['calls outbound', ['calls', 'outbound', '--assistant', 'asst_1', '--number', 'pn_1', '--to', '+14155550123'], /POST \/calls\/outbound refused/],
  ['sessions create', ['sessions', 'create', '--assistant', 'asst_1'], /POST \/sessions refused/],
  ['chat send', ['chat', 'send', 'hello', '--session', 'sess_1'], /POST \/chats refused/],
  ['files upload', ['files', 'upload', 'KB'], /POST \/files refused/],
  ['files delete', ['files', 'delete', 'file_1', '--yes'], /DELETE \/files\/file_1 refused/],
];

describe('--read-only', () => {
  for (const [name, args, refused] of WRITES) {
    test(`${name} refuses with one line and sends no write`, async () => {
      seen.length = 0;
      const argv = args.map((a) => (a === 'SPEC' ? join(home.dir, 'spec.json') : a === 'KB' ? join(home.dir, 'kb.txt') : a));
      const r = await runCli(['--read-only', ...argv], { env });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, refused);
      assert.match(r.stderr, /^switchboard: read-only: .*nothing was sent or changed; run without --read-only/);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.deepEqual(
        seen.filter((s) => !s.startsWith('GET ')),
        [],
      );
    });
  }

  test('reads still work', async () => {
    seen.length = 0;
    const r = await runCli(['--read-only', 'assistants', 'list', '-o', 'ids'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'asst_1\n');
  });

  test('local writes are refused: login, profiles use / remove / read-only, archive clear, sandbox ring and seed', async () => {
    for (const args of [
      ['login', '--profile', 'p', '--base-url', baseUrl],
      ['profiles', 'use', 'sandbox'],
      ['profiles', 'remove', 'p'],
      ['profiles', 'read-only', 'p', 'on'],
      ['archive', 'clear', '--yes'],
      ['sandbox', 'ring', '+14155550100'],
      ['sandbox', 'seed', '--calls', '1'],
    ]) {
      const r = await runCli(['--read-only', ...args], { env: home.env, stdin: 'sk-test-readonly-0000\n' });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^switchboard: read-only: .* refused, nothing was sent or changed/);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    }
    assert.ok(!existsSync(join(home.env.XDG_DATA_HOME!, 'switchboard', 'sandbox')), 'no sandbox data dir was made');
  });
});

describe("a profile's readOnly", () => {
  test('profiles read-only on refuses writes through the profile, and off allows them again', async () => {
    const login = await runCli(['login', '--profile', 'prod', '--base-url', baseUrl], { env: home.env, stdin: 'sk-test-readonly-0000\n' });
    assert.equal(login.code, 0, login.stderr);
    assert.equal((await runCli(['profiles', 'read-only', 'prod', 'on'], { env: home.env })).code, 0);
    const list = await runCli(['profiles', 'list', '-o', 'json'], { env: home.env });
    assert.equal((JSON.parse(list.stdout) as { id: string; readOnly?: boolean }[]).find((p) => p.id === 'prod')?.readOnly, true);
    seen.length = 0;
    const refused = await runCli(['--profile', 'prod', 'files', 'delete', 'file_1', '--yes'], { env: home.env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /read-only: DELETE \/files\/file_1 refused/);
    assert.deepEqual(seen, []);
    assert.equal((await runCli(['profiles', 'read-only', 'prod', 'off'], { env: home.env })).code, 0);
    const sent = await runCli(['--profile', 'prod', 'files', 'delete', 'file_1', '--yes'], { env: home.env });
    assert.equal(sent.code, 0, sent.stderr);
    assert.deepEqual(seen, ['DELETE /files/file_1']);
  });
});
