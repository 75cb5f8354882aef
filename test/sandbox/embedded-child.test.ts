// The console's embedded sandbox in a child process (src/sandbox/child.ts): it serves over real
// HTTP with a key made in the child, keeps its data across a stop, explains a bad data dir in one
// line, and never outlives the console, even one killed with SIGKILL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSandbox } from '../../src/sandbox/child.js';
import { until } from '../support/wait.js';
import { pidAlive } from '../../src/config/lock.js';
import { builtSkip, CLI } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
// The child is the built program, as the console forks its own program (`npm run build` first).
const entry = CLI;
const execArgv: string[] = [];
const skip = builtSkip();

async function get(url: string, apiKey: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  return { status: res.status, body: await res.json() };
}

test('serves the seeded data over HTTP, keeps writes across a stop, and stops for good', { skip }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-child-'));
  try {
    const first = await spawnSandbox({ dataDir, entry, execArgv });
    assert.notEqual(first.pid, process.pid);
    assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const listed = await get(`${first.url}/assistants`, first.apiKey);
    assert.equal(listed.status, 200);
    assert.ok(listed.body.assistants.length > 0, 'a new data dir is seeded');
    assert.equal((await get(`${first.url}/assistants`, 'wrong-key')).status, 401);
    const created = await fetch(`${first.url}/assistants`, {
      method: 'POST',
      headers: { 'x-api-key': first.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept across restarts' }),
    });
    assert.equal(created.status, 201);
    await first.close();
    await first.close(); // twice is fine
    assert.equal(pidAlive(first.pid), false, 'the child has exited');

    const second = await spawnSandbox({ dataDir, entry, execArgv });
    try {
      assert.notEqual(second.apiKey, first.apiKey, 'a fresh key per start');
      const again = await get(`${second.url}/assistants`, second.apiKey);
      assert.ok(again.body.assistants.some((a: { name?: string }) => a.name === 'Kept across restarts'));
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a data dir that cannot be used is refused with one line, and no process is left', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-child-'));
  try {
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    await assert.rejects(spawnSandbox({ dataDir: file, entry, execArgv }), (err: Error) => {
      assert.match(err.message, /not-a-dir/);
      assert.doesNotMatch(err.message, /\n\s+at /, 'no stack trace');
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the sandbox ends when the console that started it is killed with SIGKILL', { skip }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-child-'));
  // A stand-in console: starts the embedded sandbox, prints its pid, then idles.
  const script = `
    const { spawnSandbox } = await import(${JSON.stringify(join(root, 'src/sandbox/child.ts'))});
    const sb = await spawnSandbox({ dataDir: ${JSON.stringify(dataDir)}, entry: ${JSON.stringify(entry)}, execArgv: [] });
    process.stdout.write(sb.pid + '\\n');
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    parent.stdout.setEncoding('utf8');
    parent.stdout.on('data', (s: string) => (out += s));
    await until(() => /\d+\n/.test(out), 'the stand-in console to report the sandbox pid');
    const childPid = Number(out.trim());
    assert.ok(pidAlive(childPid));
    parent.kill('SIGKILL');
    await until(() => !pidAlive(childPid), 'the orphaned sandbox to exit');
  } finally {
    parent.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// Started again: the same key and port, the same data; another port when that one is taken.
test('a restart (reuse): killed with SIGKILL, it says how it ended; started again with the same key, port and data', { skip }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-child-'));
  const taken = createServer();
  try {
    const first = await spawnSandbox({ dataDir, entry, execArgv });
    const made = await fetch(`${first.url}/assistants`, {
      method: 'POST',
      headers: { 'x-api-key': first.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept across a kill' }),
    });
    assert.equal(made.status, 201);
    process.kill(first.pid, 'SIGKILL');
    // The child is unref'd (it never keeps a console alive): hold the loop open while waiting.
    const hold = setInterval(() => undefined, 1000);
    const how = await first.exited.finally(() => clearInterval(hold));
    assert.equal(how.signal, 'SIGKILL');
    const port = Number(new URL(first.url).port);
    const second = await spawnSandbox({ dataDir, entry, execArgv, reuse: { apiKey: first.apiKey, port } });
    try {
      assert.equal(second.url, first.url, 'the same address');
      assert.equal(second.apiKey, first.apiKey, 'the same key: the client carries on');
      const listed = await get(`${second.url}/assistants`, first.apiKey);
      assert.ok(listed.body.assistants.some((a: { name?: string }) => a.name === 'Kept across a kill'));
    } finally {
      await second.close();
    }
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', r));
    const third = await spawnSandbox({ dataDir, entry, execArgv, reuse: { apiKey: first.apiKey, port } });
    try {
      assert.notEqual(third.url, first.url, 'the old port is taken: another one');
      assert.equal((await get(`${third.url}/assistants`, first.apiKey)).status, 200);
    } finally {
      await third.close();
    }
  } finally {
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
