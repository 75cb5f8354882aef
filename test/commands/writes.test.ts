// Writes through the built CLI against a service that answers in other envelopes: a 2xx exits 0
// whatever its body, and a write whose fate is unknown is sent once and says how to check.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, tempHome } from '../support/cli.js';

const home = tempHome();
let server: Server;
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end();
const seen: string[] = [];
let env: NodeJS.ProcessEnv;
before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    // The whole request first, as a service would read it before acting.
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  env = { ...home.env, SWITCHBOARD_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, SWITCHBOARD_API_KEY: 'sk-test-writes-0000' };
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  home.cleanup();
});

const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const call = {
  id: 'call_7f3a',
  createdAt: '2026-11-25T10:00:00.000Z',
  status: 'queued',
  assistantId: 'asst_1',
  phoneNumberId: 'pn_1',
  customer: { number: '+14155550123' },
};
const OUTBOUND = ['calls', 'outbound', '--assistant', 'asst_1', '--number', 'pn_1', '--to', '+14155550123'];

describe('calls outbound', () => {
  test('answered { message, data } exits 0 and prints the call id', async () => {
    answer = json(201, { message: 'Call initiated successfully', data: call });
    const r = await runCli([...OUTBOUND, '-o', 'ids'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'call_7f3a\n');
    assert.equal(r.stderr, '');
  });

  test('a 2xx with no readable call exits 0, says the id is unknown and how to find the call', async () => {
    answer = json(201, { message: 'Call queued' });
    seen.length = 0;
    const r = await runCli(OUTBOUND, { env });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /could not|failed/);
    assert.match(r.stderr, /the service accepted the call; its answer \(201: "Call queued"\)/);
    assert.match(r.stderr, /the call's id is unknown; to find it: switchboard calls list --assistant asst_1 --number pn_1 --after \d{4}-\d\d-\d\dT/);
    assert.deepEqual(
      seen.filter((s) => !s.startsWith('GET ')),
      ['POST /calls/outbound'],
    );
  });

  test('a connection lost after sending: sent once, and the message says it may have happened and where to look', async () => {
    answer = (req) => req.socket.destroy();
    seen.length = 0;
    const r = await runCli(OUTBOUND, { env });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /it may have happened anyway: look in the call log for a call to \+14155550123 \(`switchboard calls list --assistant asst_1 --number pn_1 --after /,
    );
    assert.deepEqual(
      seen.filter((s) => !s.startsWith('GET ')),
      ['POST /calls/outbound'],
      'never re-sent',
    );
  });
});

describe('other writes', () => {
  test("numbers link answered 200 text/plain prints the service's text", async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Inbound agent configured successfully');
    const r = await runCli(['numbers', 'link', 'pn_1', '--assistant', 'asst_1'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Inbound agent configured successfully\n');
  });

  test('assistants create answered { message, data } exits 0 and prints the assistant', async () => {
    answer = json(201, { message: 'Assistant created successfully', data: { id: 'asst_new', name: 'Front desk' } });
    const r = await runCli(['assistants', 'create', '--file', '-', '-o', 'ids'], { env, stdin: JSON.stringify({ name: 'Front desk' }) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'asst_new\n');
  });

  test('assistants update answered 200 text/plain exits 0 and shows the re-read record', async () => {
    answer = (req, res) =>
      req.method === 'PATCH'
        ? res.writeHead(200, { 'content-type': 'text/plain' }).end('Assistant updated')
        : json(200, { id: 'asst_1', name: 'Renamed' })(req, res);
    const r = await runCli(['assistants', 'update', 'asst_1', '--name', 'Renamed', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).name, 'Renamed');
    assert.match(r.stderr, /the assistant was updated; its answer \(200: "Assistant updated"\).*the record shown is a re-read of the assistant/);
  });
});
