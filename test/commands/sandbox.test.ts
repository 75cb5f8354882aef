// The sandbox commands and the embedded default: with nothing configured, commands start the
// embedded sandbox on the XDG data dir, seeded; `sandbox` runs it standalone; `ring` and `seed`
// work on a data dir directly.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
    assert.deepEqual(
      again.map((a) => a.id),
      list.map((a) => a.id),
    );
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

    // The calls are there when a sandbox serves that dir (the CLI's, hence no helper's own dir).
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

  /** A standalone sandbox started by the CLI, and the URL it printed. */
  async function standalone(args: string[], env: NodeJS.ProcessEnv = home.env) {
    const run = startCli(['sandbox', '--port', '0', ...args], { env });
    const url = await new Promise<string>((resolve, reject) => {
      const onData = () => {
        const m = /listening on (http:\/\/\S+)/.exec(run.stdout());
        if (m) resolve(m[1]);
      };
      run.child.stdout!.on('data', onData);
      run.child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    return { run, url };
  }

  const answers = async (url: string, key: string) => (await fetch(`${url}/phone-numbers`, { headers: { 'x-api-key': key } })).status;

  test('sandbox runs standalone with the given key and stops on SIGINT with exit 0', async () => {
    const dir = join(home.dir, 'standalone');
    const { run, url } = await standalone(['--api-key', 'test-key-123456', '--data-dir', dir]);
    assert.equal(await answers(url, 'test-key-123456'), 200);
    assert.equal(await answers(url, 'wrong'), 401);
    run.child.kill('SIGINT');
    const r = await run.result;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('test-key-123456'), 'a key given on the command line is not echoed');
    assert.match(r.stderr, /--api-key is visible to other users/);
  });

  test('the key can come from a file or SWITCHBOARD_SANDBOX_KEY, and then it is not in the process list', async () => {
    const keyPath = join(home.dir, 'sandbox.key');
    writeFileSync(keyPath, 'file-key-7777\n', { mode: 0o600 });
    const fromFile = await standalone(['--api-key-file', keyPath, '--data-dir', join(home.dir, 'by-file')]);
    try {
      assert.equal(await answers(fromFile.url, 'file-key-7777'), 200);
      assert.ok(!readFileSync(`/proc/${fromFile.run.child.pid}/cmdline`, 'utf8').includes('file-key-7777'), 'the key is not on the command line');
    } finally {
      fromFile.run.child.kill('SIGINT');
    }
    const r = await fromFile.run.result;
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /visible to other users/);

    const fromEnv = await standalone(['--data-dir', join(home.dir, 'by-env')], { ...home.env, SWITCHBOARD_SANDBOX_KEY: 'env-key-8888' });
    try {
      assert.equal(await answers(fromEnv.url, 'env-key-8888'), 200);
      assert.equal(await answers(fromEnv.url, 'wrong'), 401);
    } finally {
      fromEnv.run.child.kill('SIGINT');
    }
    assert.equal((await fromEnv.run.result).code, 0);

    const missing = await runCli(['sandbox', '--api-key-file', join(home.dir, 'nope.key')], { env: home.env });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*nope\.key: no such file/);
  });
});
