// What happens on a real terminal (tmux): the key is typed hidden, delete asks first, tables
// line up in colour. Skipped where tmux is missing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sandboxForFile } from '../support/sandbox.js';
import { CLI, runCli, tempHome, type CliHome } from '../support/cli.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const socket = `switchboard-cmd-test-${process.pid}`;
const sb = sandboxForFile({}, { skip: !hasTmux });
let home: CliHome;

const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the binary in a fresh tmux window; resolves with a handle to type into and read. */
function terminal(name: string, args: string[], env: NodeJS.ProcessEnv, columns = 150) {
  const envArgs = Object.entries({ ...env, TERM: 'xterm-256color' })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => shellQuote(`${k}=${v}`))
    .join(' ');
  const cmd = `env -i ${envArgs} ${shellQuote(process.execPath)} ${shellQuote(CLI)} ${args.map(shellQuote).join(' ')}; echo "EXIT=$?"; sleep 600`;
  // The tests share one tmux server; when the previous test's last session just ended, the server
  // may be exiting as this one connects ("server exited unexpectedly"): start it again.
  let r = tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', '30', cmd);
  for (let i = 0; i < 3 && r.status !== 0 && /server exited unexpectedly/.test(r.stderr); i++) {
    r = tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', '30', cmd);
  }
  assert.equal(r.status, 0, r.stderr);
  return {
    screen: (colour = false) => tmux('capture-pane', '-p', ...(colour ? ['-e'] : []), '-t', name).stdout,
    type: (...keys: string[]) => tmux('send-keys', '-t', name, ...keys),
    /** Waits until the screen shows `text` (the test's own timeout bounds it). */
    async waitFor(text: string | RegExp): Promise<string> {
      for (;;) {
        const s = tmux('capture-pane', '-p', '-t', name).stdout;
        if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
        await delay(100);
      }
    },
    close: () => tmux('kill-session', '-t', name),
  };
}

before(async () => {
  if (!hasTmux) return;
  home = tempHome();
});
after(async () => {
  if (!hasTmux) return;
  tmux('kill-server');
  home.cleanup();
});

