// Records in, records out: a call in the hosted platform's shape, served by a tiny service on
// loopback, is printed by `calls get -o json`, `calls list -o json` and `calls export` exactly as
// it was sent (no `content: ''` added to its messages, nothing defaulted), while the commands
// that show it to people read its view (duration from startedAt/endedAt, analysis.summary).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { VAPI_CALL } from '../support/vapi-records.js';

/** A session whose messages name no role, the text in `content` or `message`. */
const SESSION = { id: 'sess_1', name: 'No roles', status: 'active', messages: [{ content: 'When do you open?' }, { message: 'At nine, every weekday.' }] };
/** The platform's number and file: "the service" is `organization`; the number names no assistant. */
const NUMBER = { id: 'pn_1', did: '+14155550123', provider: 'twilio', status: true, organization: { id: 'org_1', name: 'Harbourview' } };
const FILE = { id: 'file_1', name: 'prices.pdf', bytes: 1200, status: 'done', organization: { id: 'org_1', name: 'Harbourview' } };

let server: Server;
let home: CliHome;
let env: NodeJS.ProcessEnv;

before(async () => {
  home = tempHome();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const created = Date.parse(VAPI_CALL.createdAt);
    const bound = (names: string[]) => names.map((n) => url.searchParams.get(n)).find((v) => v !== null);
    const gt = bound(['createdAtGt', 'createdAtGe']);
    const lt = bound(['createdAtLt', 'createdAtLe']);
    const inRange = (!gt || created >= Date.parse(gt)) && (!lt || created <= Date.parse(lt));
    const id = url.searchParams.get('id');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/calls' || url.pathname === '/calls/details') {
      // Vapi's list endpoints answer with a bare array.
      res.end(JSON.stringify(inRange && (!id || id === VAPI_CALL.id) ? [VAPI_CALL] : []));
    } else if (url.pathname === '/chats/session/sess_1') {
      res.end(JSON.stringify({ session: SESSION }));
    } else if (url.pathname === '/phone-numbers') {
      res.end(JSON.stringify({ phoneNumbers: [NUMBER] }));
    } else if (url.pathname === '/phone-numbers/inbound/setup' && req.method === 'POST') {
      res.end(JSON.stringify({ message: 'Inbound agent configured successfully' }));
    } else if (url.pathname === '/files') {
      res.end(JSON.stringify({ files: [FILE], pagination: { total: 1, page: 1, limit: 10, totalPages: 1 } }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'Not Found' }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  env = { ...home.env, SWITCHBOARD_BASE_URL: `http://127.0.0.1:${port}`, SWITCHBOARD_API_KEY: 'sk-records-test-0000' };
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  home.cleanup();
});

test("calls get -o json prints the service's record unchanged", async () => {
  const r = await runCli(['calls', 'get', VAPI_CALL.id, '-o', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), VAPI_CALL);
});

test('calls list -o json prints the records unchanged', async () => {
  const r = await runCli(['calls', 'list', '-o', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [VAPI_CALL]);
});

test('calls export prints the records unchanged', async () => {
  const r = await runCli(['calls', 'export'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
    [VAPI_CALL],
  );
});

test("calls get for people shows the duration, summary and words the record holds in the platform's shape", async () => {
  const r = await runCli(['calls', 'get', VAPI_CALL.id], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /duration\s+84s/);
  assert.match(r.stdout, /summary\s+The caller moved a cleaning appointment to Thursday\./);
  assert.match(r.stdout, /\ntranscript\n {2}Assistant: .+\n {2}Caller: I would like to move my appointment to Thursday\./);
  assert.doesNotMatch(r.stdout, /"message":/, 'the turns as a dialogue, not as JSON');
  const list = await runCli(['calls', 'list', '-o', 'csv'], { env });
  assert.equal(list.code, 0, list.stderr);
  const [head, row] = list.stdout.trim().split('\n');
  const cols = head.split(',');
  assert.equal(row.split(',')[cols.indexOf('duration')], '83.5');
  assert.equal(row.split(',')[cols.indexOf('cost')], '0.15');
});

test('a session whose messages name no role is readable, and printed as sent', async () => {
  const shown = await runCli(['sessions', 'show', 'sess_1'], { env });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /When do you open\?/);
  assert.match(shown.stdout, /At nine, every weekday\./);
  const json = await runCli(['sessions', 'show', 'sess_1', '-o', 'json'], { env });
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), SESSION);
});

test('numbers: the assistant this profile linked is shown, labelled, where the service does not say it; files show their organization', async () => {
  const before = await runCli(['numbers', 'list', '-o', 'csv'], { env });
  assert.equal(before.code, 0, before.stderr);
  assert.doesNotMatch(before.stdout, /asst_9/);
  const linked = await runCli(['numbers', 'link', 'pn_1', '--assistant', 'asst_9'], { env });
  assert.equal(linked.code, 0, linked.stderr);
  const after = await runCli(['numbers', 'list', '-o', 'csv'], { env });
  assert.match(after.stdout, /asst_9 \(linked here\)/);
  const json = await runCli(['numbers', 'list', '-o', 'json'], { env });
  assert.deepEqual(JSON.parse(json.stdout), [NUMBER], 'the record itself is printed as sent');
  const files = await runCli(['files', 'list', '-o', 'csv'], { env });
  assert.equal(files.code, 0, files.stderr);
  assert.match(files.stdout, /Harbourview \(org_1\)/);
});
