// The built console in a real terminal (tmux) on the terminals people have: TERM=dumb is refused
// in one line; a C/POSIX locale gets ASCII from the one glyph table; NO_COLOR keeps the selected
// row visible; small windows keep header and footer (the delete dialog no longer draws over the
// header), and below 40×10 one line asks for more room until the window grows again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { CLI, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const skip = tmuxSkip();

const sb = sandboxForFile();
let home: CliHome;
const sessions: TmuxSession[] = [];
before(async () => {
  home = tempHome();
});
after(async () => {
  sessions.forEach((s) => s.kill());
  home.cleanup();
});

function open(name: string, env: Record<string, string>, size: { width?: number; height?: number } = {}, shell = false): TmuxSession {
  const cmd = [process.execPath, CLI].map((a) => JSON.stringify(a)).join(' ');
  const t = startTmux({
    name: `sb-caps-${name}-${process.pid}`,
    cwd: root,
    env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey, TERM: 'xterm-256color', ...env },
    // With `shell`, the pane stays after the program ends, to read what it printed.
    command: shell ? `sh -c '${cmd}; echo EXIT=$?; sleep 60'` : cmd,
    ...size,
  });
  sessions.push(t);
  return t;
}

const coloured = (t: TmuxSession) => t.screen({ colours: true });
/** A colour in any SGR (39 and 49, the default colours, tmux writes before a text style). */
const hasColour = (screen: string) =>
  [...screen.matchAll(/\x1b\[([\d;]*)m/g)].some((m) => m[1].split(';').some((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)));

async function quit(t: TmuxSession) {
  t.keys('C-c');
  assert.equal(await t.waitForExit(), 0);
}

describe('the console on the terminals people have', { skip }, () => {
  test('TERM=dumb: one line that says why and points at the commands, exit 2, the terminal untouched', { timeout: 10 * 60_000 }, async () => {
    const t = open('dumb', { TERM: 'dumb' }, { width: 200 }, true);
    const screen = await t.waitFor(/EXIT=\d/);
    assert.match(
      screen,
      new RegExp(
        String.raw`^switchboard: the console cannot run on TERM=dumb \(it needs a terminal that moves the cursor\); ` +
          String.raw`for scripts use the commands \(switchboard --help\)\nEXIT=2$`,
        'm',
      ),
    );
  });

  test('a C locale: the frame is ASCII (status mark, separators, ellipsis, dialog borders) from the glyph table', { timeout: 10 * 60_000 }, async () => {
    const t = open('ascii', { LANG: 'C', LC_ALL: 'C' }, { width: 100, height: 30 });
    const screen = await t.waitFor(/\* online[\s\S]*NAME/);
    assert.match(screen.split('\n')[0], /^Switchboard \| http:\/\/127\.0\.0\.1:\d+ \(sk-~\w+\) \| profile env \| \* online/);
    t.keys('5');
    await t.waitFor('SIZE');
    t.keys('d');
    const dialog = await t.waitFor('Delete file');
    assert.match(dialog, /^\+-{20,}\+$/m, 'the dialog has an ASCII border');
    assert.match(dialog, /^\| > cancel +\|$/m, 'and an ASCII selection mark (a delete starts on cancel)');
    assert.deepEqual(
      [...dialog].filter((c) => c.charCodeAt(0) > 0x7e),
      [],
      `nothing but ASCII on screen:\n${dialog}`,
    );
    t.keys('n');
    await quit(t);
  });

  test('NO_COLOR: no colour, the selected row marked with › and moving with j', { timeout: 10 * 60_000 }, async () => {
    const t = open('nocolor', { NO_COLOR: '1' });
    const screen = await t.waitFor(/● online[\s\S]*NAME[\s\S]*^› /m);
    assert.ok(!hasColour(coloured(t)), 'no colour codes');
    const row = screen.split('\n').findIndex((l) => l.startsWith('› '));
    t.keys('j');
    await t.waitFor(new RegExp(`^(?:.*\\n){${row + 1}}› `));
    await quit(t);
  });

  test('small windows: 40×10 keeps header and footer, the delete dialog included; below, one line; bigger again, back', { timeout: 10 * 60_000 }, async () => {
    const t = open('small', {}, { width: 80, height: 24 });
    await t.waitFor(/● online[\s\S]*NAME/);
    t.keys('5');
    await t.waitFor('SIZE');
    t.resize(40, 10);
    await t.waitFor(/^Files$/m);
    t.keys('d');
    // The footer takes the dialog's keys one frame after the dialog appears (its bindings register as it mounts).
    const dialog = await t.waitFor(/cancel[\s\S]*y yes · n no/);
    const lines = dialog.split('\n');
    assert.match(lines[0], /^Switchboard │/, `the header stays on top with the dialog open:\n${dialog}`);
    // The breadcrumb (a refresh that lasts, on a busy machine, adds its mark after it).
    assert.match(lines[1], /^Files(?: {2}\S.*)?$/);
    assert.match(lines[9], /y yes · n no/, 'the footer is on the last row');
    t.keys('n');
    t.resize(30, 8);
    const tiny = await t.waitFor('Too small');
    assert.equal(tiny.trim().split('\n').length, 1, `one line:\n${tiny}`);
    assert.match(tiny, /^Too small \(30×8\); needs 40×10/);
    t.resize(100, 30);
    const back = await t.waitFor(/SIZE/);
    assert.match(back.split('\n')[0], /^Switchboard │/);
    await quit(t);
  });
});
