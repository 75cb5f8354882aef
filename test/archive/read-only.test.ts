// An archive this user can read but not write (another user's, a read-only mount, a copy made
// read-only): the commands that only read it work, offline, and change nothing; the one that
// writes (archive clear) says so without a stack trace. As root, permission checks are made real
// by running the CLI without the capabilities that override them (setpriv, from util-linux).
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, runCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';

const root = process.getuid?.() === 0;
const SETPRIV = ['--bounding-set=-dac_override,-dac_read_search,-fowner', '--'];
const noSetpriv = root && spawnSync('setpriv', [...SETPRIV, 'true']).status !== 0;
const skip =
  process.platform === 'win32'
    ? 'POSIX permissions only'
    : noSetpriv
      ? 'running as root without setpriv (util-linux) to drop the override capabilities'
      : false;
if (skip) console.log(`skipped: ${skip}`);

const sb = sandboxForFile({}, { skip });
let home: CliHome;
let env: NodeJS.ProcessEnv;
let archive: string;
const owner: Record<string, string> = {};

/** The CLI as a user the archive's permissions apply to. */
function runReader(args: string[]): Promise<CliResult> {
  const [cmd, argv] = root ? ['setpriv', [...SETPRIV, process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ stdout, stderr, code }));
  });
}

const READS: Record<string, string[]> = {
  search: ['calls', 'search', 'refund', '--offline', '-o', 'ids'],
  stats: ['calls', 'stats', '--by', 'assistant', '--offline', '-o', 'csv'],
  export: ['calls', 'export', '--offline', '--format', 'ndjson'],
  status: ['archive', 'status', '-o', 'json'],
};

/** What a read prints, less the file's size (the owner's last write may have left its log beside it). */
const comparable = (name: string, out: string) => (name === 'status' ? { ...(JSON.parse(out) as object), bytes: undefined } : out);

setUpAndTearDown(
  async () => {
    if (skip) return;
    await sb.started;
    home = tempHome();
    env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const synced = await runCli(['archive', 'sync'], { env });
    assert.equal(synced.code, 0, synced.stderr);
    archive = join(env.XDG_CACHE_HOME!, 'switchboard', 'archive', 'env.db');
    for (const [name, args] of Object.entries(READS)) {
      const r = await runCli(args, { env });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      owner[name] = r.stdout;
    }
    chmodSync(archive, 0o400);
    chmodSync(dirname(archive), 0o500);
  },
  async () => {
    if (skip) return;
    // A set-up that stopped early leaves less to undo.
    if (archive) chmodSync(dirname(archive), 0o700);
    home?.cleanup();
  },
);

test('search, stats, export and status read an archive this user cannot write, as its owner reads it, and change nothing', { skip }, async () => {
  const before = readFileSync(archive);
  assert.ok(owner.search.trim() !== '', 'the search must find calls, or the test shows nothing');
  for (const [name, args] of Object.entries(READS)) {
    const r = await runReader(args);
    assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    assert.deepEqual(comparable(name, r.stdout), comparable(name, owner[name]), `${args.join(' ')} printed otherwise than for its owner`);
  }
  assert.deepEqual(readdirSync(dirname(archive)), ['env.db'], 'no -wal or -shm file was made');
  assert.ok(readFileSync(archive).equals(before), 'the archive is byte for byte as it was');
});

test('archive clear on an archive this user cannot write fails naming it, without a stack trace, and keeps the calls', { skip }, async () => {
  const r = await runReader(['archive', 'clear', '--yes']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /could not clear the call archive/);
  assert.ok(r.stderr.includes(dirname(archive)), r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const status = await runReader(READS.status);
  assert.deepEqual(comparable('status', status.stdout), comparable('status', owner.status));
  assert.ok(existsSync(archive));
});
