// The embedded sandbox is supervised: kill -9 its child process under a running console (the
// built CLI in tmux) and the console says so, starts it again on the same data dir and port,
// comes back online by itself, and carries on (the same data, new requests answered).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';
import { SANDBOX_CHILD_NICE } from '../../src/target.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

let home: string;
let term: TmuxSession | undefined;
before(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-restart-'));
});
after(() => {
  term?.kill();
  removeTree(home);
});

/** A process's nice value (/proc/<pid>/stat, field 19). */
const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);

/** The console's child processes (its embedded sandbox). */
const childrenOf = (pid: number) =>
  spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);

// Back online without a key pressed.
test('kill -9 of the embedded sandbox: the console says so, restarts it on the same port and data', { skip, timeout: 10 * 60_000 }, async () => {
  const env = { ...homeEnv(home), TERM: 'xterm-256color', SWITCHBOARD_PROFILE: undefined };
  term = startTmux({ name: `sb-restart-${process.pid}`, cwd: root, env, command: `${JSON.stringify(process.execPath)} ${cli}`, width: 140 });
  const t = term;
  const first = await t.waitFor(/sandbox (http:\/\/127\.0\.0\.1:\d+).*● online[\s\S]*NAME/);
  const url = /sandbox (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1];
  const consolePid = t.pid();
  const [child] = childrenOf(consolePid);
  assert.ok(child, 'the console has its sandbox child');
  // It yields the CPU to the console's thread (a key must not wait behind its pages).
  assert.equal(niceOf(child), SANDBOX_CHILD_NICE, 'the sandbox child runs at a lower priority');
  // So do the console's own threads but its main one and libuv's pool (V8's helpers, a sync worker).
  const threads = readdirSync(`/proc/${consolePid}/task`).map((t) => ({
    tid: Number(t),
    comm: readFileSync(`/proc/${consolePid}/task/${t}/comm`, 'utf8').trim(),
    nice: Number(readFileSync(`/proc/${consolePid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
  }));
  // Its priority is the one it was started with: this test's (tmux's server is this test's child).
  assert.equal(threads.find((t) => t.tid === consolePid)?.nice, getPriority(), "the console's thread keeps its priority");
  const helpers = threads.filter((t) => t.tid !== consolePid && t.comm !== 'libuv-worker');
  assert.ok(helpers.length > 0 && helpers.every((t) => t.nice >= 5), `the other threads yield to it: ${JSON.stringify(helpers)}`);

  const killedAt = Date.now();
  process.kill(child, 'SIGKILL');
  await t.waitFor('embedded sandbox stopped (killed by SIGKILL)');
  // Back online with nothing pressed: the header, the same address, a new child.
  let back = '';
  for (let i = 0; i < 300 && !back; i++) {
    const s = t.screen();
    if (/● online/.test(s) && !s.includes('killed by SIGKILL')) back = s;
    else if (/embedded sandbox is back/.test(s) && /● online/.test(s)) back = s;
    else await new Promise((r) => setTimeout(r, 20));
  }
  const ms = Date.now() - killedAt;
  assert.ok(back, `the console came back online by itself:\n${t.screen()}`);
  console.log(`# embedded sandbox back online ${ms} ms after kill -9 of its child`);
  assert.ok(back.includes(`sandbox ${url}`), 'on the same address');
  assert.ok(!/check that the service is running/.test(back), 'the user is not told to start a service');
  const [again] = childrenOf(consolePid);
  assert.ok(again && again !== child, 'a new sandbox child');
  assert.equal(niceOf(again), SANDBOX_CHILD_NICE, 'the restarted one too');
  // It carries on: another screen loads from the restarted sandbox (the same seeded data).
  t.keys('5');
  await t.waitFor(/files · page/);
  t.keys('C-c');
  assert.equal(await t.waitForExit(), 0);
  assert.deepEqual(childrenOf(consolePid), [], 'no sandbox left behind');
});
