// The commands' code cache (src/code-cache.cts): a successful command leaves one per command and
// subcommand under <tmpdir>/switchboard-code-cache-<uid>/<build>/, the next run uses it with the same
// output, a cache V8 rejects is made again, and a directory others can write is never used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_CACHES } from '../../src/code-cache.cjs';
import { buildProgram } from '../../src/commands/program.js';
import { runCli, tempHome } from '../support/cli.js';

/** A home whose TMPDIR is its own, so the cache starts empty. */
function isolated() {
  const home = tempHome();
  const tmp = join(home.dir, 'tmp');
  mkdirSync(tmp);
  const root = join(tmp, `switchboard-code-cache-${process.getuid!()}`);
  return { home, env: { ...home.env, TMPDIR: tmp }, root };
}

/** The cache files under `root`, by name (one build's directory). */
function cacheFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((build) => readdirSync(join(root, build)).map((f) => join(build, f)));
}

test('a command leaves a cache of its own; the next run uses it and prints the same', async () => {
  const { home, env, root } = isolated();
  try {
    const first = await runCli(['profiles', 'list', '-o', 'json'], { env });
    assert.equal(first.code, 0, first.stderr);
    const files = cacheFiles(root);
    assert.equal(files.length, 1, `one cache file: ${files.join(', ')}`);
    assert.match(files[0], /\/profiles-list\.bin$/);
    const second = await runCli(['profiles', 'list', '-o', 'json'], { env });
    assert.deepEqual(second, first);
    assert.deepEqual(cacheFiles(root), files, 'no other file');
    // Garbage in the file: V8 rejects it, the command runs as ever and the cache is made again.
    const file = join(root, files[0]);
    writeFileSync(file, 'not a code cache');
    assert.deepEqual(await runCli(['profiles', 'list', '-o', 'json'], { env }), first);
    assert.notEqual(readFileSync(file, 'utf8'), 'not a code cache');
  } finally {
    home.cleanup();
  }
});

test(`a build keeps at most ${MAX_CACHES} caches: a command past them runs without one`, async () => {
  const { home, env, root } = isolated();
  try {
    assert.equal((await runCli(['--help'], { env })).code, 0);
    const [build] = readdirSync(root);
    for (let i = 1; i < MAX_CACHES; i++) writeFileSync(join(root, build, `other${i}.bin`), 'x');
    const r = await runCli(['profiles', 'list', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(join(root, build, 'profiles-list.bin')), `a cache past ${MAX_CACHES}`);
  } finally {
    home.cleanup();
  }
});

test('every command, subcommand and help <command> has room for its cache, a third of the room left for other words', () => {
  const commands = buildProgram('0').commands;
  // `switchboard` with options only ('_'), `help`, each command alone, each subcommand, `help <command>`.
  const names = 2 + commands.length + commands.reduce((n, c) => n + c.commands.length, 0) + commands.length;
  assert.ok(names <= (MAX_CACHES * 2) / 3, `${names} names for ${MAX_CACHES} caches`);
});

test('the values of the root options are not words of the cache name', async () => {
  const { home, env, root } = isolated();
  try {
    const r = await runCli(['-o', 'json', 'profiles', 'list'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(cacheFiles(root).join(), /\/profiles-list\.bin$/);
  } finally {
    home.cleanup();
  }
});

test('a failed command writes no cache', async () => {
  const { home, env, root } = isolated();
  try {
    const r = await runCli(['profiles', 'list', '--no-such-option'], { env });
    assert.notEqual(r.code, 0);
    assert.deepEqual(cacheFiles(root), []);
  } finally {
    home.cleanup();
  }
});

test('a cache directory that others can write is not used', async () => {
  const { home, env, root } = isolated();
  try {
    mkdirSync(root, { mode: 0o777 });
    chmodSync(root, 0o777);
    const r = await runCli(['profiles', 'list', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(root), [], 'nothing written in it');
  } finally {
    home.cleanup();
  }
});

test("the console's path does not load the code cache (nor node:vm, which only it uses); a command does", async () => {
  const { home, env, root } = isolated();
  try {
    // Says at exit which builtins the process loaded; a --require preload keeps the entry on the CommonJS loader.
    const preload = join(home.dir, 'loaded.cjs');
    writeFileSync(preload, 'process.on("exit", () => process.stderr.write(`\\nvm loaded: ${process.moduleLoadList.includes("NativeModule vm")}\\n`));\n');
    const withPreload = { ...env, NODE_OPTIONS: `--require ${JSON.stringify(preload)}` };
    // A bare switchboard is the console; on a pipe it stops at once, after its start has loaded.
    const bare = await runCli([], { env: withPreload });
    assert.match(bare.stderr, /the console needs an interactive terminal/);
    assert.match(bare.stderr, /vm loaded: false/);
    assert.ok(!existsSync(root), 'no cache directory made');
    const command = await runCli(['profiles', 'list', '-o', 'json'], { env: withPreload });
    assert.equal(command.code, 0, command.stderr);
    assert.match(command.stderr, /vm loaded: true/);
  } finally {
    home.cleanup();
  }
});
