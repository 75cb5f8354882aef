// Many processes, one data dir: the embedded sandbox's data dir is shared by every command of the
// sandbox profile, and scripts and agents run commands in parallel. Built binary, fresh homes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { sandboxDataDir } from '../../src/config/paths.js';
import { startTestSandbox } from '../support/sandbox.js';
import { runBinary, startCli, tempHome, type CliHome } from '../support/cli.js';

const homes: CliHome[] = [];
after(() => {
  for (const h of homes) h.cleanup();
});
function freshHome(): CliHome {
  const h = tempHome();
  homes.push(h);
  return { ...h, env: { ...h.env, SWITCHBOARD_PROFILE: undefined } };
}

test('20 commands in parallel on a fresh HOME all succeed', async () => {
  const home = freshHome();
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: 20 }, (_, i) => runBinary(i % 2 ? ['assistants', 'list', '-o', 'ids'] : ['numbers', 'list', '-o', 'json'], { env: home.env })),
  );
  const failed = runs.filter((r) => r.code !== 0);
  console.log(`# 20 parallel first starts: ${runs.length - failed.length} succeeded in ${Math.round(performance.now() - started)} ms`);
  assert.deepEqual(
    failed.map((r) => r.stderr),
    [],
  );
  const ids = runs.filter((_, i) => i % 2).map((r) => r.stdout);
  assert.ok(ids[0].trim().length > 0, 'the seeded assistants are listed');
  assert.ok(
    ids.every((s) => s === ids[0]),
    'every command saw the same seeded data',
  );
});

test('two `switchboard sandbox --data-dir D` at once both serve D', async () => {
  const home = freshHome();
  const dir = join(home.dir, 'shared');
  const starts = [0, 1].map(() => startCli(['sandbox', '--port', '0', '--api-key', 'test-key-two-at-once', '--data-dir', dir], { env: home.env }));
  try {
    const urls = await Promise.all(
      starts.map(
        (run) =>
          new Promise<string>((resolve, reject) => {
            run.child.stdout!.on('data', () => {
              const m = /listening on (http:\/\/\S+)/.exec(run.stdout());
              if (m) resolve(m[1]);
            });
            run.child.on('exit', (code) => reject(new Error(`a sandbox exited ${code}: ${run.stdout()}`)));
          }),
      ),
    );
    const lists = await Promise.all(urls.map(async (url) => (await fetch(`${url}/assistants`, { headers: { 'x-api-key': 'test-key-two-at-once' } })).json()));
    assert.equal(JSON.stringify(lists[0]), JSON.stringify(lists[1]));
  } finally {
    for (const run of starts) run.child.kill('SIGINT');
    const results = await Promise.all(starts.map((s) => s.result));
    assert.deepEqual(
      results.map((r) => r.code),
      [0, 0],
      results.map((r) => r.stderr).join('\n'),
    );
  }
});

test("a command started during another process's upload does not break that upload", async () => {
  const home = freshHome();
  const dir = sandboxDataDir(home.env);
  // On the CLI's own data dir, not a helper's: the command below starts its sandbox there too.
  const sb = await startTestSandbox({ dataDir: dir });
  try {
    // Half an upload, held open while the command starts its own sandbox on the same data dir.
    const boundary = '----paralleltest';
    const body = 'Orders ship within two business days.\n'.repeat(2000);
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const url = new URL(sb.url);
    const held: Array<() => void> = [];
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/files',
          headers: {
            'x-api-key': sb.apiKey,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': Buffer.byteLength(head + body + tail),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (s: string) => (text += s));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(head + body.slice(0, body.length / 2));
      held.push(() => req.end(body.slice(body.length / 2) + tail));
    });
    const uploads = join(dir, 'uploads');
    for (let i = 0; i < 200 && readdirSync(uploads).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(readdirSync(uploads).length, 1, 'the upload has its part file');
    const r = await runBinary(['assistants', 'list', '-o', 'ids'], { env: home.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readdirSync(uploads).length, 1, "the command's start left the live upload's part file alone");
    held[0]();
    const done = await answer;
    assert.equal(done.status, 201, done.text);
  } finally {
    await sb.close();
  }
});
