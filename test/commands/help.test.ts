// Help and completion come from the commander tree itself; these tests compare the built
// binary's --help and completion scripts against that tree, so neither can drift.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/commands/program.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

let home: CliHome;
before(() => {
  home = tempHome();
});
after(() => home.cleanup());

function everyCommand(cmd: Command, path: string[] = []): { cmd: Command; path: string[] }[] {
  return [{ cmd, path }, ...cmd.commands.flatMap((c) => everyCommand(c, [...path, c.name()]))];
}

const program = buildProgram('0.0.0-test');
const commands = everyCommand(program);

describe('--help', () => {
  test("every command's help lists its real options, arguments and subcommands, with examples", async () => {
    assert.ok(commands.length > 30);
    await Promise.all(
      commands.map(async ({ cmd, path }) => {
        const r = await runCli([...path, '--help'], { env: home.env });
        const where = `switchboard ${path.join(' ')} --help`;
        assert.equal(r.code, 0, `${where}: ${r.stderr}`);
        for (const o of cmd.options) assert.ok(r.stdout.includes(o.flags), `${where} lists ${o.flags}`);
        for (const o of program.options) assert.ok(r.stdout.includes(o.flags), `${where} lists the global ${o.flags}`);
        for (const a of cmd.registeredArguments) assert.ok(r.stdout.includes(a.name()), `${where} names <${a.name()}>`);
        for (const c of cmd.commands) assert.match(r.stdout, new RegExp(`^  ${c.name()}\\b`, 'm'), `${where} lists ${c.name()}`);
        assert.match(r.stdout, /\nExamples:\n {2}\$ /, `${where} has examples`);
        // Commander adds "(default: x)" for an option or argument with a default: its description must not say it again.
        for (const line of r.stdout.split('\n')) assert.ok((line.match(/\(default:?\s/gi) ?? []).length <= 1, `${where} says a default twice: ${line.trim()}`);
        for (const o of [...cmd.options, ...cmd.registeredArguments])
          if (o.defaultValue !== undefined && !o.defaultValueDescription)
            assert.doesNotMatch(
              o.description,
              /\bdefault\b/i,
              `${where}: ${'flags' in o ? o.flags : o.name()}'s description repeats the default commander shows`,
            );
      }),
    );
  });
});

describe('completion', () => {
  for (const shell of ['bash', 'zsh'] as const) {
    test(`${shell}: lists every command and option of the tree`, async () => {
      const r = await runCli(['completion', shell], { env: home.env });
      assert.equal(r.code, 0, r.stderr);
      for (const { cmd, path } of commands) {
        if (path.length > 0) assert.ok(r.stdout.includes(`switchboard ${path.join(' ')}`), `${shell} knows ${path.join(' ')}`);
        for (const o of cmd.options) if (o.long) assert.ok(r.stdout.includes(o.long), `${shell} knows ${o.long}`);
      }
    });
  }

  test('bash: the script completes subcommands and options in a real bash', async () => {
    const script = join(home.dir, 'completion.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'], { env: home.env })).stdout);
    const complete = (words: string[]) => {
      const line =
        `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _switchboard; printf '%s\\n' ` +
        `"\${COMPREPLY[@]}"`;
      const r = spawnSync('bash', ['-c', line], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split('\n').filter(Boolean);
    };
    assert.deepEqual(complete(['switchboard', 'as']), ['assistants']);
    assert.deepEqual(complete(['switchboard', 'calls', 'o']), ['outbound']);
    assert.ok(complete(['switchboard', '-o', 'json', 'calls', 'outbound', '--']).includes('--to'));
    assert.deepEqual(complete(['switchboard', 'files', 'delete', 'x', '--y']), ['--yes']);
  });
});