describe('on a terminal', { skip: !hasTmux && 'tmux is not installed' }, () => {
  test('login reads the key hidden (nothing echoed), verifies and saves it', { timeout: 10 * 60_000 }, async () => {
    const t = terminal('login', ['login', '--profile', 'tty', '--base-url', sb.url], home.env);
    try {
      await t.waitFor('API key for');
      t.type('-l', sb.apiKey + 'XY');
      t.type('BSpace', 'BSpace', 'Enter');
      const screen = await t.waitFor('EXIT=');
      assert.match(screen, /EXIT=0/);
      assert.ok(!screen.includes(sb.apiKey), 'the typed key is not echoed');
      assert.ok(!screen.includes(sb.apiKey.slice(0, 12)), 'not even part of it');
      assert.match(screen, /logged in: profile tty/);
      const config = readFileSync(join(home.env.XDG_CONFIG_HOME!, 'switchboard', 'config.json'), 'utf8');
      assert.ok(config.includes(`"apiKey": "${sb.apiKey}"`), 'backspace removed the extra characters');
    } finally {
      t.close();
    }
  });

  test('files delete asks; "n" keeps the file, "y" deletes it', { timeout: 10 * 60_000 }, async () => {
    const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const path = join(home.dir, 'note.txt');
    writeFileSync(path, 'a note\n');
    const id = (await runCli(['files', 'upload', path, '-o', 'ids'], { env })).stdout.trim();

    const no = terminal('delete-no', ['files', 'delete', id], env);
    try {
      await no.waitFor('[y/N]');
      no.type('n', 'Enter');
      assert.match(await no.waitFor('EXIT='), /not deleted/);
    } finally {
      no.close();
    }
    assert.equal((await runCli(['files', 'get', id], { env })).code, 0, 'still there');

    const yes = terminal('delete-yes', ['files', 'delete', id], env);
    try {
      await yes.waitFor('[y/N]');
      yes.type('y', 'Enter');
      assert.match(await yes.waitFor('EXIT='), /EXIT=0/);
    } finally {
      yes.close();
    }
    assert.equal((await runCli(['files', 'get', id], { env })).code, 1, 'gone');
  });

  test('a table on a terminal is aligned and coloured; NO_COLOR turns colour off', { timeout: 10 * 60_000 }, async () => {
    const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const t = terminal('table', ['numbers', 'list'], env);
    try {
      await t.waitFor('EXIT=');
      const plain = t
        .screen()
        .split('\n')
        .filter((l) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} /.test(l) || l.startsWith('ID '));
      assert.ok(plain.length >= 4);
      assert.ok(!plain.some((l) => l.includes('\t')), 'aligned with spaces, not tabs');
      const col = plain[0].indexOf('DID');
      assert.ok(
        plain.slice(1).every((l) => l[col] === '+'),
        'the DID column lines up',
      );
      assert.ok(t.screen(true).includes('\u001b['), 'coloured');
    } finally {
      t.close();
    }
    const n = terminal('nocolor', ['numbers', 'list'], { ...env, NO_COLOR: '1' });
    try {
      await n.waitFor('EXIT=');
      assert.ok(!/\u001b\[(1|3\d)m/.test(n.screen(true)), 'no colour with NO_COLOR');
    } finally {
      n.close();
    }
  });

  test(
    'tables fit the terminal: low-priority columns drop, long cells are cut, ids only as the width needs; --wide shows them whole',
    { timeout: 10 * 60_000 },
    async () => {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
      const ids = (await runCli(['calls', 'list', '--limit', '5', '-o', 'ids'], { env })).stdout.split('\n').filter(Boolean);
      for (const [args, columns, must] of [
        [['calls', 'list', '--limit', '5'], 80, ['ID', 'CREATED', 'STATUS']],
        [['calls', 'list', '--limit', '5'], 60, ['ID', 'CREATED', 'STATUS']],
        [['assistants', 'list'], 60, ['ID', 'NAME', 'STATUS']],
        [['numbers', 'list'], 50, ['ID', 'DID', 'ASSISTANT']],
      ] as [string[], number, string[]][]) {
        const t = terminal(`fit-${columns}-${args[0]}`, args, env, columns);
        try {
          const screen = await t.waitFor('EXIT=');
          const lines = screen.split('\n').slice(
            0,
            screen.split('\n').findIndex((l) => l.startsWith('EXIT=')),
          );
          const table = lines.filter((l) => l.trim() !== '');
          // A line as wide as the window would wrap in the pane: none may wrap.
          const rows = (await runCli([...args, '-o', 'ids'], { env })).stdout.split('\n').filter(Boolean).length;
          assert.equal(table.length, rows + 1, `${args.join(' ')} at ${columns}: a header and one line a row, none wrapped\n${screen}`);
          for (const h of must) assert.ok(table[0].includes(h), `${args.join(' ')} at ${columns} keeps ${h}: ${table[0]}`);
          assert.ok(
            table.slice(1).every((l) => /^[0-9a-f]{8}-[0-9a-f-]{3,} /.test(l)),
            `ids cut as the console cuts them (their start, no ellipsis) only as the width needs:\n${screen}`,
          );
          assert.match(screen, /EXIT=0/);
        } finally {
          t.close();
        }
      }
      const wide = terminal('fit-wide', ['--wide', 'calls', 'list', '--limit', '5'], env, 300);
      try {
        const screen = await wide.waitFor('EXIT=');
        for (const id of ids) assert.ok(screen.includes(id), `--wide prints ${id} whole`);
        assert.match(screen.split('\n')[0], /ENDED REASON/, 'and every column');
      } finally {
        wide.close();
      }
    },
  );
});
