// The console says when the service rate-limits it: a real terminal (tmux, built binary) against
// a small real server whose first answer is 429 with Retry-After, then the list. The call
// archive's sync, which runs in a worker thread (dist/chunks/sync-worker.mjs), says so too, and
// its requests reach the --debug log like the console's own.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

const home = mkdtempSync(join(tmpdir(), 'sb-429-'));
let t: TmuxSession | undefined;
let sync: TmuxSession | undefined;
after(() => {
  t?.kill();
  sync?.kill();
  removeTree(home);
});

test('the console shows "rate limited, retrying in Ns" and then the list', { skip }, async () => {
  let limited = false;
  const server = createServer((req, res) => {
    if (!limited && req.url?.startsWith('/assistants')) {
      limited = true;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' })
        .end(JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' }));
      return;
    }
    const now = new Date().toISOString();
    const body = req.url?.startsWith('/assistants') ? [{ id: 'a1', name: 'Patient Desk', createdAt: now, updatedAt: now }] : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    t = startTmux({
      name: `sb-429-${process.pid}`,
      cwd: root,
      command: `${JSON.stringify(process.execPath)} ${cli}`,
      env: {
        ...homeEnv(home),
        TERM: 'xterm-256color',
        SWITCHBOARD_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        SWITCHBOARD_API_KEY: 'sk-test-429-00000000000',
      },
    });
    await t.waitFor('rate limited, retrying in 3s');
    await t.waitFor('Patient Desk');
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("the call archive's sync, in its worker thread, says it is rate limited, fills the log and logs its requests under --debug", { skip }, async () => {
  const key = 'sk-test-429-sync-0000000000';
  const now = new Date().toISOString();
  const call = {
    id: 'call-worker-1',
    createdAt: now,
    updatedAt: now,
    type: 'inboundPhoneCall',
    status: 'ended',
    assistantId: 'a1',
    customer: { number: '+15550104242', name: 'Rita Worker' },
    durationSeconds: 61,
    cost: 0.12,
    transcript: 'hello',
  };
  let limited = false;
  const server = createServer((req, res) => {
    if (!limited && req.url?.startsWith('/calls/details')) {
      limited = true;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' })
        .end(JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' }));
      return;
    }
    const body = req.url?.startsWith('/calls/details') ? [call] : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = join(home, 'sync');
  try {
    sync = startTmux({
      name: `sb-429-sync-${process.pid}`,
      cwd: root,
      command: `${JSON.stringify(process.execPath)} ${cli} --debug`,
      env: {
        ...homeEnv(dir),
        TERM: 'xterm-256color',
        SWITCHBOARD_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        SWITCHBOARD_API_KEY: key,
      },
    });
    await sync.waitFor('Assistants');
    sync.keys('3');
    await sync.waitFor('rate limited, retrying in 2s');
    // The worker's sync filled the archive the call log reads.
    await sync.waitFor('+15550104242');
    await sync.waitFor(/synced \d+ s ago/);
    sync.keys('q');
    assert.equal(await sync.waitForExit(), 0);
    const log = readFileSync(join(dir, 'state', 'switchboard', 'debug.log'), 'utf8');
    assert.match(log, /GET \/calls\/details\S* → 429 .*rate limited/, "the sync's 429 in the debug log");
    assert.match(log, /GET \/calls\/details\S* → 200/, 'and its answer');
    assert.ok(!log.includes(key), 'never the key');
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
