// In a real terminal (the built binary in tmux): --read-only refuses a write key with one line and
// says so in the header; the mouse is off unless asked for (tmux reports the pane's mouse modes),
// and with --mouse the wheel and a click move the highlight and the modes are off after quitting;
// a keys file's key works and a bad one is one line before the console starts; --theme light
// changes the header's colours, and a bad theme file is one line before the console starts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI } from '../support/cli.js';
import { labForFile } from '../support/lab.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { until } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? CLI;
const skip = tmuxSkip(cli);

const lab = labForFile();
const { sessions } = lab;

function open(name: string, args: string[], then?: string, width = 120): TmuxSession {
  const t = startTmux({
    width,
    name: `sb-rmk-${name}-${process.pid}`,
    cwd: root,
    env: { ...lab.home.env, TERM: 'xterm-256color' },
    command: [process.execPath, cli, '--profile', 'lab', ...args].map((a) => JSON.stringify(a)).join(' ') + (then ? `; ${then}` : ''),
  });
  sessions.push(t);
  return t;
}

/** The pane's mouse modes as tmux tracks them: what the program in it asked the terminal for. */
const mouseModes = (t: TmuxSession) => t.display('#{mouse_standard_flag}#{mouse_sgr_flag}');

const withSgr = (t: TmuxSession) => t.screen({ colours: true });

/** Which row of the call log is highlighted (inverse): 0 for the first under the header, -1 for none. */
function highlightedRow(t: TmuxSession): number {
  const lines = withSgr(t).split('\n');
  const header = lines.findIndex((l) => /CREATED.*STATUS/.test(l));
  const selected = lines.findIndex((l, i) => i > header && /\x1b\[(?:[\d;]*;)?7(?:;[\d;]*)?m/.test(l));
  return header >= 0 && selected > header ? selected - header - 1 : -1;
}

async function highlightOn(t: TmuxSession, row: number) {
  await until(() => highlightedRow(t) === row, `the highlight on row ${row}`).catch(() =>
    assert.fail(`the highlight is on row ${highlightedRow(t)}, not ${row}:\n${t.screen()}`),
  );
}

describe('read-only, mouse and keys in a terminal', { skip }, () => {
  test('--read-only: the header says so; n on Assistants is refused with one line and opens nothing', { timeout: 10 * 60_000 }, async () => {
    const t = open('ro', ['--read-only']);
    await t.waitFor('READ-ONLY');
    t.keys('1');
    await t.waitFor(/NAME\s+STATUS/);
    t.keys('n');
    const screen = await t.waitFor('Read-only: "new" is a write and was refused; nothing was sent');
    assert.doesNotMatch(screen, /New assistant/);
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
  });

  test('by default no mouse mode is asked for', { timeout: 10 * 60_000 }, async () => {
    const t = open('nomouse', []);
    t.keys('3');
    await t.waitFor(/CREATED[\s\S]*\d{4}-\d\d-\d\d \d\d:\d\d/);
    assert.equal(mouseModes(t), '00');
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
  });

  test('--mouse: the wheel and a click move the highlight; after quitting the modes are off', { timeout: 10 * 60_000 }, async () => {
    const t = open('mouse', ['--mouse'], 'echo console-exited; sleep 30');
    t.keys('3');
    await t.waitFor(/CREATED[\s\S]*\d{4}-\d\d-\d\d \d\d:\d\d/);
    await until(() => mouseModes(t) === '11', 'mouse modes on');
    await highlightOn(t, 0);
    t.type('\x1b[<65;10;20M');
    await highlightOn(t, 3);
    const header = t
      .screen()
      .split('\n')
      .findIndex((l) => /CREATED.*STATUS/.test(l));
    t.type(`\x1b[<0;10;${header + 1 + 6}M\x1b[<0;10;${header + 1 + 6}m`);
    await highlightOn(t, 5);
    assert.doesNotMatch(t.screen(), /\[<|;10;/, 'no report was shown as text');
    t.keys('q');
    await t.waitFor('console-exited');
    assert.equal(mouseModes(t), '00');
  });

  test('a keys file: its key works and the footer shows it; a bad one is one line and the console does not start', { timeout: 10 * 60_000 }, async () => {
    const dir = join(lab.home.env.XDG_CONFIG_HOME!, 'switchboard');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'keys.yaml'), 'calls:\n  stats: T\n');
    const t = open('keys', [], undefined, 200);
    t.keys('3');
    await t.waitFor('T stats');
    t.keys('T');
    await t.waitFor('chart calls/minutes/cost');
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
    writeFileSync(join(dir, 'keys.yaml'), 'calls:\n  stats: f\n');
    try {
      const bad = open('badkeys', []);
      assert.equal(await bad.waitForExit(), 2);
      assert.match(bad.screen(), /give one of them another key/, 'the one line (the start of it is above the pane: the path is long)');
    } finally {
      // The tests after this one share the home: a bad keys file would stop their consoles too.
      rmSync(join(dir, 'keys.yaml'));
    }
  });

  test('--theme light: the header in its colours; a bad theme file is one line and the console does not start', { timeout: 10 * 60_000 }, async () => {
    const header = (t: TmuxSession) =>
      withSgr(t)
        .split('\n')
        .find((l) => l.includes('Switchboard')) ?? '';
    const t = open('light', ['--theme', 'light']);
    await t.waitFor(/online[\s\S]*NAME/);
    // Black on cyan (light), not white on blue (dark).
    assert.match(header(t), /\x1b\[(?:[\d;]*;)?46(?:;[\d;]*)?m/, JSON.stringify(header(t)));
    assert.doesNotMatch(header(t), /\x1b\[(?:[\d;]*;)?44(?:;[\d;]*)?m/);
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
    const file = join(lab.home.env.XDG_CONFIG_HOME!, 'switchboard', 'theme.yaml');
    mkdirSync(join(lab.home.env.XDG_CONFIG_HOME!, 'switchboard'), { recursive: true });
    writeFileSync(file, 'accent: blurple\n');
    try {
      const bad = open('badtheme', []);
      assert.equal(await bad.waitForExit(), 2);
      assert.match(bad.screen(), /#rrggbb or ansi256\(n\)$/m, 'the one line (the start of it is above the pane: the path is long)');
      assert.doesNotMatch(bad.screen(), /\s+at /, 'no stack trace');
    } finally {
      rmSync(file);
    }
  });
});
