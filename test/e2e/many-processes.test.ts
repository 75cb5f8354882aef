// Many processes, one data dir: two consoles (each with its own embedded sandbox) and a
// standalone `switchboard sandbox` on the same data dir, with chats and uploads in flight from all
// of them at once; afterwards nothing is lost: every upload is a file, every message is in its
// session, and both consoles' sessions are in the profile's session index with the right counts.
// Real terminals (tmux, the built console), real child processes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runBinary, startCli, tempHome, type CliHome } from '../support/cli.js';
import { listSessions } from '../../src/config/sessions.js';
import { dataDir, sandboxDataDir } from '../../src/config/paths.js';
import { startTmux, tmuxSkip } from '../support/tmux.js';

const skip = tmuxSkip();
if (skip) console.log(`# skipping the many-processes run: ${skip}`);

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
    const listed = await runBinary(['assistants', 'list', '-o', 'json'], { env });
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

    const consoles = [0, 1].map((i) =>
      startTmux({
        name: `many-${process.pid}-${i}`,
        cwd: process.cwd(),
        env: { ...env, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
        command: [process.execPath, CLI, 'chat', '--assistant', max.id].map((a) => JSON.stringify(a)).join(' '),
      }),
    );
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
          c.keys('Enter');
          await c.waitFor(`${turn * 2} messages`);
        }
        c.keys('Escape'); // the sessions list is under the chat
        await c.waitFor('LAST MESSAGE');
        c.keys('q');
        assert.equal(await c.waitForExit(), 0, `console ${ci} quits`);
      });
      // Meanwhile: uploads through embedded sandboxes (commands) and through the standalone one,
      // and a session chatted with through the standalone sandbox.
      const uploading = names.map((name, i) => runBinary(['files', 'upload', join(uploads, name), '-o', 'ids'], { env: i % 2 ? env : viaStandalone }));
      const scripted = (async () => {
        const s = await runBinary(['sessions', 'create', '--assistant', max.id, '--name', 'scripted', '-o', 'ids'], { env: viaStandalone });
        assert.equal(s.code, 0, s.stderr);
        for (let i = 1; i <= 3; i++) {
          const r = await runBinary(['chat', 'send', '--session', s.stdout.trim(), `scripted question ${i}`], { env: viaStandalone });
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
      const files = JSON.parse((await runBinary(['files', 'list', '--limit', '100', '-o', 'json'], { env })).stdout) as {
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
        const shown = JSON.parse((await runBinary(['sessions', 'show', s.id, '-o', 'json'], { env })).stdout) as {
          messages: { role: string; content: string }[];
        };
        assert.equal(shown.messages.length, 6);
        assert.equal(s.messageCount, 6, 'the index count matches the service');
        assert.ok((s.totalCost ?? 0) > 0, 'and the total cost is kept');
      }
      const texts = (await Promise.all(remembered.map(async (s) => (await runBinary(['sessions', 'show', s.id, '-o', 'json'], { env })).stdout))).join('\n');
      for (const ci of [0, 1]) for (let t = 1; t <= 3; t++) assert.ok(texts.includes(`console ${ci} question ${t}`), `console ${ci} question ${t} is kept`);
      const scripted3 = JSON.parse((await runBinary(['sessions', 'show', scriptedId, '-o', 'json'], { env })).stdout) as { messages: unknown[] };
      assert.equal(scripted3.messages.length, 6, 'the scripted session has its three exchanges');
    } finally {
      for (const c of consoles) c.kill();
      standalone.child.kill('SIGINT');
      const r = await standalone.result;
      assert.equal(r.code, 0, r.stderr);
    }
  });
});
