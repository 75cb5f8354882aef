// The standalone runner prints its URL and key (in full only when it made the key up), serves,
// and stops cleanly on SIGTERM / SIGINT. The data dir is private to the user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSandboxDataDir } from '../../src/sandbox/server.js';

const script = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'child-standalone.ts');

async function runUntilSignal(dataDir: string, apiKey: string | undefined, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, ...(apiKey ? [apiKey] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  while (!out.includes('Press Ctrl-C')) {
    if (child.exitCode !== null) throw new Error(`exited early: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = /listening on (\S+)/.exec(out)![1];
  const key = apiKey ?? /API key:\s+(\S+)/.exec(out)![1];
  const res = await fetch(`${url}/assistants`, { headers: { 'x-api-key': key } });
  child.kill(signal);
  const code = await exited;
  return { out, status: res.status, code };
}

test('prints a generated key in full, a given one masked, and stops cleanly on a signal', async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'switchboard-standalone-')), 'data');
  try {
    const generated = await runUntilSignal(dataDir, undefined, 'SIGTERM');
    assert.equal(generated.status, 200);
    assert.equal(generated.code, 0);
    assert.match(generated.out, /API key:\s+sk-sandbox-[0-9a-f]{40}\n/);
    assert.match(generated.out, /SIGTERM: stopping/);

    const given = await runUntilSignal(dataDir, 'my-secret-key-c0de', 'SIGINT');
    assert.equal(given.status, 200);
    assert.equal(given.code, 0);
    assert.ok(!given.out.includes('my-secret-key-c0de'), 'the given key is never printed in full');
    assert.match(given.out, /my-…c0de \(as given\)/);

    // Private to the user: the dir 0700, the database and stored files 0600.
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dataDir, 'sandbox.db')).mode & 0o777, 0o600);
    for (const f of readdirSync(join(dataDir, 'files'))) assert.equal(statSync(join(dataDir, 'files', f)).mode & 0o777, 0o600, f);
  } finally {
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  }
});

test('the default data dir follows XDG_DATA_HOME', () => {
  assert.equal(defaultSandboxDataDir({ XDG_DATA_HOME: '/x/data' }), '/x/data/switchboard/sandbox');
  assert.match(defaultSandboxDataDir({ HOME: '/home/u' }), /\/\.local\/share\/switchboard\/sandbox$/);
  assert.match(defaultSandboxDataDir({ XDG_DATA_HOME: 'relative' }), /\/\.local\/share\/switchboard\/sandbox$/);
});
