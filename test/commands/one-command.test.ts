// A command named on the command line is built alone: only its module is loaded (src/commands/index.ts),
// and what it prints for --help is what the whole program prints for it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/commands/program.js';
import { runBinary, tempHome, type CliHome } from '../support/cli.js';

let home: CliHome;
before(() => {
  home = tempHome();
});
after(() => home.cleanup());

/**
 * The functions of the bundle a run of `args` called, by name (V8's coverage: the commands are one
 * file, dist/commands.cjs, whose modules each run a function named by their source path when loaded).
 */
async function calledIn(args: string[], name: string): Promise<Set<string>> {
  const dir = join(home.dir, `coverage-${name}`);
  // Its own TMPDIR: a code cache made under coverage is not the one the other tests share.
  const r = await runBinary(args, { env: { ...home.env, TMPDIR: home.dir, NODE_V8_COVERAGE: dir } });
  assert.equal(r.code, 0, r.stderr);
  const called = new Set<string>();
  for (const f of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Coverage;
    for (const script of result.filter((s) => s.url.includes('/commands.cjs')))
      for (const fn of script.functions) if (fn.ranges[0].count > 0) called.add(fn.functionName);
  }
  assert.ok(called.size > 0, `${args.join(' ')}: the commands ran from dist/commands.cjs`);
  return called;
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/** The command `fn` was built, its module `file` loaded. */
const defines = (called: Set<string>, fn: string, file: string) => called.has(fn) && called.has(`src/commands/${file}.ts`);
const definesNone = (called: Set<string>, fn: string, file: string) => !called.has(fn) && !called.has(`src/commands/${file}.ts`);

test('a command named on the command line loads its own module and no other command', async () => {
  for (const [args, name] of [
    [['whoami'], 'whoami'],
    [['--profile', 'sandbox', '-o', 'json', '--no-color', 'whoami'], 'whoami-after-options'],
  ] as const) {
    const called = await calledIn([...args], name);
    assert.ok(defines(called, 'whoamiCommand', 'whoami'), `${args.join(' ')}: its command is loaded`);
    for (const other of ['assistants', 'calls', 'archive', 'test', 'completion']) {
      assert.ok(definesNone(called, `${other}Command`, other), `${args.join(' ')}: ${other} is not loaded`);
    }
  }
});

test('help at the top, help <command> and completion build the whole program', async () => {
  for (const [args, name] of [
    [['--help'], 'help'],
    [['help', 'calls'], 'help-calls'],
    [['completion', 'bash'], 'completion'],
  ] as const) {
    const called = await calledIn([...args], name);
    for (const file of ['assistants', 'calls', 'test', 'completion']) assert.ok(defines(called, `${file}Command`, file), `${args.join(' ')} loads ${file}`);
  }
});

test("a command built alone prints the same help as the whole program's", async () => {
  const names = buildProgram('0')
    .commands.map((c) => c.name())
    .filter((n) => n !== 'completion');
  assert.ok(names.length >= 13);
  await Promise.all(
    names.map(async (n) => {
      const [alone, whole] = await Promise.all([runBinary([n, '--help'], { env: home.env }), runBinary(['help', n], { env: home.env })]);
      assert.equal(alone.code, 0, alone.stderr);
      assert.equal(alone.stdout, whole.stdout, `switchboard ${n} --help`);
    }),
  );
});
