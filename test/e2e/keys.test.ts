// Keys in, in a real terminal (the built binary in tmux): keys typed during start-up wait for the
// app, and a paste arrives bracketed (text, not commands) and the brackets are off again after.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { CLI } from '../support/cli.js';
import { labForFile } from '../support/lab.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { until } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? CLI;
const skip = tmuxSkip(cli);

const lab = labForFile();
const { sessions } = lab;

/** The console on the lab profile; `then` runs in the same pane after it exits. */
function open(name: string, then?: string): TmuxSession {
  const t = startTmux({
    name: `sb-keys-${name}-${process.pid}`,
    cwd: root,
    env: { ...lab.home.env, TERM: 'xterm-256color' },
    command: [process.execPath, cli, '--profile', 'lab'].map((a) => JSON.stringify(a)).join(' ') + (then ? `; ${then}` : ''),
  });
  sessions.push(t);
  return t;
}

const withSgr = (t: TmuxSession) => t.screen({ colours: true });

/** Which row of the call log is highlighted (inverse): 0 for the first under the header, -1 for none. */
function highlightedRow(t: TmuxSession): number {
  const lines = withSgr(t).split('\n');
  const header = lines.findIndex((l) => /CREATED.*STATUS/.test(l));
  const selected = lines.findIndex((l, i) => i > header && /\x1b\[(?:[\d;]*;)?7(?:;[\d;]*)?m/.test(l));
  return header >= 0 && selected > header ? selected - header - 1 : -1;
}

/** Polls (bounded) until the highlight is on `row`; fails with the row it is on. */
async function highlightOn(t: TmuxSession, row: number) {
  await until(() => highlightedRow(t) === row, `the highlight on row ${row}`).catch(() =>
    assert.fail(`the highlight is on row ${highlightedRow(t)}, not ${row}:\n${t.screen()}`),
  );
}

describe('keys in a real terminal', { skip }, () => {
  test("3 then j typed before the first frame land on the call log's second row", { timeout: 10 * 60_000 }, async () => {
    const t = open('ahead');
    // Sent at once, before node has even loaded the CLI: they wait in the terminal.
    t.keys('3');
    t.keys('j');
    await t.waitFor(/CREATED[\s\S]*\d{4}-\d\d-\d\d \d\d:\d\d[\s\S]*\d{4}-\d\d-\d\d \d\d:\d\d/);
    await highlightOn(t, 1);
    // j moved once, and only once: nothing else waits.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(highlightedRow(t), 1);
    t.keys('C-c');
    await t.waitForExit();
  });

  test('a paste on the call log is not keys; after quitting the shell gets no brackets', { timeout: 10 * 60_000 }, async () => {
    const t = open('paste', 'echo console-exited; cat -v');
    t.keys('3');
    await t.waitFor('calls/day');
    await t.waitFor(/CREATED[\s\S]*\d{4}-\d\d-\d\d \d\d:\d\d/);
    t.paste('jjj');
    await t.waitFor('Nothing was pasted');
    assert.equal(highlightedRow(t), 0, 'the pasted letters moved nothing');
    t.keys('j');
    await highlightOn(t, 1);
    t.keys('q');
    await t.waitFor('console-exited');
    t.paste('after quit');
    t.keys('Enter');
    const screen = await t.waitFor(/after quit\s*\n\s*after quit/);
    assert.doesNotMatch(screen, /\^\[\[20[01]~/, 'bracketed paste is off once the console has quit');
    t.keys('C-d');
  });
});
