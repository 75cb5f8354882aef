// End to end in a real terminal (tmux): the built console on the embedded sandbox, a fresh home.
// `4`, `n`, pick Ava, ask about something in her knowledge-base file, read the quoted answer; and
// `switchboard chat --assistant <id>` opening straight into a new chat.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI, runCli, tempHome, type CliHome } from '../support/cli.js';
import { listSessions } from '../../src/config/sessions.js';
import { dataDir } from '../../src/config/paths.js';
import { startTmux, tmuxSkip } from '../support/tmux.js';

const skip = tmuxSkip();
if (skip) console.log(`# skipping the chat end-to-end run: ${skip}`);

/** The built console in a 120×40 terminal, `args` after it. */
let opened = 0;
const open = (home: CliHome, args: string[] = []) =>
  startTmux({
    name: `chat-e2e-${process.pid}-${++opened}`,
    cwd: process.cwd(),
    env: { ...home.env, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
    command: [process.execPath, CLI, ...args].map((a) => JSON.stringify(a)).join(' '),
  });

describe('chat in a real terminal', { skip }, () => {
  let home: CliHome;
  before(() => {
    home = tempHome();
  });
  after(() => home?.cleanup());

  test('4, n, pick Ava, ask about parking: the answer quotes her knowledge-base file; q quits and the session is remembered', async () => {
    const term = open(home);
    try {
      await term.waitFor('NAME');
      term.type('4');
      await term.waitFor('No chats yet');
      term.type('n');
      await term.waitFor('pick the assistant');
      term.type('Ava');
      await term.waitFor('filter: Ava');
      term.keys('Enter');
      await term.waitFor('Name (optional)');
      await term.typeLine('parking');
      term.keys('Enter');
      await term.waitFor('Good day, Bright Smile Dental');
      await term.typeLine('Is there parking at the clinic?');
      term.keys('Enter');
      const answer = await term.waitFor('Free parking is available behind the building');
      assert.match(answer, /opening-hours\.md/);
      assert.match(answer, /You · \d\d:\d\d/);
      term.keys('Escape');
      const list = await term.waitFor('LAST MESSAGE');
      assert.match(list, /parking/);
      term.type('q');
      assert.equal(await term.waitForExit(), 0, 'q on the sessions list quits');
      const sessions = listSessions('sandbox', dataDir(home.env));
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0].name, 'parking');
      assert.equal(sessions[0].messageCount, 3);
    } finally {
      term.kill();
    }
  });

  test('a multi-line message in a real terminal: Alt-Enter and Ctrl-J add lines, Ctrl-W and Alt-← edit, Enter sends all of it', async () => {
    const listed = await runCli(['assistants', 'list', '-o', 'json'], { env: home.env });
    const max = (JSON.parse(listed.stdout) as { id: string; name?: string }[]).find((a) => a.name?.startsWith('Max'));
    assert.ok(max, 'the seed has Max');
    const term = open(home, ['chat', '--assistant', max!.id]);
    try {
      await term.waitFor('Say something to start.');
      await term.typeLine('who are you');
      term.keys('M-Enter');
      await term.typeLine('and what');
      term.keys('C-j');
      await term.typeLine('do you sell wrong');
      term.keys('C-w');
      await term.typeLine('sell?!');
      const box = await term.waitFor('do you sell sell?!');
      assert.match(box, /› who are you\n {2}and what\n {2}do you sell sell\?!/, box);
      // Alt-← lands before the second "sell"; Ctrl-W there takes the first one out; End, Backspace.
      term.keys('M-Left', 'C-w', 'End', 'BSpace');
      await term.waitFor('do you sell?\n');
      term.keys('Enter');
      const sent = await term.waitFor('product-faq.md');
      assert.match(sent, /who are you\n\s*and what\n\s*do you sell\?/, sent);
      term.keys('Escape');
      await term.waitFor('LAST MESSAGE');
      term.type('q');
      assert.equal(await term.waitForExit(), 0);
    } finally {
      term.kill();
    }
  });

  test('switchboard chat --assistant <id> opens straight into a new chat with that assistant', async () => {
    const listed = await runCli(['assistants', 'list', '-o', 'json'], { env: home.env });
    assert.equal(listed.code, 0, listed.stderr);
    const all = JSON.parse(listed.stdout) as { id: string; name?: string }[];
    const max = all.find((a) => a.name?.startsWith('Max'));
    assert.ok(max, 'the seed has Max');
    const term = open(home, ['chat', '--assistant', max!.id]);
    try {
      await term.waitFor('Say something to start.'); // Max waits for the user
      const first = term.screen();
      assert.match(first, /Max — Aurora product specialist/);
      await term.typeLine('who are you?');
      term.keys('Enter');
      await term.waitFor('product-faq.md');
      term.keys('Escape'); // the sessions list is under the chat
      await term.waitFor('LAST MESSAGE');
      term.type('q');
      assert.equal(await term.waitForExit(), 0);
      assert.ok(listSessions('sandbox', dataDir(home.env)).some((s) => s.assistantId === max!.id));
    } finally {
      term.kill();
    }
  });
});
