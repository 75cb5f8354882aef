// Secrets through the built binary: a config file other users can read is refused (with the
// chmod that fixes it); the embedded sandbox's data is private (0700 dirs, 0600 files); and no
// run — successful, failing, --debug — leaves the key in any output or any file it wrote.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';

const sb = sandboxForFile();
const homes: CliHome[] = [];
after(async () => {
  homes.forEach((h) => h.cleanup());
});

function home(): CliHome {
  const h = tempHome();
  homes.push(h);
  return h;
}

/** Every regular file under `dir`, with its contents. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .map((path) => ({ path, text: readFileSync(path, 'latin1') }));
}

test('a config file other users can read is refused by the commands, with the chmod that fixes it', async () => {
  const h = home();
  const key = sb.apiKey;
  const dir = join(h.env.XDG_CONFIG_HOME!, 'switchboard');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ current: 'prod', profiles: { prod: { baseUrl: sb.url, apiKey: key } } }));
  chmodSync(path, 0o644);
  for (const args of [
    ['numbers', 'list'],
    ['--profile', 'prod', 'assistants', 'list'],
    ['profiles', 'list'],
  ]) {
    const r = await runCli(args, { env: h.env });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], new RegExp(`can be read by other users.*chmod 600 ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(!(r.stdout + r.stderr).includes(key));
  }
  chmodSync(path, 0o600);
  const fixed = await runCli(['numbers', 'list', '-o', 'ids'], { env: h.env });
  assert.equal(fixed.code, 0, fixed.stderr);
});

test('the embedded sandbox keeps its data private and its generated key nowhere on disk or in output', async () => {
  const h = home();
  const upload = join(h.dir, 'notes.txt');
  writeFileSync(upload, 'private notes\n');
  const runs = [
    await runCli(['--debug', 'numbers', 'list'], { env: h.env }),
    await runCli(['--debug', 'files', 'upload', upload], { env: h.env }),
    await runCli(['--debug', 'calls', 'get', 'no-such-id'], { env: h.env }),
  ];
  assert.deepEqual(
    runs.map((r) => r.code),
    [0, 0, 1],
    runs.map((r) => r.stderr).join('\n'),
  );
  const data = join(h.env.XDG_DATA_HOME!, 'switchboard', 'sandbox');
  assert.equal(statSync(data).mode & 0o777, 0o700);
  for (const sub of ['files', 'uploads']) assert.equal(statSync(join(data, sub)).mode & 0o777, 0o700, sub);
  for (const f of readdirSync(data, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) {
    assert.equal(statSync(join(f.parentPath, f.name)).mode & 0o777, 0o600, f.name);
  }
  const fullKey = /sk-sandbox-[0-9a-f]{40}/;
  for (const r of runs) assert.doesNotMatch(r.stdout + r.stderr, fullKey);
  for (const f of filesUnder(h.dir)) assert.doesNotMatch(f.text, fullKey, f.path);
});

test('a remote key never appears in any output or file, whatever the run does', async () => {
  const h = home();
  const env = { ...h.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
  const wrong = { ...env, SWITCHBOARD_API_KEY: `${sb.apiKey}-wrong` };
  const runs = await Promise.all([
    runCli(['--debug', 'assistants', 'list', '-o', 'json'], { env }),
    runCli(['--debug', 'calls', 'list', '--limit', '2'], { env }),
    runCli(['--debug', 'whoami'], { env }),
    runCli(['--debug', 'assistants', 'get', 'missing'], { env }),
    runCli(['--debug', 'calls', 'list', '--after', 'not-a-date'], { env }),
    runCli(['--debug', 'numbers', 'list'], { env: wrong }),
    runCli(['--debug', 'numbers', 'list'], { env: { ...env, SWITCHBOARD_BASE_URL: 'http://127.0.0.1:9' } }),
  ]);
  assert.ok(runs.some((r) => r.code === 0) && runs.some((r) => r.code !== 0), 'both successes and failures ran');
  for (const r of runs) {
    assert.ok(!(r.stdout + r.stderr).includes(sb.apiKey), `key printed:\n${r.stdout}\n${r.stderr}`);
  }
  for (const f of filesUnder(h.dir)) assert.ok(!f.text.includes(sb.apiKey), `key written to ${f.path}`);
});
