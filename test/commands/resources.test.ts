// The writing commands against a real sandbox: create/update, link, upload/delete (with the
// no-TTY refusal), outbound calls and watch, sessions and chat.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { runCli, startCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';
import { parseCsv } from './csv.js';

const sb = sandboxForFile({ callPace: 50 });
let home: CliHome;
let env: NodeJS.ProcessEnv;
let files: string;

before(async () => {
  await sb.started;
  home = tempHome();
  env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
  files = mkdtempSync(join(tmpdir(), 'switchboard-files-'));
});
after(async () => {
  home.cleanup();
  rmSync(files, { recursive: true, force: true });
});

async function cli(args: string[], stdin?: string): Promise<CliResult> {
  const r = await runCli(args, { env, stdin });
  assert.ok(!(r.stdout + r.stderr).includes(sb.apiKey), `the key leaked from ${args.join(' ')}`);
  return r;
}

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await cli(args, stdin);
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const json = async <T = Record<string, unknown>>(args: string[], stdin?: string): Promise<T> => JSON.parse(await ok([...args, '-o', 'json'], stdin)) as T;

describe('assistants', () => {
  test('create from a file, update with flags and a patch file', async () => {
    const spec = join(files, 'assistant.json');
    writeFileSync(spec, JSON.stringify({ name: 'CLI test', description: 'made by a test', firstMessage: 'Hello {{name}}' }));
    const created = await json(['assistants', 'create', '--file', spec]);
    assert.equal(created.name, 'CLI test');
    const id = String(created.id);

    const patch = join(files, 'patch.json');
    writeFileSync(patch, JSON.stringify({ description: 'from the patch', name: 'overridden by the flag' }));
    const updated = await json(['assistants', 'update', id, '--file', patch, '--name', 'Renamed', '--status', 'off']);
    assert.equal(updated.name, 'Renamed');
    assert.equal(updated.description, 'from the patch');
    assert.equal(updated.status, false);

    const got = await json(['assistants', 'get', id]);
    assert.equal(got.name, 'Renamed');
  });

  test('a spec that is not JSON is refused before sending (exit 2)', async () => {
    const bad = join(files, 'bad.json');
    writeFileSync(bad, '{ name: nope');
    const r = await cli(['assistants', 'create', '--file', bad]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.json is not valid JSON/);
  });
});

describe('numbers', () => {
  test('link an assistant to a number', async () => {
    const [assistant] = await json<{ id: string }[]>(['assistants', 'list']);
    const numbers = await json<{ id: string; assistantId?: string }[]>(['numbers', 'list']);
    const target = numbers.find((n) => n.assistantId !== assistant.id)!;
    const linked = await json<{ message: string; phoneNumber?: { assistantId?: string } }>(['numbers', 'link', target.id, '--assistant', assistant.id]);
    assert.ok(linked.message);
    const after = await json<{ id: string; assistantId?: string }[]>(['numbers', 'list']);
    assert.equal(after.find((n) => n.id === target.id)!.assistantId, assistant.id);
  });
});

describe('files', () => {
  test('upload, then delete: refused without a TTY unless --yes', async () => {
    const path = join(files, 'faq.md');
    writeFileSync(path, '# FAQ\nWe open at nine.\n');
    const id = (await ok(['files', 'upload', path, '-o', 'ids'])).trim();
    assert.ok(id);

    const refused = await cli(['files', 'delete', id]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing to delete file .* add --yes/);
    assert.equal((await json(['files', 'get', id])).id, id, 'still there');

    const deleted = await cli(['files', 'delete', id, '--yes', '-o', 'csv']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(parseCsv(deleted.stdout)[0], ['id', 'message']);
    // Gone: `files get` looks the id up in the list first, and names what it did not find (exit 2).
    assert.equal((await cli(['files', 'get', id])).code, 2, 'gone');
  });
});

describe('calls', () => {
  test('outbound validates, places the call; watch prints it until SIGINT, then exits 0', async () => {
    const [assistant] = await json<{ id: string }[]>(['assistants', 'list']);
    const [number] = await json<{ id: string }[]>(['numbers', 'list']);

    const watch = startCli(['--debug', 'calls', 'watch', '--interval', '1', '-o', 'json'], { env });
    let stderr = '';
    watch.child.stderr!.on('data', (s: string) => (stderr += s));
    // The first poll only learns what is already there; wait for it before placing the call.
    await until(() => /GET \/calls/.test(stderr), watch.child);

    const call = await json<{ id: string; status: string; customer: { number: string } }>([
      'calls',
      'outbound',
      '--assistant',
      assistant.id,
      '--number',
      number.id,
      '--to',
      '+14155550199',
      '--name',
      'Test Caller',
    ]);
    assert.equal(call.customer.number, '+14155550199');

    const events = () =>
      watch
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; status: string });
    await until(() => events().some((e) => e.id === call.id && e.status === 'ended'), watch.child);
    const statuses = events()
      .filter((e) => e.id === call.id)
      .map((e) => e.status);
    assert.equal(new Set(statuses).size, statuses.length, 'each status printed once');

    watch.child.kill('SIGINT');
    const r = await watch.result;
    assert.equal(r.code, 0);
    assert.ok(!(r.stdout + stderr).includes(sb.apiKey));
  });
});

