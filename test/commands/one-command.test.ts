// A command named on the command line is built alone: only its module is loaded (src/commands/index.ts),
// and what it prints for --help is what the whole program prints for it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildProgram } from '../../src/commands/program.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

let home: CliHome;
before(() => {
  home = tempHome();
});
after(() => home.cleanup());

const hook = pathToFileURL(resolve(import.meta.dirname, '../support/load-log.mjs')).href;

/** The code of every bundle chunk a run of `args` loaded. */
async function loadedCode(args: string[], name: string): Promise<string[]> {
  const log = join(home.dir, `loads-${name}.txt`);
  const r = await runCli(args, { env: { ...home.env, NODE_OPTIONS: `--import ${hook}`, SWITCHBOARD_LOAD_LOG: log } });
  assert.equal(r.code, 0, r.stderr);
  const files = new Set(
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => fileURLToPath(l.slice(l.indexOf(' ') + 1))),
  );
  return [...files].filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(f, 'utf8'));
}

const defines = (code: string[], fn: string) => code.some((c) => c.includes(`function ${fn}(`));

test('a command named on the command line loads its own module and no other command', async () => {
  for (const [args, name] of [
    [['whoami'], 'whoami'],
    [['--profile', 'sandbox', '-o', 'json', '--no-color', 'whoami'], 'whoami-after-options'],
  ] as const) {
    const code = await loadedCode([...args], name);
    assert.ok(defines(code, 'whoamiCommand'), `${args.join(' ')}: its command is loaded`);
    for (const other of ['assistantsCommand', 'callsCommand', 'archiveCommand', 'testCommand', 'completionCommand']) {
      assert.ok(!defines(code, other), `${args.join(' ')}: ${other} is not loaded`);
    }
  }
});

test('help at the top, help <command> and completion build the whole program', async () => {
  for (const [args, name] of [
    [['--help'], 'help'],
    [['help', 'calls'], 'help-calls'],
    [['completion', 'bash'], 'completion'],
  ] as const) {
    const code = await loadedCode([...args], name);
    for (const fn of ['assistantsCommand', 'callsCommand', 'testCommand', 'completionCommand']) assert.ok(defines(code, fn), `${args.join(' ')} loads ${fn}`);
  }
});

test("a command built alone prints the same help as the whole program's", async () => {
  const names = buildProgram('0')
    .commands.map((c) => c.name())
    .filter((n) => n !== 'completion');
  assert.ok(names.length >= 13);
  await Promise.all(
    names.map(async (n) => {
      const [alone, whole] = await Promise.all([runCli([n, '--help'], { env: home.env }), runCli(['help', n], { env: home.env })]);
      assert.equal(alone.code, 0, alone.stderr);
      assert.equal(alone.stdout, whole.stdout, `switchboard ${n} --help`);
    }),
  );
});
