// Type-ahead in a real terminal (the built binary in tmux), at 80×24 and at 200×50: the key that
// opens a screen and the text after it arrive in ONE write, from a service made slow on purpose
// (every request held back), so the text is surely read while the next screen still waits. Every
// character lands where it was meant (the chat's message, the filter, the palette's command and
// the screen it opens, a form's field), and none of it runs a global key: no q quitting, no ?
// opening help, no digit switching screens. Esc and a digit read at once are Esc, then the digit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { saveProfile } from '../../src/config/config.js';
import { CLI, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile, withLatency, type SlowService } from '../support/sandbox.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? CLI;
const skip = tmuxSkip(cli);
if (skip) console.log(`# skipping the type-ahead end-to-end run: ${skip}`);

const DELAY_MS = 300;
const sb = sandboxForFile();
let slow: SlowService;
let home: CliHome;
const sessions: TmuxSession[] = [];

before(async () => {
  await sb.started;
  slow = await withLatency(sb.url, DELAY_MS);
  home = tempHome();
  saveProfile('slow', { baseUrl: slow.url, apiKey: sb.apiKey }, home.env);
});
after(async () => {
  sessions.forEach((s) => s.kill());
  await slow?.close();
  home?.cleanup();
});

/** The console on the slow profile, its assistants listed. */
async function open(name: string, width: number, height: number): Promise<TmuxSession> {
  const t = startTmux({
    name: `sb-type-ahead-${name}-${width}x${height}-${process.pid}`,
    cwd: root,
    width,
    height,
    env: { ...home.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    command: [process.execPath, cli, '--profile', 'slow'].map((a) => JSON.stringify(a)).join(' '),
  });
  sessions.push(t);
  await t.waitFor(/Riley[\s\S]*Leo/);
  return t;
}

/** The pane's second line: the screen's title (breadcrumbs). */
const title = (t: TmuxSession) => t.screen().split('\n')[1] ?? '';

/** Still running, on the screen titled `expected`, help not open. */
function stillRunning(t: TmuxSession, expected: RegExp) {
  assert.equal(t.exitStatus(), null, `the console is still running:\n${t.screen()}`);
  assert.match(title(t), expected, t.screen());
  assert.doesNotMatch(title(t), /Help/, t.screen());
}

for (const [width, height] of [
  [80, 24],
  [200, 50],
] as const) {
  describe(`type-ahead at ${width}×${height}`, { skip }, () => {
    test('c, a message with q, ? and digits, and Enter in one write: the chat sends exactly that message', { timeout: 10 * 60_000 }, async () => {
      const t = await open('chat', width, height);
      const message = 'quick question? 1 or 2';
      t.type(`c${message}\r`);
      // The reply quotes the message whole: it was sent as typed, every letter of it.
      await t.waitFor(/anything on\s+"quick question\? 1 or 2"/);
      stillRunning(t, /session/);
      assert.match(t.screen(), /You · [\s\S]*quick question\? 1 or 2/);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });

    test('/ and a filter with q, a digit and ?, in one write: the filter has all of it, on Assistants', { timeout: 10 * 60_000 }, async () => {
      const t = await open('filter', width, height);
      t.type('/q1?');
      await t.waitFor(/^\/q1\?/m);
      stillRunning(t, /^Assistants(\s|$)/);
      // Enter ends the filter; Esc clears it, and the rows are back.
      t.keys('Enter');
      t.keys('Escape');
      await t.waitFor(/Riley[\s\S]*Leo/);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });

    test(': and a command, then a filter, in one write: Numbers opens and the filter after it is its own', { timeout: 10 * 60_000 }, async () => {
      const t = await open('palette', width, height);
      t.type(':numbers\r/+44\r');
      await t.waitFor(/^\/\+44/m);
      stillRunning(t, /^Numbers(\s|$)/);
      await t.waitFor('+442079460958');
      assert.doesNotMatch(t.screen(), /\+14155550100/, 'the filter hides the other numbers');
      // Enter, then Esc and 1 at once: its detail, back, and Assistants.
      t.keys('Enter');
      await t.waitFor(/number [0-9a-f-]{36}/);
      t.type('\x1b1');
      await t.waitFor(/^Assistants(\s|$)/m);
      stillRunning(t, /^Assistants(\s|$)/);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });

    test('e and more of the name in one write: the edit form, loaded from the service, has it after the name', { timeout: 10 * 60_000 }, async () => {
      const t = await open('edit', width, height);
      t.type('e 2? q');
      await t.waitFor(/Name\s+Riley — Northwind support 2\? q/);
      stillRunning(t, /edit/);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });

    test('o, two Tabs and a number in one write: the outbound form, its pickers loaded, has it in Customer number', { timeout: 10 * 60_000 }, async () => {
      const t = await open('outbound', width, height);
      t.type('o\t\t+14155550123q');
      await t.waitFor(/Customer number\s+\+14155550123q/);
      stillRunning(t, /outbound call/);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });

    test('n and a name with ?, a digit and q in one write: the new assistant form has it in Name', { timeout: 10 * 60_000 }, async () => {
      const t = await open('form', width, height);
      t.type('nQuick 1? q');
      await t.waitFor(/Name\s+Quick 1\? q/);
      stillRunning(t, /new assistant/);
      // Two Tabs and a Space at once: Active (a toggle) is switched off, and Name is unchanged.
      t.type('\t\t ');
      await t.waitFor(/Active\s+(\[ \]|no|off)/);
      assert.match(t.screen(), /Name\s+Quick 1\? q\s*$/m);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    });
  });
}
