// The sandbox commands and the embedded default: with nothing configured, commands start the
// embedded sandbox on the XDG data dir, seeded; `sandbox` runs it standalone; `ring` and `seed`
// work on a data dir directly.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestSandbox } from '../support/sandbox.js';
import { runCli, startCli, tempHome, type CliHome } from '../support/cli.js';

let home: CliHome;
before(() => {
  home = tempHome();
});
after(() => home.cleanup());

describe('the embedded sandbox default', () => {
  test('with nothing configured, assistants list -o json starts the seeded sandbox in the XDG data dir', async () => {
    const r = await runCli(['assistants', 'list', '-o', 'json'], { env: home.env });
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout) as { id: string; name: string }[];
    assert.ok(list.length > 0, 'seeded assistants');
    assert.ok(existsSync(join(home.env.XDG_DATA_HOME!, 'switchboard', 'sandbox')), 'data under XDG_DATA_HOME');
    // A second run finds the same data.
    const again = JSON.parse((await runCli(['assistants', 'list', '-o', 'json'], { env: home.env })).stdout) as { id: string }[];
    assert.deepEqual(again.map((a) => a.id), list.map((a) => a.id));
  });
});

describe('sandbox commands', () => {
  test('seed adds calls to a new data dir; ring rings a linked number and refuses an unknown one', async () => {
    const dir = join(home.dir, 'big');
    const seeded = await runCli(['sandbox', '--data-dir', dir, 'seed', '--calls', '2000'], { env: home.env });
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /added 2000 calls/);

    const rung = await runCli(['sandbox', '--data-dir', dir, 'ring', '+14155550100', '-o', 'json'], { env: home.env });
    assert.equal(rung.code, 0, rung.stderr);
    const call = JSON.parse(rung.stdout) as { id: string; type: string };
    assert.equal(call.type, 'inboundPhoneCall');

    const unknown = await runCli(['sandbox', '--data-dir', dir, 'ring', '+19995550000'], { env: home.env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no phone number \+19995550000/);

    // The calls are there when a sandbox serves that dir.
    const sb = await startTestSandbox({ dataDir: dir });
    try {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
      const all = await runCli(['calls', 'list', '--all', '-o', 'ids'], { env });
      assert.equal(all.code, 0, all.stderr);
      const ids = all.stdout.split('\n').filter(Boolean);
      assert.ok(ids.length >= 2001, `2000 seeded + 1 rung + the demo calls, got ${ids.length}`);
      assert.ok(ids.includes(call.id));
    } finally {
      await sb.close();
    }
  });

  test('sandbox runs standalone with the given key and stops on SIGINT with exit 0', async () => {
    const dir = join(home.dir, 'standalone');
    const run = startCli(['sandbox', '--port', '0', '--api-key', 'test-key-123456', '--data-dir', dir], { env: home.env });
    const url = await new Promise<string>((resolve, reject) => {
      const onData = () => {
        const m = /listening on (http:\/\/\S+)/.exec(run.stdout());
        if (m) resolve(m[1]);
      };
      run.child.stdout!.on('data', onData);
      run.child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    const res = await fetch(`${url}/phone-numbers`, { headers: { 'x-api-key': 'test-key-123456' } });
    assert.equal(res.status, 200);
    const refused = await fetch(`${url}/phone-numbers`, { headers: { 'x-api-key': 'wrong' } });
    assert.equal(refused.status, 401);
    run.child.kill('SIGINT');
    const r = await run.result;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('test-key-123456'), 'a key given on the command line is not echoed');
  });
});
