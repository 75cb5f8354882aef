// End to end in a real terminal (tmux): the built console on the embedded sandbox, a fresh home.
// `4`, `n`, pick Ava, ask about something in her knowledge-base file, read the quoted answer; and
// `switchboard chat --assistant <id>` opening straight into a new chat.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { CLI, runCli, tempHome, type CliHome } from '../support/cli.js';
import { listSessions } from '../../src/config/sessions.js';
import { dataDir } from '../../src/config/paths.js';
import { tmuxSkip } from '../support/tmux.js';

const skip = tmuxSkip();
if (skip) console.log(`# skipping the chat end-to-end run: ${skip}`);

/** One tmux server of our own (its own socket), running one program in a 120×40 window. */
class Terminal {
  private readonly socket = `switchboard-chat-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  constructor(
    argv: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {
    // CI is left out on purpose: the console must see a plain interactive terminal.
    this.tmux('new-session', '-d', '-s', 'e2e', '-x', '120', '-y', '40', ...argv);
  }
  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { env: { ...this.env, TERM: 'xterm-256color' }, encoding: 'utf8' });
  }
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'e2e');
  }
  type(text: string) {
    this.tmux('send-keys', '-t', 'e2e', '-l', text);
  }
  /** Types into an input line and waits to see it there, so the Enter that follows is its own keypress. */
  async typeLine(text: string) {
    this.type(text);
    await this.waitFor(text);
  }
  press(...keys: string[]) {
    for (const k of keys) this.tmux('send-keys', '-t', 'e2e', k);
  }
  /** Polls the screen (a bounded number of times, not a deadline to assert on) until it shows `text`. */
  async waitFor(text: string, tries = 300): Promise<string> {
    let last = '';
    for (let i = 0; i < tries; i++) {
      last = this.screen();
      if (last.includes(text)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${last}`);
  }
  /** True once the program has exited (the pane is dead or gone). */
  async exited(tries = 100): Promise<boolean> {
    for (let i = 0; i < tries; i++) {
      const r = spawnSync('tmux', ['-L', this.socket, 'list-panes', '-t', 'e2e', '-F', '#{pane_dead}'], { env: this.env, encoding: 'utf8' });
      if (r.status !== 0 || r.stdout.trim() === '1') return true;
      await new Promise((res) => setTimeout(res, 100));
    }
    return false;
  }
  close() {
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { env: this.env });
  }
}

describe('chat in a real terminal', { skip }, () => {
  let home: CliHome;
  before(() => {
    home = tempHome();
  });
  after(() => home?.cleanup());

  test('4, n, pick Ava, ask about parking: the answer quotes her knowledge-base file; q quits and the session is remembered', async () => {
    const term = new Terminal(['env', 'LANG=C.UTF-8', process.execPath, CLI], home.env);
    try {
      await term.waitFor('NAME');
      term.type('4');
      await term.waitFor('No chats yet');
      term.type('n');
      await term.waitFor('pick the assistant');
      term.type('Ava');
      await term.waitFor('filter: Ava');
      term.press('Enter');
      await term.waitFor('Name (optional)');
      await term.typeLine('parking');
      term.press('Enter');
      await term.waitFor('Good day, Bright Smile Dental');
      await term.typeLine('Is there parking at the clinic?');
      term.press('Enter');
      const answer = await term.waitFor('Free parking is available behind the building');
      assert.match(answer, /opening-hours\.md/);
      assert.match(answer, /You · \d\d:\d\d/);
      term.press('Escape');
      const list = await term.waitFor('LAST MESSAGE');
      assert.match(list, /parking/);
      term.type('q');
      assert.ok(await term.exited(), 'q on the sessions list quits');
      const sessions = listSessions('sandbox', dataDir(home.env));
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0].name, 'parking');
      assert.equal(sessions[0].messageCount, 3);
    } finally {
      term.close();
    }
  });

  test('a multi-line message in a real terminal: Alt-Enter and Ctrl-J add lines, Ctrl-W and Alt-← edit, Enter sends all of it', async () => {
    const listed = await runCli(['assistants', 'list', '-o', 'json'], { env: home.env });
    const max = (JSON.parse(listed.stdout) as { id: string; name?: string }[]).find((a) => a.name?.startsWith('Max'));
    assert.ok(max, 'the seed has Max');
    const term = new Terminal(['env', 'LANG=C.UTF-8', process.execPath, CLI, 'chat', '--assistant', max!.id], home.env);
    try {
      await term.waitFor('Say something to start.');
      await term.typeLine('who are you');
      term.press('M-Enter');
      await term.typeLine('and what');
      term.press('C-j');
      await term.typeLine('do you sell wrong');
      term.press('C-w');
      await term.typeLine('sell?!');
      const box = await term.waitFor('do you sell sell?!');
      assert.match(box, /› who are you\n {2}and what\n {2}do you sell sell\?!/, box);
      // Alt-← lands before the second "sell"; Ctrl-W there takes the first one out; End, Backspace.
      term.press('M-Left', 'C-w', 'End', 'BSpace');
      await term.waitFor('do you sell?\n');
      term.press('Enter');
      const sent = await term.waitFor('product-faq.md');
      assert.match(sent, /who are you\n\s*and what\n\s*do you sell\?/, sent);
      term.press('Escape');
      await term.waitFor('LAST MESSAGE');
      term.type('q');
      assert.ok(await term.exited());
    } finally {
      term.close();
    }
  });

  test('switchboard chat --assistant <id> opens straight into a new chat with that assistant', async () => {
    const listed = await runCli(['assistants', 'list', '-o', 'json'], { env: home.env });
    assert.equal(listed.code, 0, listed.stderr);
    const all = JSON.parse(listed.stdout) as { id: string; name?: string }[];
    const max = all.find((a) => a.name?.startsWith('Max'));
    assert.ok(max, 'the seed has Max');
    const term = new Terminal(['env', 'LANG=C.UTF-8', process.execPath, CLI, 'chat', '--assistant', max!.id], home.env);
    try {
      await term.waitFor('Say something to start.'); // Max waits for the user
      const first = term.screen();
      assert.match(first, /Max — Aurora product specialist/);
      await term.typeLine('who are you?');
      term.press('Enter');
      await term.waitFor('product-faq.md');
      term.press('Escape'); // the sessions list is under the chat
      await term.waitFor('LAST MESSAGE');
      term.type('q');
      assert.ok(await term.exited());
      assert.ok(listSessions('sandbox', dataDir(home.env)).some((s) => s.assistantId === max!.id));
    } finally {
      term.close();
    }
  });
});
