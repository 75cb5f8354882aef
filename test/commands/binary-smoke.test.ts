// The built binary, once per leaf command. The commands' tests run the program in their own
// process (test/support/cli.ts runCli); this file holds the binary to the same program: every leaf
// command starts, parses and runs through dist/cli.js, and where a run reads without changing
// anything, the binary and the program in process print the same and exit the same. A command
// this file has no run for is run with --help, so a new command is covered without an edit here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { builtSkip, leafCommands, removeTree, runBinary, runCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';

const sb = sandboxForFile({ callPace: 50 });
let home: CliHome;
let env: NodeJS.ProcessEnv;
let work: string;
/** Ids the runs below name, read once from the sandbox. */
const ids = { assistant: '', number: '', call: '', file: '', session: '' };

before(async () => {
  await sb.started;
  home = tempHome();
  env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
  work = mkdtempSync(join(home.dir, 'work-'));
  const first = async (args: string[]) => (await runCli([...args, '-o', 'ids'], { env })).stdout.split('\n')[0];
  ids.assistant = await first(['assistants', 'list']);
  ids.number = await first(['numbers', 'list']);
  ids.call = await first(['calls', 'list']);
  writeFileSync(join(work, 'faq.txt'), 'Opening hours: 8 to 6.\n');
  writeFileSync(join(work, 'smoke.json'), JSON.stringify({ name: 'Smoke', firstMessage: 'Hello' }));
  ids.file = (await runCli(['files', 'upload', join(work, 'faq.txt'), '-o', 'ids'], { env })).stdout.trim();
  ids.session = (await runCli(['sessions', 'create', '--assistant', ids.assistant, '-o', 'ids'], { env })).stdout.trim();
});
after(() => home.cleanup());

/** Reads: run through the binary and in process, the two must agree. */
const READS: Record<string, () => string[]> = {
  'assistants list': () => ['assistants', 'list', '-o', 'json'],
  'assistants get': () => ['assistants', 'get', ids.assistant, '-o', 'json'],
  'assistants pull': () => ['assistants', 'pull', '--dir', join(work, 'pulled'), ids.assistant],
  'assistants diff': () => ['assistants', 'diff', '--dir', join(work, 'pulled')],
  'numbers list': () => ['numbers', 'list', '-o', 'json'],
  'calls list': () => ['calls', 'list', '--limit', '5', '-o', 'json'],
  'calls get': () => ['calls', 'get', ids.call, '-o', 'json'],
  'calls search': () => ['calls', 'search', 'refund', '--limit', '3', '-o', 'ids'],
  'calls stats': () => ['calls', 'stats', '-o', 'json'],
  'calls export': () => ['calls', 'export', '--offline', '--format', 'ndjson'],
  'archive status': () => ['archive', 'status', '-o', 'json'],
  'files list': () => ['files', 'list', '-o', 'json'],
  'files get': () => ['files', 'get', ids.file, '-o', 'json'],
  'sessions list': () => ['sessions', 'list', '-o', 'json'],
  'sessions show': () => ['sessions', 'show', ids.session, '-o', 'json'],
  'profiles list': () => ['profiles', 'list', '-o', 'json'],
  whoami: () => ['whoami', '-o', 'json'],
  completion: () => ['completion', 'bash'],
};

/** Writes and long runs: through the binary only, each with what it needs to succeed. */
const WRITES: Record<string, () => { args: string[]; stdin?: string }> = {
  'assistants create': () => ({ args: ['assistants', 'create', '--file', join(work, 'smoke.json'), '-o', 'ids'] }),
  'assistants update': () => ({ args: ['assistants', 'update', ids.assistant, '--name', 'Smoke renamed', '-o', 'ids'] }),
  'numbers link': () => ({ args: ['numbers', 'link', ids.number, '--assistant', ids.assistant, '-o', 'json'] }),
  'archive sync': () => ({ args: ['archive', 'sync', '-o', 'json'] }),
  'sessions create': () => ({ args: ['sessions', 'create', '--assistant', ids.assistant, '-o', 'ids'] }),
  'chat send': () => ({ args: ['chat', 'send', '--session', ids.session, 'What are your hours?'] }),
  'files upload': () => ({ args: ['files', 'upload', join(work, 'faq.txt'), '-o', 'ids'] }),
  login: () => ({ args: ['login', '--profile', 'smoke', '--base-url', sb.url], stdin: `${sb.apiKey}\n` }),
  doctor: () => ({ args: ['doctor', '-o', 'json'] }),
};

/** What a run printed, without what changes from one run to the next (times the sandbox computes as it answers). */
const same = (r: CliResult) => ({ code: r.code, stdout: r.stdout.replace(/"(ageMs|age|elapsedMs|durationMs)":\s*\d+/g, '"$1":0') });

describe('the built binary, once per leaf command', { skip: builtSkip() }, () => {
  test('every read prints through the binary what the program prints in process', async () => {
    // archive sync first, through the binary, so that the reads of the archive have calls to read.
    assert.equal((await runBinary(['archive', 'sync'], { env })).code, 0);
    for (const [name, argv] of Object.entries(READS)) {
      const args = argv();
      const binary = await runBinary(args, { env });
      assert.equal(binary.code, 0, `${name}: ${binary.stderr}`);
      assert.deepEqual(same(binary), same(await runCli(args, { env })), `switchboard ${args.join(' ')}`);
    }
  });

  test('every write, and every command this file has no run for, runs through the binary', async () => {
    const leaves = leafCommands();
    for (const name of [...Object.keys(READS), ...Object.keys(WRITES)]) assert.ok(leaves.includes(name), `${name} is not a command of the program`);
    for (const name of leaves) {
      if (READS[name]) continue;
      const run = WRITES[name]?.() ?? { args: [...name.split(' '), '--help'] };
      const r = await runBinary(run.args, { env, stdin: run.stdin });
      assert.equal(r.code, 0, `switchboard ${run.args.join(' ')}: ${r.stderr}`);
      if (!WRITES[name]) assert.match(r.stdout, new RegExp(`^Usage: switchboard ${name} `, 'm'), name);
      else assert.ok(r.stdout.trim() !== '' || r.stderr.trim() !== '', `${name} printed nothing`);
    }
  });
});

after(() => removeTree(work));
