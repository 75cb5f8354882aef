// With request logging on, the log shows requests but never the API key (right or wrong).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../../src/sandbox/server.js';

const script = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'child-sandbox.ts');

test('request logs never contain the key', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-log-'));
  const apiKey = generateApiKey();
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, apiKey, 'log'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const closed = new Promise((resolve) => child.once('close', resolve));
  try {
    while (!/"url":"http/.test(out)) {
      if (child.exitCode !== null) throw new Error(`child exited: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = /"url":"(http[^"]+)"/.exec(out)![1];
    const wrong = `${apiKey.slice(0, -4)}beef`;
    assert.equal((await fetch(`${url}/assistants`, { headers: { 'x-api-key': apiKey } })).status, 200);
    assert.equal((await fetch(`${url}/assistants`, { headers: { 'x-api-key': wrong } })).status, 401);
    await fetch(`${url}/nope?x-api-key=${'q'}`, { headers: { 'x-api-key': apiKey } });
    child.kill('SIGKILL');
    await closed;
    assert.match(out, /"url":"\/assistants"/, 'requests are logged');
    assert.ok(!out.includes(apiKey), 'the key is not in the log');
    assert.ok(!out.includes(wrong), 'a wrong key is not in the log either');
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await closed;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
