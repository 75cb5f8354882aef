// The commands against a deliberately faulty service: every fault ends with exit 1 and one
// clear line on stderr, no stack trace, nothing on stdout, and never the key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';
import { FAULT_MODES, startFaultyServer, type FaultMode, type FaultyServer } from '../support/faulty-server.js';

const KEY = 'sk-faulty-0123456789abcdef-c0de';

/** What the one line must say for each fault, so the user knows what went wrong. */
const SAYS: Record<Exclude<FaultMode, 'healthy'>, RegExp> = {
  refuse: /connection refused/,
  reset: /closed before the service answered|cut short/,
  slow: /did not start answering within/,
  '500': /\(500\): faulty server answering 500/,
  '502': /\(502\)/,
  '503': /\(503\): faulty server answering 503/,
  'malformed-json': /malformed/i,
  html: /\(502\)/,
  'wrong-shape': /unexpected shape/,
};

let home: CliHome;
const servers: FaultyServer[] = [];
before(() => {
  home = tempHome();
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  home.cleanup();
});

function checkOneLine(r: CliResult, args: string[], says: RegExp): string {
  const where = `${args.join(' ')} →\n${r.stderr}`;
  assert.equal(r.code, 1, where);
  assert.equal(r.stdout, '', where);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line: ${where}`);
  assert.match(lines[0], /^switchboard: could not /, where);
  assert.match(lines[0], says, where);
  assert.doesNotMatch(r.stderr, /\bat .+\.(js|ts):\d+|Error:|\[object Object\]/, `no stack or internals: ${where}`);
  assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY), 'the key is never printed');
  return lines[0];
}

/**
 * A write answered 2xx happened, whatever its body: it exits 0 and says the answer held no record
 * it could read, and where to look for it; never "could not".
 */
function checkAcceptedUnread(r: CliResult, args: string[]): string {
  const where = `${args.join(' ')} →\n${r.stderr}`;
  assert.equal(r.code, 0, where);
  assert.match(r.stderr, /the assistant was created; its answer \(200: .*\) held no record Switchboard can read/, where);
  assert.match(r.stderr, /its id is unknown; look for it in: switchboard assistants list/, where);
  assert.doesNotMatch(r.stderr, /could not|\bat .+\.(js|ts):\d+|Error:|\[object Object\]/, `not a failure, no stack or internals: ${where}`);
  assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY), 'the key is never printed');
  return r.stderr.split('\n')[0];
}

/** Faults that answer 200 with a body that is no record: a write's 2xx is a success all the same. */
const ANSWERED_2XX: readonly FaultMode[] = ['malformed-json', 'wrong-shape'];

describe('commands against a faulty service', { concurrency: true }, () => {
  for (const mode of FAULT_MODES) {
    const title = ANSWERED_2XX.includes(mode)
      ? `${mode}: reads exit 1 with one line, writes answered 2xx exit 0 saying no record came back`
      : `${mode}: reads and writes exit 1 with one line`;
    test(title, async () => {
      const server = await startFaultyServer({ mode });
      servers.push(server);
      const env = { ...home.env, SWITCHBOARD_BASE_URL: server.url, SWITCHBOARD_API_KEY: KEY };
      const write = ['assistants', 'create', '--file', '-'];
      if (ANSWERED_2XX.includes(mode)) {
        const read = checkOneLine(await runCli(['numbers', 'list'], { env }), ['numbers', 'list'], SAYS[mode as Exclude<FaultMode, 'healthy'>]);
        const wrote = checkAcceptedUnread(await runCli(write, { env, stdin: '{"name": "Fault test"}' }), write);
        console.log(`fault ${mode}: ${read} | ${wrote}`);
        return;
      }
      const runs: string[][] = [['numbers', 'list'], write];
      const said = await Promise.all(
        runs.map(async (args) => checkOneLine(await runCli(args, { env, stdin: '{"name": "Fault test"}' }), args, SAYS[mode as Exclude<FaultMode, 'healthy'>])),
      );
      console.log(`fault ${mode}: ${said.join(' | ')}`);
    });
  }

  test('with --debug the extra lines are debug lines, and still never the key', async () => {
    const server = await startFaultyServer({ mode: '503' });
    servers.push(server);
    const r = await runCli(['--debug', 'assistants', 'list'], { env: { ...home.env, SWITCHBOARD_BASE_URL: server.url, SWITCHBOARD_API_KEY: KEY } });
    assert.equal(r.code, 1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    assert.ok(lines.length > 1, r.stderr);
    assert.deepEqual(lines.filter((l) => !l.startsWith('debug: ')).length, 1, r.stderr);
    assert.ok(!r.stderr.includes(KEY));
    assert.ok(server.seen.length >= 3, 'a GET is retried on 503');
  });
});
