// Demo traffic: `switchboard sandbox --ring-every N` (or SWITCHBOARD_SANDBOX_RING_EVERY, which the
// console's own sandbox reads) rings the linked numbers in turn; POST /sandbox/ring without a DID
// rings the next one. Run as the built binary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runCli, startCli, tempHome, type CliHome } from '../support/cli.js';
import { GUARD_MS } from '../support/wait.js';

let home: CliHome;
let keyPath: string;
before(() => {
  home = tempHome();
  keyPath = join(home.dir, 'sandbox.key');
  writeFileSync(keyPath, 'ring-key-4242\n', { mode: 0o600 });
});
after(() => home.cleanup());

async function standalone(args: string[], env: NodeJS.ProcessEnv = home.env) {
  const run = startCli(['sandbox', '--port', '0', '--api-key-file', keyPath, ...args], { env });
  const url = await new Promise<string>((resolve, reject) => {
    run.child.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(run.stdout());
      if (m) resolve(m[1]);
    });
    run.child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  return { run, url };
}

/** Waits until `url` has `n` inbound calls since `since` (the guard fails a sandbox that never rings). */
async function ringsAtLeast(url: string, since: string, n: number): Promise<void> {
  const end = Date.now() + GUARD_MS;
  while ((await inbound(url, since)).length < n) {
    if (Date.now() > end) throw new Error(`never saw ${n} inbound calls`);
    await delay(200);
  }
}

const headers = { 'x-api-key': 'ring-key-4242', 'content-type': 'application/json' };
async function inbound(url: string, since: string): Promise<{ id: string; phoneNumberId: string }[]> {
  const r = await fetch(`${url}/calls?createdAtGt=${encodeURIComponent(since)}&limit=100`, { headers });
  const calls = ((await r.json()) as { calls: { id: string; type: string; phoneNumberId: string }[] }).calls;
  return calls.filter((c) => c.type === 'inboundPhoneCall');
}

describe('demo traffic', () => {
  test('--ring-every rings at that rate, and says so when it starts', async () => {
    const since = new Date().toISOString();
    const { run, url } = await standalone(['--ring-every', '1', '--data-dir', join(home.dir, 'flag')]);
    try {
      assert.match(run.stdout(), /an inbound call every 1s/);
      await ringsAtLeast(url, since, 2);
    } finally {
      run.child.kill('SIGINT');
    }
    assert.equal((await run.result).code, 0);
  });

  test('SWITCHBOARD_SANDBOX_RING_EVERY does the same; without it no call rings by itself', async () => {
    const since = new Date().toISOString();
    const quiet = await standalone(['--data-dir', join(home.dir, 'quiet')]);
    const busy = await standalone(['--data-dir', join(home.dir, 'env')], { ...home.env, SWITCHBOARD_SANDBOX_RING_EVERY: '1' });
    try {
      await ringsAtLeast(busy.url, since, 2);
      assert.equal((await inbound(quiet.url, since)).length, 0);
    } finally {
      quiet.run.child.kill('SIGINT');
      busy.run.child.kill('SIGINT');
    }
    await Promise.all([quiet.run.result, busy.run.result]);
  });

  test('POST /sandbox/ring without a DID rings the next linked number; a bad rate is one line, exit 2', async () => {
    const { run, url } = await standalone(['--data-dir', join(home.dir, 'next')]);
    try {
      const numbers = ((await (await fetch(`${url}/phone-numbers`, { headers })).json()) as { phoneNumbers: { id: string; assistantId?: string }[] })
        .phoneNumbers;
      const linked = numbers.filter((n) => n.assistantId).map((n) => n.id);
      assert.ok(linked.length >= 1);
      const rung: string[] = [];
      for (let i = 0; i < linked.length + 1; i++) {
        const r = await fetch(`${url}/sandbox/ring`, { method: 'POST', headers, body: '{}' });
        assert.equal(r.status, 201);
        const body = (await r.json()) as { message: string; call: { phoneNumberId: string } };
        assert.match(body.message, /^Inbound call from \+\d+ to \+\d+ is ringing$/);
        rung.push(body.call.phoneNumberId);
      }
      assert.deepEqual(new Set(rung.slice(0, linked.length)), new Set(linked), 'each linked number in turn');
      assert.equal(rung.at(-1), rung[0], 'then round again');
    } finally {
      run.child.kill('SIGINT');
    }
    await run.result;
    const bad = await runCli(['sandbox', '--ring-every', '0'], { env: home.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--ring-every/);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  });
});
