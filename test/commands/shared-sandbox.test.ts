// Commands on the embedded sandbox share one running sandbox per data dir (src/sandbox/registry.ts):
// the console's, or the one a command left running for a few idle seconds. Built binary, fresh homes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { sandboxDataDir } from '../../src/config/paths.js';
import { spawnSandbox } from '../../src/sandbox/child.js';
import { SHARED_SANDBOX_IDLE_MS } from '../../src/target.js';
import { CLI, runBinary, startCli, tempHome, type CliHome } from '../support/cli.js';
import { until } from '../support/wait.js';
import { pidAlive } from '../../src/config/lock.js';

const homes: CliHome[] = [];
after(() => {
  for (const h of homes) h.cleanup();
});
function freshHome(): CliHome & { running: string } {
  const h = tempHome();
  homes.push(h);
  const env = { ...h.env, SWITCHBOARD_PROFILE: undefined };
  return { ...h, env, running: join(sandboxDataDir(env), 'running') };
}

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []);
const pidOf = (name: string) => Number(name.split('-')[0]);

async function ok(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const r = await runBinary(args, { env });
  assert.equal(r.code, 0, `switchboard ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('a command leaves its sandbox registered, the next command uses it, and it stops by itself when idle', async () => {
  const home = freshHome();
  const first = await ok(['assistants', 'list', '-o', 'ids'], home.env);
  const [file] = entries(home.running);
  assert.ok(file, 'the sandbox the command started is registered');
  assert.doesNotMatch(readFileSync(join(home.running, file), 'utf8'), /sk-sandbox-/, 'with a token, not its generated key');
  const pid = pidOf(file);
  assert.ok(pidAlive(pid), 'and still running after the command');
  assert.equal(await ok(['assistants', 'list', '-o', 'ids'], home.env), first);
  assert.deepEqual(entries(home.running), [file], 'the second command used it rather than start its own');
  // It stops on its own a few idle seconds after the last request (the guard only ends a hang).
  await until(() => !pidAlive(pid), `the sandbox to stop after ${SHARED_SANDBOX_IDLE_MS} ms idle`);
  assert.deepEqual(entries(home.running), [], 'it removed its registration');
});

test('a command that waits longer than the idle time still has its sandbox (calls watch between polls)', async () => {
  const home = freshHome();
  const interval = String(Math.ceil((SHARED_SANDBOX_IDLE_MS * 2) / 1000));
  const watch = startCli(['--debug', 'calls', 'watch', '--interval', interval], { env: home.env });
  let err = '';
  watch.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  try {
    // Polls twice the idle time apart: each must find the sandbox the first one started.
    const answered = () => (err.match(/GET \/calls\S* → 200/g) ?? []).length;
    await until(() => answered() >= 3 || /could not/.test(err) || watch.child.exitCode !== null, 'three polls answered, or a failure');
    assert.doesNotMatch(err, /could not/);
    assert.equal(watch.child.exitCode, null, `the watch is still running: ${err}`);
  } finally {
    watch.child.kill('SIGINT');
  }
  await watch.result;
});

test('a registration whose pid is dead is removed and ignored', async () => {
  const home = freshHome();
  await ok(['whoami'], home.env); // makes the data dir
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const stale = join(home.running, `${dead}-1.json`);
  await ok(['numbers', 'list', '-o', 'ids'], home.env); // a sandbox now runs and registers the dir
  writeFileSync(stale, JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1', token: 'sk-x', instance: 'f'.repeat(32) }), { mode: 0o600 });
  await ok(['numbers', 'list', '-o', 'ids'], home.env);
  assert.ok(!existsSync(stale), 'the stale file is gone');
  assert.equal(entries(home.running).length, 1, "the live sandbox's file is kept");
});

test('a live registration that answers with another nonce, or on a port another program took, is not used and not removed', async () => {
  const home = freshHome();
  await ok(['assistants', 'list', '-o', 'ids'], home.env);
  const [file] = entries(home.running);
  const path = join(home.running, file);
  const real = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; url: string; token: string; instance: string };
  // The same sandbox, but the file names another instance: a sandbox that is not the one registered.
  writeFileSync(path, JSON.stringify({ ...real, instance: '0'.repeat(32) }), { mode: 0o600 });
  // A program on another port, under a live pid (this test's), that answers 200 to anything.
  const impostor = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((r) => impostor.listen(0, '127.0.0.1', r));
  const port = (impostor.address() as { port: number }).port;
  const taken = join(home.running, `${process.pid}-${port}.json`);
  writeFileSync(taken, JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, token: 'sk-x', instance: '1'.repeat(32) }), { mode: 0o600 });
  try {
    await ok(['assistants', 'list', '-o', 'ids'], home.env);
    const now = entries(home.running);
    assert.ok(now.includes(file) && now.includes(`${process.pid}-${port}.json`), 'both files are kept: their pids are alive');
    assert.equal(now.length, 3, 'the command started a sandbox of its own');
  } finally {
    impostor.close();
  }
});

test('commands at once on a fresh data dir: every write is kept, through whichever sandbox each found or started', async () => {
  const home = freshHome();
  const kb = join(home.dir, 'kb');
  mkdirSync(kb);
  const names = Array.from({ length: 6 }, (_, i) => `parallel-${i}.md`);
  for (const n of names) writeFileSync(join(kb, n), `# ${n}\nOpen nine to five.\n`);
  // No sandbox runs yet: each command may find one the others started, or start its own.
  await Promise.all(names.map((n) => ok(['files', 'upload', join(kb, n), '-o', 'ids'], home.env)));
  const listed = JSON.parse(await ok(['files', 'list', '--limit', '100', '-o', 'json'], home.env)) as Array<{ name?: string; filename?: string }>;
  for (const n of names)
    assert.ok(
      listed.some((f) => (f.name ?? f.filename) === n),
      `${n} is listed: ${JSON.stringify(listed.map((f) => f.name ?? f.filename))}`,
    );
});

test("the console's sandbox is not registered: a command beside it uses a command's sandbox, which the console stopping does not cut off", async () => {
  const home = freshHome();
  // What the console starts (src/target.ts connectToChild): the program itself as the sandbox child.
  const child = await spawnSandbox({ dataDir: sandboxDataDir(home.env), entry: CLI, execArgv: [] });
  let stopped = false;
  try {
    assert.deepEqual(entries(home.running), [], "the console's sandbox is not offered to commands");
    const assistant = (await ok(['assistants', 'list', '-o', 'ids'], home.env)).trim().split('\n')[0];
    const [shared] = entries(home.running);
    assert.ok(shared && !shared.startsWith(`${child.pid}-`), `the command left its own sandbox registered: ${shared}`);
    // The console writes while commands write beside it, and the console stops meanwhile.
    const viaConsole = await fetch(`${child.url}/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': child.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId: assistant, name: 'from-the-console' }),
    });
    assert.equal(viaConsole.status, 201);
    const consoleSession = ((await viaConsole.json()) as { session: { id: string } }).session.id;
    const viaCommands = ['cmd-a', 'cmd-b', 'cmd-c'].map((n) => ok(['sessions', 'create', '--assistant', assistant, '--name', n, '-o', 'ids'], home.env));
    await child.close();
    stopped = true;
    const ids = (await Promise.all(viaCommands)).map((s) => s.trim());
    // Every write is on the data dir, read back through the command's sandbox.
    for (const id of [...ids, consoleSession])
      assert.match(await ok(['sessions', 'show', id, '-o', 'json'], home.env), new RegExp(id), `session ${id} is kept`);
  } finally {
    if (!stopped) await child.close();
  }
});
