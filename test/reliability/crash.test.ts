// src/crash.ts: an unhandled rejection or exception writes its details (keys redacted) to the
// debug log in the XDG state dir; a command prints one line pointing at it and exits 1; the
// console (a registered reporter) shows a rejection as a flash and keeps running, and on an
// uncaught exception gives the terminal back, prints one line and exits 1.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CHILD = resolve('test/reliability/fixtures/crash-child.ts');
const SECRET = 'sk-crash-test-0123456789abcdef-c0de';
const PLAIN_CONFIG_KEY = 'plainprofilekey0123456789';
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; state: string }> {
  const home = mkdtempSync(join(tmpdir(), 'switchboard-crash-'));
  dirs.push(home);
  const config = join(home, 'config', 'switchboard');
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { prod: { baseUrl: 'https://x', apiKey: PLAIN_CONFIG_KEY } } }), { mode: 0o600 });
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_STATE_HOME: join(home, 'state'),
      XDG_CONFIG_HOME: join(home, 'config'),
      CRASH_SECRET: SECRET,
      CONFIG_KEY: PLAIN_CONFIG_KEY,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr, state: join(home, 'state', 'switchboard') })));
}

for (const kind of ['rejection', 'exception']) {
  test(`an unhandled ${kind} in a command: one line pointing at the debug log, exit 1, the key redacted everywhere`, async () => {
    const r = await run({ CRASH_KIND: kind });
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    const log = join(r.state, 'debug.log');
    assert.equal(lines[0], `switchboard: unexpected error: request with key sk-…c0de failed (details in ${log})`);
    const details = readFileSync(log, 'utf8');
    assert.match(details, new RegExp(`un(handledRejection|caughtException)`));
    assert.match(details, /at .*crash-child\.ts/, 'the log has the stack');
    assert.match(details, /cause: Error: inner/, 'and the cause');
    for (const out of [r.stdout, r.stderr, details]) {
      assert.ok(!out.includes(SECRET), 'the registered key never appears');
      assert.ok(!out.includes(PLAIN_CONFIG_KEY), 'nor a configured profile key');
    }
    assert.equal(statSync(log).mode & 0o777, 0o600);
    assert.equal(statSync(r.state).mode & 0o777, 0o700);
  });
}

// An uncaught exception, by contrast, restores the terminal, prints one line and exits 1.
test('in the console an unhandled rejection is a flash and the console carries on; an uncaught exception ends it cleanly', async () => {
  const r = await run({ CRASH_REPORTER: '1' });
  assert.equal(r.code, 1, r.stderr);
  const flashes = r.stdout.split('\n').filter((l) => l.startsWith('FLASH '));
  assert.equal(flashes.length, 1, r.stdout);
  assert.match(flashes[0], /^FLASH unexpected error: request with key sk-…c0de failed \(details in .*debug\.log\)$/);
  assert.match(r.stdout, /ALIVE/, 'the rejection did not end it');
  const log = join(r.state, 'debug.log');
  assert.deepEqual(r.stderr.split('\n').filter(Boolean), ['RESTORED', `switchboard: unexpected error: request with key sk-…c0de failed (details in ${log})`]);
  const details = readFileSync(log, 'utf8');
  assert.equal(details.match(/^--- /gm)?.length, 2, 'both failures logged');
  assert.match(details, /uncaughtException/);
  assert.ok(!(r.stdout + r.stderr + details).includes(SECRET));
});

test('the command line in the crash log masks a key given as a flag', async () => {
  const { argvForLog } = await import('../../src/crash.js');
  const key = 'plain-sandbox-key-4242';
  const shown = argvForLog(['sandbox', '--api-key', key, '--port', '4010', `--api-key=${key}`]).join(' ');
  assert.ok(!shown.includes(key), shown);
  assert.match(shown, /^sandbox --api-key \S+ --port 4010 --api-key=\S+$/);
});
