// Command output: a service's long error body is cut to a few lines (--debug prints
// it whole), and the words are the console's: "1 file", one status word (active/inactive).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { activeWord, count } from '../../src/format/words.js';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli } from '../support/cli.js';
import { parseCsv } from './csv.js';

const on = sandboxForCli();

/** A service that answers every request with `status` and `body`. */
let server: Server;
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let remote: NodeJS.ProcessEnv;
before(async () => {
  server = createServer((_req, res) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  remote = { ...on.env, SWITCHBOARD_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, SWITCHBOARD_API_KEY: 'sk-test-words-0000' };
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('error bodies', () => {
  test('a long error message is cut to a few lines with how many more; --debug prints it whole', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `trace line ${i + 1}`);
    answer = { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: lines.join('\n') } };
    const r = await runCli(['assistants', 'list'], { env: remote });
    assert.equal(r.code, 1);
    const out = r.stderr.trimEnd().split('\n');
    assert.ok(out.length <= 5, `at most a few lines:\n${r.stderr}`);
    assert.match(out[0], /^switchboard: could not list assistants: GET \/assistants failed \(500\): trace line 1$/);
    assert.match(r.stderr, /…\(47 more lines; --debug prints them all\)/);
    assert.match(r.stderr, /hint: the service had a problem/);
    assert.ok(!r.stderr.includes('trace line 50'));
    const debug = await runCli(['--debug', 'assistants', 'list'], { env: remote });
    assert.ok(debug.stderr.includes('trace line 50'), 'all of it with --debug');

    answer = { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'x'.repeat(20_000) } };
    const wide = await runCli(['assistants', 'list'], { env: remote });
    assert.equal(wide.code, 1);
    assert.ok(wide.stderr.length < 1000, `one 20,000-character line is cut too (${wide.stderr.length} characters)`);
    assert.match(wide.stderr, /more lines; --debug/);

    answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'no assistant with id x' } };
    const short = await runCli(['assistants', 'get', 'x'], { env: remote });
    assert.equal(short.stderr.trimEnd().split('\n').length, 1, 'a short message stays one line');
  });
});

describe('words', () => {
  test('one status word in commands and console: active / inactive', async () => {
    const id = (await runCli(['assistants', 'create', '--file', '-', '-o', 'ids'], { env: on.env, stdin: JSON.stringify({ name: 'Off duty' }) })).stdout.trim();
    assert.equal((await runCli(['assistants', 'update', id, '--status', 'off'], { env: on.env })).code, 0);
    for (const args of [
      ['assistants', 'list'],
      ['numbers', 'list'],
    ]) {
      const rows = parseCsv((await runCli([...args, '-o', 'csv'], { env: on.env })).stdout);
      const col = rows[0].indexOf('status');
      const words = new Set(rows.slice(1).map((r) => r[col]));
      assert.ok(
        [...words].every((w) => w === activeWord(true) || w === activeWord(false)),
        `${args.join(' ')}: ${[...words].join(', ')}`,
      );
    }
    const rows = parseCsv((await runCli(['assistants', 'list', '-o', 'csv'], { env: on.env })).stdout);
    assert.equal(rows.find((r) => r[0] === id)?.[rows[0].indexOf('status')], 'inactive');
  });

  test('"1 file", not "1 files"', async () => {
    assert.equal(count(1, 'message'), '1 message');
    assert.equal(count(2, 'call'), '2 calls');
    answer = { status: 200, body: { files: [], pagination: { total: 1, page: 2, limit: 1, totalPages: 1 } } };
    const r = await runCli(['files', 'list', '--page', '2', '--limit', '1'], { env: remote });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /page 2 is past the last page \(1, 1 file\)/);
  });
});
