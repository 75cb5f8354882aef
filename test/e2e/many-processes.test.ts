// Many processes, one data dir: two consoles (each with its own embedded sandbox) and a
// standalone `switchboard sandbox` on the same data dir, with chats and uploads in flight from all
// of them at once; afterwards nothing is lost: every upload is a file, every message is in its
// session, and both consoles' sessions are in the profile's session index with the right counts.
// Real terminals (tmux, the built console), real child processes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runCli, startCli, tempHome, type CliHome } from '../support/cli.js';
import { listSessions } from '../../src/config/sessions.js';
import { dataDir, sandboxDataDir } from '../../src/config/paths.js';
import { tmuxSkip } from '../support/tmux.js';

const skip = tmuxSkip();
if (skip) console.log(`# skipping the many-processes run: ${skip}`);

/** A console in its own tmux server, 120×40. */
class Console {
  private readonly socket = `switchboard-many-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  constructor(
    argv: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.tmux('new-session', '-d', '-s', 'c', '-x', '120', '-y', '40', ...argv);
  }
  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { env: { ...this.env, TERM: 'xterm-256color' }, encoding: 'utf8' });
  }
  screen = () => this.tmux('capture-pane', '-p', '-t', 'c');
  type = (text: string) => void this.tmux('send-keys', '-t', 'c', '-l', text);
  press = (key: string) => void this.tmux('send-keys', '-t', 'c', key);
  async waitFor(text: string, tries = 900): Promise<string> {
    let last = '';
    for (let i = 0; i < tries; i++) {
      last = this.screen();
      if (last.includes(text)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the console never showed ${JSON.stringify(text)}; it shows:\n${last}`);
  }
  async exited(tries = 200): Promise<boolean> {
    for (let i = 0; i < tries; i++) {
      const r = spawnSync('tmux', ['-L', this.socket, 'list-panes', '-t', 'c', '-F', '#{pane_dead}'], { env: this.env, encoding: 'utf8' });
      if (r.status !== 0 || r.stdout.trim() === '1') return true;
      await new Promise((res) => setTimeout(res, 100));
    }
    return false;
  }
  close = () => void spawnSync('tmux', ['-L', this.socket, 'kill-server'], { env: this.env });
}