describe('sessions and chat', () => {
  test('create a session, send from an argument and from stdin, show the conversation', async () => {
    const [assistant] = await json<{ id: string }[]>(['assistants', 'list']);
    const session = (await ok(['sessions', 'create', '--assistant', assistant.id, '--name', 'cli test', '-o', 'ids'])).trim();
    assert.ok(session);

    const reply = await ok(['chat', 'send', '--session', session, '--var', 'name=Ada', 'What are your opening hours?']);
    assert.ok(reply.trim().length > 0, 'a reply is printed');

    const chat = await json<{ sessionId: string; output: { role: string; content: string }[] }>(
      ['chat', 'send', '--session', session, '-'],
      'Hello from stdin\n',
    );
    assert.equal(chat.sessionId, session);
    assert.ok(chat.output.length > 0);

    const shown = await json<{ id: string; messages: { role: string; content: string }[] }>(['sessions', 'show', session]);
    assert.ok(shown.messages.some((m) => m.content === 'Hello from stdin'));
    const rows = parseCsv(await ok(['sessions', 'show', session, '-o', 'csv']));
    assert.deepEqual(rows[0], ['role', 'content']);
    assert.equal(rows.length, shown.messages.length + 1);

    const empty = await cli(['chat', 'send', '--session', session, '-'], '');
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /empty/);
  });
});

describe('every other command in every format', () => {
  test('json parses, csv is rectangular with a header, ids is one id a line, plain has no escapes', async () => {
    const [assistant] = await json<{ id: string }[]>(['assistants', 'list']);
    const [number] = await json<{ id: string }[]>(['numbers', 'list']);
    const session = (await ok(['sessions', 'create', '--assistant', assistant.id, '-o', 'ids'])).trim();
    const upload = join(files, 'formats.txt');
    writeFileSync(upload, 'hello\n');
    const commands: string[][] = [
      ['assistants', 'update', assistant.id, '--description', 'formats test'],
      ['numbers', 'link', number.id, '--assistant', assistant.id],
      ['calls', 'outbound', '--assistant', assistant.id, '--number', number.id, '--to', '+442079460000'],
      ['files', 'upload', upload],
      ['sessions', 'create', '--assistant', assistant.id, '--name', 'formats'],
      ['chat', 'send', '--session', session, 'hello'],
      ['sessions', 'show', session],
      ['whoami'],
      ['profiles', 'list'],
    ];
    for (const args of commands) {
      const where = args.slice(0, 2).join(' ');
      JSON.parse(await ok([...args, '-o', 'json']));
      const rows = parseCsv(await ok([...args, '-o', 'csv']));
      assert.ok(rows.length >= 2, `${where}: csv has a header and rows`);
      for (const row of rows) assert.equal(row.length, rows[0].length, `${where}: csv row width`);
      const ids = (await ok([...args, '-o', 'ids'])).split('\n').filter(Boolean);
      assert.ok(ids.length >= 1 && ids.every((id) => /^\S+$/.test(id)), `${where}: ids`);
      const plain = await ok(args);
      assert.ok(plain.trim().length > 0 && !plain.includes('\u001b'), `${where}: plain output`);
    }
  });
});

/** Resolves once `check` passes, re-checking as the child writes; fails if the child exits first. */
function until(check: () => boolean, child: import('node:child_process').ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (check()) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the command exited (${code}) before the expected output`));
    };
    const cleanup = () => {
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', onExit);
    onData();
  });
}
