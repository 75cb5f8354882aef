// The commands' code cache (src/code-cache.cts): a successful command leaves one per command and
// subcommand under <tmpdir>/switchboard-code-cache-<uid>/<build>/, the next run uses it with the same
// output, a cache V8 rejects is made again, past the cap the least recently used goes (so no number
// of commands leaves one without), and a directory others can write is never used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_CACHES } from '../../src/code-cache.cjs';
import { runBinary, tempHome } from '../support/cli.js';

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
    const first = await runBinary(['profiles', 'list', '-o', 'json'], { env });
    assert.equal(first.code, 0, first.stderr);
    const files = cacheFiles(root);
    assert.equal(files.length, 1, `one cache file: ${files.join(', ')}`);
    assert.match(files[0], /\/profiles-list\.bin$/);
    const second = await runBinary(['profiles', 'list', '-o', 'json'], { env });
    assert.deepEqual(second, first);
    assert.deepEqual(cacheFiles(root), files, 'no other file');
    // Garbage in the file: V8 rejects it, the command runs as ever and the cache is made again.
    const file = join(root, files[0]);
    writeFileSync(file, 'not a code cache');
    assert.deepEqual(await runBinary(['profiles', 'list', '-o', 'json'], { env }), first);
    assert.notEqual(readFileSync(file, 'utf8'), 'not a code cache');
  } finally {
    home.cleanup();
  }
});

test(`past ${MAX_CACHES} caches a new command still gets one: the least recently used goes`, async () => {
  const { home, env, root } = isolated();
  try {
    assert.equal((await runBinary(['--help'], { env })).code, 0);
    const [build] = readdirSync(root);
    const dir = join(root, build);
    // More names than the cap, used one after another (older times first); '_' (the --help run) is the newest of them.
    for (let i = 1; i < MAX_CACHES; i++) {
      writeFileSync(join(dir, `other${i}.bin`), 'x');
      utimesSync(join(dir, `other${i}.bin`), 1_000_000 + i, 1_000_000 + i);
    }
    assert.equal(readdirSync(dir).length, MAX_CACHES, 'the build is full');
    const r = await runBinary(['profiles', 'list', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const after = readdirSync(dir);
    assert.ok(after.includes('profiles-list.bin'), `the new command has its cache past ${MAX_CACHES}`);
    assert.equal(after.length, MAX_CACHES, 'still at most the cap');
    assert.ok(!after.includes('other1.bin'), 'the least recently used was removed');
    assert.ok(after.includes('other2.bin') && after.includes('_.bin'), 'only that one');
  } finally {
    home.cleanup();
  }
});

test('a cache that is used is renewed, so it outlives caches used less recently', async () => {
  const { home, env, root } = isolated();
  try {
    assert.equal((await runBinary(['profiles', 'list', '-o', 'json'], { env })).code, 0);
    const [build] = readdirSync(root);
    const dir = join(root, build);
    const used = join(dir, 'profiles-list.bin');
    utimesSync(used, 1_000_000, 1_000_000); // the oldest of all
    for (let i = 1; i < MAX_CACHES; i++) {
      writeFileSync(join(dir, `other${i}.bin`), 'x');
      utimesSync(join(dir, `other${i}.bin`), 2_000_000 + i, 2_000_000 + i);
    }
    // Used again (V8 accepts it): its time is now, so the next new cache removes other1, not it.
    assert.equal((await runBinary(['profiles', 'list', '-o', 'json'], { env })).code, 0);
    assert.ok(statSync(used).mtimeMs > 2_000_000_000, 'renewed');
    assert.equal((await runBinary(['--help'], { env })).code, 0);
    const after = readdirSync(dir);
    assert.ok(after.includes('profiles-list.bin') && after.includes('_.bin'), after.join());
    assert.ok(!after.includes('other1.bin'), 'the least recently used went instead');
  } finally {
    home.cleanup();
  }
});

test('a subcommand with a hyphen has a cache of its own', async () => {
  const { home, env, root } = isolated();
  try {
    const r = await runBinary(['test', 'from-call', '--help'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(cacheFiles(root).join(), /\/test-from-call\.bin$/);
  } finally {
    home.cleanup();
  }
});

test('the values of the root options are not words of the cache name', async () => {
  const { home, env, root } = isolated();
  try {
    const r = await runBinary(['-o', 'json', 'profiles', 'list'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(cacheFiles(root).join(), /\/profiles-list\.bin$/);
  } finally {
    home.cleanup();
  }
});

test('a failed command writes no cache', async () => {
  const { home, env, root } = isolated();
  try {
    const r = await runBinary(['profiles', 'list', '--no-such-option'], { env });
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
    const r = await runBinary(['profiles', 'list', '-o', 'json'], { env });
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
    const bare = await runBinary([], { env: withPreload });
    assert.match(bare.stderr, /the console needs an interactive terminal/);
    assert.match(bare.stderr, /vm loaded: false/);
    assert.ok(!existsSync(root), 'no cache directory made');
    const command = await runBinary(['profiles', 'list', '-o', 'json'], { env: withPreload });
    assert.equal(command.code, 0, command.stderr);
    assert.match(command.stderr, /vm loaded: true/);
  } finally {
    home.cleanup();
  }
});