describe('two consoles and a standalone sandbox on one data dir', { skip }, () => {
  let home: CliHome;
  before(() => {
    home = tempHome();
  });
  after(() => home?.cleanup());

  test('chats and uploads in flight from every process at once: nothing is lost', { timeout: 10 * 60_000 }, async () => {
    const env = { ...home.env, SWITCHBOARD_PROFILE: undefined };
    const dir = sandboxDataDir(env);
    // The data dir's first start, by a command; Max waits for the user (no opening message).
    const listed = await runCli(['assistants', 'list', '-o', 'json'], { env });
    assert.equal(listed.code, 0, listed.stderr);
    const max = (JSON.parse(listed.stdout) as { id: string; name?: string }[]).find((a) => a.name?.startsWith('Max'))!;

    const key = 'test-key-many-processes';
    const standalone = startCli(['sandbox', '--port', '0', '--api-key', key, '--data-dir', dir], { env });
    const url = await new Promise<string>((resolve, reject) => {
      standalone.child.stdout!.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(standalone.stdout());
        if (m) resolve(m[1]);
      });
      standalone.child.on('exit', (code) => reject(new Error(`the standalone sandbox exited ${code}`)));
    });
    const viaStandalone = { ...env, SWITCHBOARD_BASE_URL: url, SWITCHBOARD_API_KEY: key };

    const consoles = [0, 1].map(() => new Console(['env', 'LANG=C.UTF-8', process.execPath, CLI, 'chat', '--assistant', max.id], env));
    try {
      const uploads = join(home.dir, 'uploads');
      mkdirSync(uploads);
      const names = Array.from({ length: 6 }, (_, i) => `many-${i}.md`);
      for (const name of names) writeFileSync(join(uploads, name), `# ${name}\n${'Opening hours are nine to five on weekdays.\n'.repeat(5000)}`);

      const chatting = consoles.map(async (c, ci) => {
        await c.waitFor('Say something to start.');
        for (let turn = 1; turn <= 3; turn++) {
          c.type(`console ${ci} question ${turn}`);
          await c.waitFor(`console ${ci} question ${turn}`);
          c.press('Enter');
          await c.waitFor(`${turn * 2} messages`);
        }
        c.press('Escape'); // the sessions list is under the chat
        await c.waitFor('LAST MESSAGE');
        c.press('q');
        assert.ok(await c.exited(), `console ${ci} quits`);
      });
      // Meanwhile: uploads through embedded sandboxes (commands) and through the standalone one,
      // and a session chatted with through the standalone sandbox.
      const uploading = names.map((name, i) => runCli(['files', 'upload', join(uploads, name), '-o', 'ids'], { env: i % 2 ? env : viaStandalone }));
      const scripted = (async () => {
        const s = await runCli(['sessions', 'create', '--assistant', max.id, '--name', 'scripted', '-o', 'ids'], { env: viaStandalone });
        assert.equal(s.code, 0, s.stderr);
        for (let i = 1; i <= 3; i++) {
          const r = await runCli(['chat', 'send', '--session', s.stdout.trim(), `scripted question ${i}`], { env: viaStandalone });
          assert.equal(r.code, 0, r.stderr);
        }
        return s.stdout.trim();
      })();
      const [uploaded, scriptedId] = await Promise.all([Promise.all(uploading), scripted, Promise.all(chatting)]);
      assert.deepEqual(
        uploaded.filter((r) => r.code !== 0).map((r) => r.stderr),
        [],
        'every upload succeeded',
      );

      // Every upload is a file, seen through either kind of sandbox.
      const files = JSON.parse((await runCli(['files', 'list', '--limit', '100', '-o', 'json'], { env })).stdout) as {
        id: string;
        name: string;
        bytes: number;
      }[];
      for (const r of uploaded)
        assert.ok(
          files.some((f) => f.id === r.stdout.trim()),
          `upload ${r.stdout.trim()} is listed`,
        );
      assert.deepEqual(
        names.filter((n) => !files.some((f) => f.name === n)),
        [],
      );

      // Both consoles' sessions are remembered, with the service's counts; every message is in its session.
      const remembered = listSessions('sandbox', dataDir(env)).filter((s) => s.assistantId === max.id);
      assert.equal(remembered.length, 2, `both consoles' sessions: ${JSON.stringify(remembered)}`);
      for (const s of remembered) {
        const shown = JSON.parse((await runCli(['sessions', 'show', s.id, '-o', 'json'], { env })).stdout) as { messages: { role: string; content: string }[] };
        assert.equal(shown.messages.length, 6);
        assert.equal(s.messageCount, 6, 'the index count matches the service');
        assert.ok((s.totalCost ?? 0) > 0, 'and the total cost is kept');
      }
      const texts = (await Promise.all(remembered.map(async (s) => (await runCli(['sessions', 'show', s.id, '-o', 'json'], { env })).stdout))).join('\n');
      for (const ci of [0, 1]) for (let t = 1; t <= 3; t++) assert.ok(texts.includes(`console ${ci} question ${t}`), `console ${ci} question ${t} is kept`);
      const scripted3 = JSON.parse((await runCli(['sessions', 'show', scriptedId, '-o', 'json'], { env })).stdout) as { messages: unknown[] };
      assert.equal(scripted3.messages.length, 6, 'the scripted session has its three exchanges');
    } finally {
      for (const c of consoles) c.close();
      standalone.child.kill('SIGINT');
      const r = await standalone.result;
      assert.equal(r.code, 0, r.stderr);
    }
  });
});
