// What happens on a real terminal (tmux): the key is typed hidden, delete asks first, tables
// line up in colour. Skipped where tmux is missing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { CLI, runCli, tempHome, type CliHome } from '../support/cli.js';
import { shellQuote, startTmux, type TmuxSession } from '../support/tmux.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const sb = sandboxForFile({}, { skip: !hasTmux });
let home: CliHome;

const sessions: TmuxSession[] = [];

/** Runs the binary in a fresh terminal with exactly `env` (env -i), then says how it exited. */
function terminal(name: string, args: string[], env: NodeJS.ProcessEnv, columns = 150) {
  const envArgs = Object.entries({ ...env, TERM: 'xterm-256color' })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => shellQuote(`${k}=${v}`))
    .join(' ');
  const t = startTmux({
    name: `cmd-${name}-${process.pid}`,
    cwd: process.cwd(),
    env: {},
    width: columns,
    height: 30,
    command: `env -i ${envArgs} ${shellQuote(process.execPath)} ${shellQuote(CLI)} ${args.map(shellQuote).join(' ')}; echo "EXIT=$?"; sleep 600`,
  });
  sessions.push(t);
  return {
    screen: (colour = false) => t.screen({ colours: colour }),
    type: (...keys: string[]) => t.keys(...keys),
    waitFor: (text: string | RegExp) => t.waitFor(text),
    close: () => t.kill(),
  };
}

before(async () => {
  if (!hasTmux) return;
  home = tempHome();
});
after(async () => {
  if (!hasTmux) return;
  sessions.forEach((t) => t.kill());
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
    // Gone: `files get` looks the id up in the list first, and names what it did not find (exit 2).
    assert.equal((await runCli(['files', 'get', id], { env })).code, 2, 'gone');
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
          // stderr's note on a list cut at its limit (more calls: …) follows the table in the pane.
          const noted = lines.findIndex((l) => l.startsWith('more '));
          const table = (noted >= 0 ? lines.slice(0, noted) : lines).filter((l) => l.trim() !== '');
          // A line as wide as the window would wrap in the pane: none may wrap.
          const rows = (await runCli([...args, '-o', 'ids'], { env })).stdout.split('\n').filter(Boolean).length;
          assert.equal(table.length, rows + 1, `${args.join(' ')} at ${columns}: a header and one line a row, none wrapped\n${screen}`);
          for (const h of must) assert.ok(table[0].includes(h), `${args.join(' ')} at ${columns} keeps ${h}: ${table[0]}`);
          // A short id is the id's end, as the console shows it (src/format/short-id.ts): typed back, it names that record.
          assert.ok(
            table.slice(1).every((l) => {
              const shown = l.split(/\s+/)[0];
              return shown.length >= 8 && !shown.includes('…') && (!args.includes('calls') || ids.some((id) => id.endsWith(shown)));
            }),
            `ids shown as the console shows them (their end, no ellipsis):\n${screen}`,
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
