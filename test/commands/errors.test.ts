// Exit codes, one-line errors with hints, --debug, and the key never printed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, tempHome, type CliResult } from '../support/cli.js';

const on = sandboxForCli();

function noKey(r: CliResult, key: string): void {
  assert.ok(!r.stdout.includes(key), 'key in stdout');
  assert.ok(!r.stderr.includes(key), 'key in stderr');
}

function oneLine(r: CliResult): string {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${r.stderr}`);
  assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
  return lines[0];
}

describe('exit codes and errors', () => {
  test('0 on success, nothing on stderr', async () => {
    const r = await runCli(['numbers', 'list'], { env: on.env });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
  });

  test('4 when the key is refused, with the hint to log in; the wrong key is not printed', async () => {
    const wrong = 'sk-wrong-key-0123456789';
    const r = await runCli(['assistants', 'list', '--debug'], { env: { ...on.env, SWITCHBOARD_API_KEY: wrong } });
    assert.equal(r.code, 4);
    assert.match(r.stderr, /could not list assistants: .*401/);
    assert.match(r.stderr, /switchboard login/);
    noKey(r, wrong);
  });

  // `assistants get` looks the name up first (an unknown one is a usage error, exit 2); `calls get` sends the id as given.
  test('1 for a service error (404), one line naming what failed', async () => {
    const r = await runCli(['calls', 'get', 'no-such-call'], { env: on.env });
    assert.equal(r.code, 1);
    const line = oneLine(r);
    assert.match(line, /^switchboard: could not get the call: .*404/);
    assert.match(line, /hint: check the id/);
  });

  test('1 when the service cannot be reached', async () => {
    const r = await runCli(['numbers', 'list'], { env: { ...on.env, SWITCHBOARD_BASE_URL: 'http://127.0.0.1:9' } });
    assert.equal(r.code, 1);
    assert.match(oneLine(r), /could not list phone numbers: .*hint: check that the service is running/);
  });

  test('2 for a mistyped command, with a suggestion', async () => {
    const r = await runCli(['asistants', 'list'], { env: on.env });
    assert.equal(r.code, 2);
    assert.match(oneLine(r), /unknown command 'asistants'.*Did you mean assistants\?/);
    const sub = await runCli(['calls', 'lsit'], { env: on.env });
    assert.equal(sub.code, 2);
    assert.match(sub.stderr, /Did you mean list\?/);
  });

  test('2 for bad values, named, before any request is made', async () => {
    const cases: [string[], RegExp][] = [
      [['calls', 'outbound', '--assistant', 'a', '--number', 'n', '--to', '4155550123'], /--to .*'4155550123'.*E\.164/],
      [['calls', 'list', '--limit', '0'], /--limit .*'0'.*positive whole number/],
      [['calls', 'list', '--limit', 'ten'], /--limit .*'ten'/],
      [['calls', 'list', '--after', 'yesterday-ish'], /--after .*'yesterday-ish'.*not a date/],
      [['calls', 'list', '--before', '2026-02-30'], /--before .*'2026-02-30'/],
      [['assistants', 'get', '  '], /' {2}' is invalid for argument 'id'.*must not be empty/],
      [['files', 'upload', '/no/such/file.txt'], /cannot read \/no\/such\/file\.txt: no such file/],
      [['assistants', 'update', 'some-id'], /nothing to update/],
      [['assistants', 'update', 'some-id', '--status', 'maybe'], /--status .*'maybe'.*'on' or 'off'/],
      [['chat', 'send', '--session', 's', '--var', 'novalue', 'hi'], /--var .*'novalue'.*key=value/],
      [['files', 'list', '-o', 'yaml'], /'yaml' is invalid.*table, json, csv, ids|Allowed choices are table, json, csv, ids/],
      [['--profile', 'nope', 'numbers', 'list'], /no profile named "nope"/],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const r = await runCli(['--debug', ...args], { env: on.env });
        assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}: ${r.stderr}`);
        const line = oneLine(r);
        assert.match(line, message);
        assert.doesNotMatch(line, /debug:/, `${args.join(' ')} made a request`);
      }),
    );
  });

  test('a bare group shows its help on stderr and exits 2', async () => {
    const r = await runCli(['calls'], { env: on.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: switchboard calls/);
  });
});

describe('--debug', () => {
  test('prints each request and response line to stderr, never the key', async () => {
    const r = await runCli(['--debug', 'calls', 'list', '--limit', '3', '-o', 'json'], { env: on.env });
    assert.equal(r.code, 0);
    assert.match(r.stderr, /GET \/calls\?.*limit=3.*200/);
    noKey(r, on.sb.apiKey);
    assert.equal(JSON.parse(r.stdout).length, 3, 'debug lines stay out of stdout');
  });

  test('an embedded sandbox run keeps its generated key out of the debug log too', async () => {
    const own = tempHome();
    try {
      const r = await runCli(['--debug', 'numbers', 'list', '-o', 'ids'], { env: own.env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /GET \/phone-numbers/);
      assert.doesNotMatch(r.stderr + r.stdout, /sk-[A-Za-z0-9_-]{12,}/, 'no full-length key');
    } finally {
      own.cleanup();
    }
  });
});
