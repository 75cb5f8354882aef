// Ctrl-Z in a real terminal (tmux, an interactive bash with job control), however the console was
// started: the binary, `npm start` and `npx switchboard` in the checkout. npm and its `sh -c` are in
// the console's process group, the shell's job: the shell gets its prompt back (`Stopped`) only
// when all of them stop, and `fg` continues them all; the console then draws its whole frame again
// and takes keys.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { CLI } from '../support/cli.js';
import { labForFile } from '../support/lab.js';
import { startTmux, tmuxSkip } from '../support/tmux.js';
import { GUARD_MS } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? CLI;
const hasNpm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
// npm start and npx run the checkout's own dist/cli.js.
const npmSkip = tmuxSkip(resolve(root, 'dist/cli.js')) || (hasNpm ? false : 'npm is not installed');
if (npmSkip) console.log(`# skipping Ctrl-Z under npm start and npx: ${npmSkip}`);

const lab = labForFile();
const { sessions } = lab;

// Each step of a launcher's test is bounded by a part of the test's own timeout, so a step that
// never comes fails naming itself with the screen it left, rather than the test timing out mute.
const STEP_MS = Math.max(10_000, Math.floor(GUARD_MS / 8));

const LAUNCHERS = [
  { name: 'the binary', slug: 'bin', command: [process.execPath, cli, '--profile', 'lab'].map((a) => JSON.stringify(a)).join(' '), skip: tmuxSkip(cli) },
  { name: 'npm start', slug: 'npm-start', command: 'npm start -- --profile lab', skip: npmSkip },
  { name: 'npx switchboard', slug: 'npx', command: 'npx switchboard --profile lab', skip: npmSkip },
];

describe('Ctrl-Z and fg, in a shell with job control', () => {
  for (const l of LAUNCHERS) {
    test(`${l.name}: Ctrl-Z gives the shell its prompt, fg redraws the console and its keys work`, { skip: l.skip, timeout: 10 * 60_000 }, async () => {
      const t = startTmux({
        name: `sb-suspend-${l.slug}-${process.pid}`,
        cwd: root,
        // npm's own checks for a newer npm would ask the registry.
        env: { ...lab.home.env, TERM: 'xterm-256color', PS1: 'shell$ ', npm_config_update_notifier: 'false' },
        command: 'bash --norc --noprofile -i',
      });
      sessions.push(t);
      const step = async (what: string, shown: string | RegExp) => {
        try {
          return await t.waitFor(shown, STEP_MS);
        } catch (err) {
          throw new Error(`${l.name}, ${what}: ${(err as Error).message}`, { cause: err });
        }
      };
      await step("the shell's prompt", 'shell$');
      t.type(l.command);
      t.keys('Enter');
      await step("the console's first screen", /● online[\s\S]*NAME/);
      t.keys('C-z');
      await step("Ctrl-Z: the shell's prompt", /Stopped[\s\S]*^shell\$\s*$/m);
      assert.doesNotMatch(t.screen(), /NAME/, 'the alternate screen was left');
      // The terminal is the shell's again, as it had it: cooked, echoing.
      t.type("stty -a | tr ' ' '\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo");
      t.keys('Enter');
      await step('the terminal as the shell had it', /^icanon echo\s*$/m);
      t.type('fg');
      t.keys('Enter');
      const redrawn = await step('fg: the frame drawn again', /● online[\s\S]*NAME/);
      assert.doesNotMatch(redrawn, /Stopped|shell\$/, 'the whole frame is drawn again on the alternate screen');
      assert.doesNotMatch(redrawn, /Not suspended/);
      t.keys('3');
      await step('3: the calls screen', 'calls/day');
      // And a second time: the console is suspended as often as asked.
      t.keys('C-z');
      await step("the second Ctrl-Z: the shell's prompt", /Stopped[\s\S]*^shell\$\s*$/m);
      t.type('fg');
      t.keys('Enter');
      await step('the second fg: the frame drawn again', /● online[\s\S]*calls\/day/);
      t.keys('1');
      await step('1: the assistants screen', /● online[\s\S]*NAME/);
      t.keys('C-c');
      await step("Ctrl-C: the shell's prompt", /^shell\$ fg[\s\S]*^shell\$\s*$/m);
      t.type('echo "status $?"');
      t.keys('Enter');
      await step('the exit status', /^status 0\s*$/m);
    });
  }
});

// No shell with job control: the console is the pane's only program (under tmux's `sh -c`), a
// process group the kernel discards a stop for. The console does not wait for a `fg` that cannot come.
test('with no job control, Ctrl-Z says so and the console carries on', { skip: tmuxSkip(cli), timeout: 10 * 60_000 }, async () => {
  const t = startTmux({
    name: `sb-suspend-none-${process.pid}`,
    cwd: root,
    env: { ...lab.home.env, TERM: 'xterm-256color' },
    command: [process.execPath, cli, '--profile', 'lab'].map((a) => JSON.stringify(a)).join(' '),
  });
  sessions.push(t);
  await t.waitFor(/● online[\s\S]*NAME/);
  t.keys('C-z');
  await t.waitFor(/NAME[\s\S]*Not suspended: no shell with job control here/);
  t.keys('3');
  await t.waitFor('calls/day');
  t.keys('C-c');
  assert.equal(await t.waitForExit(), 0);
});
