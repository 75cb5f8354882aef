// Quit is instant: the console against a service that accepts every request and never answers
// exits on q / Ctrl-C at once, abandoning the requests in flight instead of draining them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { running, startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';
import { startFaultyServer } from '../support/faulty-server.js';
import { DEFAULT_TIMEOUTS } from '../../src/api/http.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

const home = mkdtempSync(join(tmpdir(), 'sb-quit-'));
const sessions: TmuxSession[] = [];
after(() => {
  for (const t of sessions) t.kill();
  removeTree(home);
});

// A quit that waited for the request would end when the request gives up, at the client's
// headers timeout. The test asks for the outcome, not a speed: the console is gone long before
// that (a third of it), however busy the machine. How fast a quit is belongs to the bench.
const LONG_BEFORE_THE_REQUEST_GIVES_UP_MS = DEFAULT_TIMEOUTS.headersMs / 3;

for (const key of ['q', 'C-c'] as const) {
  test(`${key} quits without waiting for a request that hangs on a service that never answers`, { skip }, async () => {
    const ms = await quitWithHungRequest(key, 0);
    console.log(`# ${key}: exited in ${ms} ms with a request in flight`);
    assert.ok(ms < LONG_BEFORE_THE_REQUEST_GIVES_UP_MS, `quit took ${ms} ms: it waited for the hung request`);
  });
}

async function quitWithHungRequest(key: 'q' | 'C-c', attempt: number): Promise<number> {
  const hung = await startFaultyServer({ mode: 'slow' });
  try {
    const t = startTmux({
      name: `sb-quit-${key}-${attempt}-${process.pid}`,
      cwd: root,
      command: `${JSON.stringify(process.execPath)} ${cli}`,
      env: {
        ...homeEnv(join(home, `${key}-${attempt}`)),
        TERM: 'xterm-256color',
        SWITCHBOARD_BASE_URL: hung.url,
        SWITCHBOARD_API_KEY: 'sk-test-quit-0000000000',
      },
    });
    sessions.push(t);
    await t.waitFor('Loading assistants');
    // The assistants list is in flight and will never be answered.
    for (let i = 0; i < 100 && !hung.seen.some((s) => s.startsWith('GET') && s.includes('/assistants')); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(hung.seen.length > 0, 'the console asked the service for something');
    const started = performance.now();
    t.keys(key);
    let status: number | null = null;
    while ((status = t.exitStatus()) === null && performance.now() - started < 20_000) await new Promise((r) => setTimeout(r, 5));
    assert.equal(status, 0);
    return Math.round(performance.now() - started);
  } finally {
    await hung.close();
  }
}

// The terminal closed under the console (its window shut, an ssh connection dropped, tmux killed):
// a hang-up. The console ends without a word to anyone: nothing can be drawn any more, and a
// write to the gone terminal (EIO) is the end of the terminal, not a crash to report.
test('a hang-up (the terminal closed) ends the console quietly: no crash in its debug log', { skip }, async () => {
  const dir = join(home, 'hup');
  const t = startTmux({
    name: `sb-quit-hup-${process.pid}`,
    cwd: root,
    command: `${JSON.stringify(process.execPath)} ${cli}`,
    env: { ...homeEnv(dir), TERM: 'xterm-256color' },
  });
  sessions.push(t);
  await t.waitFor(/● online[\s\S]*NAME/);
  const pid = t.pid();
  t.kill(); // the terminal goes: tmux hangs up the pane, and kill waits until the program has ended
  assert.equal(running(pid), false, 'the console ended');
  const log = join(dir, 'state', 'switchboard', 'debug.log');
  const logged = existsSync(log) ? readFileSync(log, 'utf8') : '';
  assert.doesNotMatch(logged, /uncaught|EIO|unhandled/i, logged);
});
