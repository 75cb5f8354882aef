// The standalone sandbox's 500 names a log that exists: --log-file PATH, or its stderr.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli, tempHome, type CliHome } from '../support/cli.js';

let home: CliHome;
before(() => {
  home = tempHome();
});
after(() => home.cleanup());

/** Runs `switchboard sandbox`, breaks its file store (the bytes' dir becomes a file), uploads, and returns what the client and the sandbox said. */
async function fiveHundred(name: string, extra: string[]): Promise<{ stderr: string; sandboxStderr: string; banner: string }> {
  const dataDir = join(home.dir, name);
  const key = `test-key-${name}`;
  const run = startCli(['sandbox', '--port', '0', '--api-key', key, '--data-dir', dataDir, ...extra], { env: home.env });
  let sandboxStderr = '';
  run.child.stderr!.on('data', (d: Buffer) => (sandboxStderr += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      run.child.stdout!.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(run.stdout());
        if (m && /Press Ctrl-C/.test(run.stdout())) resolve(m[1]);
      });
      run.child.on('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
    });
    rmSync(join(dataDir, 'files'), { recursive: true, force: true });
    writeFileSync(join(dataDir, 'files'), 'not a directory');
    const upload = join(home.dir, `${name}.txt`);
    writeFileSync(upload, 'Open 9 to 5.\n');
    const r = await runCli(['files', 'upload', upload], { env: { ...home.env, SWITCHBOARD_BASE_URL: url, SWITCHBOARD_API_KEY: key } });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /\(500\)/);
    await new Promise((r) => setTimeout(r, 200)); // the log line is written after the answer
    return { stderr: r.stderr, sandboxStderr, banner: run.stdout() };
  } finally {
    run.child.kill('SIGINT');
    await run.result;
  }
}

test('with --log-file, the 500 names that file, and the file has the error', async () => {
  const log = join(home.dir, 'sandbox-errors.log');
  const r = await fiveHundred('logfile', ['--log-file', log]);
  assert.ok(r.stderr.includes(`the details are in its log, ${log}`), r.stderr);
  assert.ok(r.banner.includes(log), 'the banner says where the log is');
  assert.ok(existsSync(log), 'the log named exists');
  assert.match(readFileSync(log, 'utf8'), /unexpected error/);
});

test('without --log-file, errors go to stderr and the 500 says so', async () => {
  const r = await fiveHundred('stderr', []);
  assert.match(r.stderr, /the details are in its log, on the sandbox's stderr/);
  assert.match(r.sandboxStderr, /unexpected error/);
  assert.match(r.banner, /errors on stderr/);
});

test('a --log-file that cannot be written is refused before the sandbox starts (exit 2, no stack)', async () => {
  for (const [path, why] of [
    [join(home.dir, 'no', 'such', 'dir', 'x.log'), /its directory does not exist/],
    [home.dir, /it is a directory/],
  ] as const) {
    const r = await runCli(['sandbox', '--port', '0', '--data-dir', join(home.dir, 'refused'), '--log-file', path], { env: home.env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, why);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});
