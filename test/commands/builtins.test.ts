// What a command's start loads: Node's modules it uses, and no others (a request over HTTP/1.1 does
// not load node:http2: undici's HTTP/2 client takes it on its first HTTP/2 connection,
// src/patches/undici+…+lazy-http2), and how its exit is kept from waiting on V8's compile of the HTTP parser.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../../src/config/lock.js';
import { sandboxDataDir } from '../../src/config/paths.js';
import { CLI, runBinary, tempHome } from '../support/cli.js';
import { until } from '../support/wait.js';
import { sandboxForCli } from '../support/sandbox.js';

const on = sandboxForCli();

/** Node's modules a run of `args` loaded (process.moduleLoadList at exit, through a --require hook). */
async function builtinsOf(args: string[], env = on.env): Promise<string[]> {
  const hook = join(on.home.dir, 'builtins-hook.cjs');
  const out = join(on.home.dir, 'builtins.txt');
  writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  const r = await runBinary(args, { env: { ...env, NODE_OPTIONS: `--require ${hook}` } });
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(out, 'utf8').split('\n');
}

test('a command that asks the service over HTTP/1.1 does not load node:http2', async () => {
  const loaded = await builtinsOf(['assistants', 'list', '-o', 'json']);
  assert.ok(loaded.includes('NativeModule http'), 'it made a request (node:http is loaded)');
  assert.ok(!loaded.includes('NativeModule http2'), 'node:http2 is loaded');
});

/**
 * Loaded by a command only when it uses them: a random name or a lock, a worker thread, an async
 * file write. (node:child_process and node:assert come with commander and undici, as they ship.)
 */
const LOADED_WHEN_USED = ['crypto', 'worker_threads', 'fs/promises'];
/** What a request loads besides: undici's public index (its fetch, WebSocket and cache stores) takes these with it. */
const LOADED_BY_UNDICI = new Set(['crypto', 'worker_threads', 'fs/promises']);
const LOADED_WHEN_USED_REMOTE = LOADED_WHEN_USED.filter((m) => !LOADED_BY_UNDICI.has(m));

before(async () => {
  const r = await runBinary(['archive', 'sync'], { env: on.env });
  assert.equal(r.code, 0, r.stderr);
});

test('a read of the call archive loads none of the modules it does not use', async () => {
  for (const args of [
    ['calls', 'search', 'hours', '--offline'],
    ['calls', 'stats', '--by', 'day', '--offline'],
  ]) {
    const loaded = await builtinsOf(args);
    assert.ok(loaded.includes('NativeModule zlib'), `${args.join(' ')}: it read records (node:zlib is loaded)`);
    for (const m of LOADED_WHEN_USED) assert.ok(!loaded.includes(`NativeModule ${m}`), `${args.join(' ')} loads node:${m}`);
  }
});

test('a read on a remote service loads none of the modules it does not use', async () => {
  for (const args of [
    ['assistants', 'list'],
    ['calls', 'list'],
  ]) {
    const loaded = await builtinsOf(args);
    assert.ok(loaded.includes('NativeModule http'), `${args.join(' ')}: it made a request`);
    for (const m of LOADED_WHEN_USED_REMOTE) assert.ok(!loaded.includes(`NativeModule ${m}`), `${args.join(' ')} loads node:${m}`);
  }
});

// V8 compiles llhttp's parser again with TurboFan once it has run a while, on a worker thread that the
// process's exit then waits for: a command must be done before that (src/patches/undici+…+llhttp-baseline).
test("a command's HTTP parser stays on WebAssembly's baseline compiler, so its exit waits for no compile", async () => {
  for (const args of [
    ['calls', 'list', '--limit', '1000'],
    ['assistants', 'get', 'Riley'],
  ]) {
    // V8's own trace: a line for each WebAssembly function compiled, naming the compiler (run directly: NODE_OPTIONS takes no V8 flag).
    // It fails (rejects) on a non-zero exit. The sandbox answers from this process: the run is awaited, not waited on synchronously.
    const run = promisify(execFile);
    const r = await run(process.execPath, ['--trace-wasm-compilation-times', CLI, ...args], { env: on.env, timeout: 60_000, maxBuffer: 64 << 20 });
    assert.match(r.stdout, /using Liftoff/, `${args.join(' ')}: the trace shows llhttp compiled`);
    assert.doesNotMatch(r.stdout, /using TurboFan/, `${args.join(' ')}: llhttp was compiled again with TurboFan`);
  }
});

// The budget is raised only while the parser's module is made: V8 checks a code cache against a hash
// of its flags, so a flag left changed would have every run reject the cache the last one wrote.
test('a command that asks the service leaves a code cache that its next run takes as it is', async () => {
  const tmp = join(on.home.dir, 'own-tmp');
  mkdirSync(tmp, { recursive: true });
  const env = { ...on.env, TMPDIR: tmp };
  const root = join(tmp, `switchboard-code-cache-${process.getuid!()}`);
  const first = await runBinary(['calls', 'list', '--limit', '1000'], { env });
  assert.equal(first.code, 0, first.stderr);
  const [build] = readdirSync(root);
  const file = join(root, build, 'calls-list.bin');
  // A cache V8 rejects is written again, to a new file renamed over it (src/code-cache.cts): a file born
  // later (an inode number alone may be the old file's, freed by the rename).
  const born = (f: string) => [statSync(f).ino, statSync(f).birthtimeMs];
  const written = born(file);
  for (let i = 0; i < 2; i++) {
    const again = await runBinary(['calls', 'list', '--limit', '1000'], { env });
    assert.equal(again.code, 0, again.stderr);
  }
  assert.deepEqual(born(file), written, 'the cache was made again: V8 rejected it');
});

test('a read on the embedded sandbox, one already running, loads none of the modules it does not use', async () => {
  const home = tempHome();
  const env = { ...home.env, SWITCHBOARD_PROFILE: undefined };
  try {
    // The first command starts the shared sandbox (src/sandbox/registry.ts), which the second finds.
    assert.equal((await runBinary(['assistants', 'list'], { env })).code, 0);
    const loaded = await builtinsOf(['assistants', 'list'], env);
    assert.ok(loaded.includes('NativeModule http'), 'it made a request');
    for (const m of LOADED_WHEN_USED_REMOTE) assert.ok(!loaded.includes(`NativeModule ${m}`), `assistants list on the running sandbox loads node:${m}`);
  } finally {
    const running = join(sandboxDataDir(env), 'running');
    const pids = existsSync(running) ? readdirSync(running).map((n) => Number(n.split('-')[0])) : [];
    await until(() => !pids.some(pidAlive), 'the shared sandbox to stop by itself');
    home.cleanup();
  }
});
