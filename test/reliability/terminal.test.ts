// The console in a real terminal (tmux) under abuse: a burst of resizes and a 40×12 window
// never crash or garble it; Ctrl-C and SIGTERM give the terminal back (cursor shown, raw mode
// off, main screen); piped stdin gets the one-line message and exit 2; the key never shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeTree } from '../support/cli.js';
import { shellQuote, startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { sandboxForFile } from '../support/sandbox.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

let home: string;
const sb = sandboxForFile();
const sessions: TmuxSession[] = [];
before(async () => {
  home = mkdtempSync(join(tmpdir(), 'sb-term-'));
});
after(async () => {
  sessions.forEach((s) => s.kill());
  removeTree(home);
});

/** Runs `command` in a shell that, once it ends, prints its exit code and whether the terminal is back in cooked mode. */
function open(name: string, command: string, size = { width: 100, height: 30 }): TmuxSession {
  const script = `${command}; echo "EXIT=$?"; stty -a | grep -o -- '-\\?icanon' | head -1 | sed 's/^/MODE=/'; echo DONE; sleep 600`;
  const t = startTmux({
    name: `${name}-${process.pid}`,
    command: `bash --norc --noprofile -c ${shellQuote(script)}`,
    cwd: root,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
      PATH: process.env.PATH,
      TERM: 'xterm-256color',
      SWITCHBOARD_BASE_URL: sb.url,
      SWITCHBOARD_API_KEY: sb.apiKey,
    },
    ...size,
  });
  sessions.push(t);
  return t;
}

/** After the console has ended: cursor shown, main screen, cooked mode. */
function assertRestored(t: TmuxSession, screen: string) {
  assert.match(screen, /MODE=icanon\b/, `raw mode is off:\n${screen}`);
  assert.equal(t.display('#{alternate_on} #{cursor_flag}'), '0 1', 'main screen, cursor visible');
}

test('a burst of resizes and a 40×12 window: alive, not garbled, still responsive; Ctrl-C restores the terminal', { skip, timeout: 10 * 60_000 }, async () => {
  const t = open('resize', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`);
  const screens: string[] = [];
  screens.push(await t.waitFor('NAME'));
  // A deterministic burst: 60 sizes from tiny to wide, as fast as tmux takes them.
  for (let i = 0; i < 60; i++) t.resize(20 + ((i * 37) % 180), 5 + ((i * 13) % 55));
  t.resize(40, 12);
  assert.equal(t.exitStatus(), null, 'the console survived the burst');
  const small = await t.waitFor(/^Switchboard/m);
  screens.push(small);
  const lines = small.split('\n');
  assert.ok(lines[0].startsWith('Switchboard'), `the header is on the first line:\n${small}`);
  assert.ok(
    lines.every((l) => [...l].length <= 40),
    'nothing drawn past 40 columns',
  );
  // Still responsive at 40×12: go to Calls and back.
  t.keys('3');
  screens.push(await t.waitFor(/Calls/));
  t.keys('1');
  screens.push(await t.waitFor(/Assistants/));
  t.resize(100, 30);
  screens.push(await t.waitFor('NAME'));
  assert.ok(
    screens.every((s) => !s.includes(sb.apiKey)),
    'the key is never on screen',
  );
  assert.ok(
    screens.some((s) => s.includes('sk-…')),
    'the masked key is shown',
  );
  t.keys('C-c');
  const done = await t.waitFor('DONE');
  assert.match(done, /EXIT=0/);
  assertRestored(t, done);
});

test('SIGTERM quits cleanly and restores the terminal', { skip, timeout: 10 * 60_000 }, async () => {
  const t = open('sigterm', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`);
  await t.waitFor('NAME');
  const node = t.pid();
  assert.match(readFileSync(`/proc/${node}/cmdline`, 'utf8'), /cli\.js/, 'found the console process');
  process.kill(node, 'SIGTERM');
  const done = await t.waitFor('DONE');
  assert.match(done, /EXIT=0/);
  assertRestored(t, done);
});

test('piped stdin on a terminal: one line, exit 2, the terminal untouched', { skip, timeout: 10 * 60_000 }, async () => {
  const t = open('piped', `echo x | ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`);
  const done = await t.waitFor('DONE');
  const said = done.slice(0, done.indexOf('EXIT=')).replace(/\n/g, '');
  assert.equal(said, 'switchboard: the console needs an interactive terminal; for scripts use the commands (switchboard --help)');
  assert.match(done, /EXIT=2/);
  assert.doesNotMatch(done, /\bat .+:\d+/, 'no stack trace');
  assertRestored(t, done);
});
