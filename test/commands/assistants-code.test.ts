// Assistants as code, with the built CLI against a real sandbox: pull → edit → diff →
// push → get; drift refused and forced; a new file gets its id written back; --dry-run and bad
// files send nothing (checked on the service); knowledge-base files named by file name; clone.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, type CliResult } from '../support/cli.js';
import { json, startServer } from '../api/servers.js';

const on = sandboxForCli();
let dir: string;
before(() => void (dir = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Listed {
  id: string;
  name?: string;
  description?: string;
  updatedAt?: string;
  model?: { messages?: { role: string; content: string }[]; temperature?: number };
  knowledgeBase?: { fileIds: string[] };
}

const run = (args: string[]): Promise<CliResult> => runCli(args, { env: on.env });
async function ok(args: string[]): Promise<string> {
  const r = await run(args);
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}
const listed = async () => JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as Listed[];
const get = async (id: string) => JSON.parse(await ok(['assistants', 'get', id, '-o', 'json'])) as Listed;
/** What the service holds, to prove nothing was written: ids and their updatedAt. */
const serviceState = async () =>
  (await listed())
    .map((a) => `${a.id}@${a.updatedAt}`)
    .sort()
    .join('\n');

function fileOf(id: string, d = dir): string {
  const name = readdirSync(d).find((n) => n.endsWith('.assistant.yaml') && readFileSync(join(d, n), 'utf8').includes(`id: ${id}\n`));
  assert.ok(name, `no file holds ${id}`);
  return join(d, name);
}
function edit(path: string, from: string | RegExp, to: string): void {
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  assert.notEqual(next, text, `${String(from)} not found in ${path}`);
  writeFileSync(path, next);
}

describe('assistants as code', () => {
  test('pull writes one YAML file per assistant (id first, spec order, block prompts) and base copies', async () => {
    // A multi-line prompt on the service, so the file shows it as a block scalar.
    const [first] = await listed();
    const full = await get(first!.id);
    const messages = [{ role: 'system', content: 'You are the front desk.\nBe brief.\nNever give medical advice.' }];
    const patch = join(dir, '..', `patch-${process.pid}.json`);
    writeFileSync(patch, JSON.stringify({ model: { ...full.model, messages } }));
    await ok(['assistants', 'update', first!.id, '--file', patch]);
    rmSync(patch);

    const out = await ok(['assistants', 'pull', '--dir', dir]);
    const all = await listed();
    assert.equal(out.trim().split('\n').length, all.length);
    const files = readdirSync(dir).filter((n) => n.endsWith('.assistant.yaml'));
    assert.equal(files.length, all.length);
    assert.equal(readdirSync(join(dir, '.switchboard')).length, all.length);
    const text = readFileSync(fileOf(first!.id), 'utf8');
    assert.match(text, new RegExp(`^id: ${first!.id}\nname: `));
    assert.ok(text.indexOf('\nmodel:') < text.indexOf('\nfirstMessage:') && text.indexOf('\nvoice:') < text.indexOf('\nmodel:'), 'spec order');
    assert.match(text, /content: \|-?\n {8}You are the front desk\.\n {8}Be brief\.\n/);
    assert.doesNotMatch(text, /updatedAt|createdAt/);
    assert.equal((await run(['assistants', 'diff', '--dir', dir, '--exit-code'])).code, 0);
  });

  test('an edited description and prompt line show in diff, push --yes sends them, get shows them', async () => {
    const [first] = await listed();
    const path = fileOf(first!.id);
    edit(path, /^description: .*$/m, 'description: Edited in git');
    edit(path, '        Be brief.\n', '        Be brief and kind.\n');

    const diff = await run(['assistants', 'diff', '--dir', dir, '--exit-code']);
    assert.equal(diff.code, 1, diff.stderr);
    assert.match(diff.stdout, /description: ".*" → "Edited in git"/);
    assert.match(diff.stdout, /model\.messages\[0\]\.content:\n.*@@ .* @@\n.*You are the front desk\.\n.*-Be brief\.\n.*\+Be brief and kind\.\n/);
    assert.doesNotMatch(diff.stdout, /\x1b\[/, 'no colour in a pipe');
    assert.equal((await run(['assistants', 'diff', '--dir', dir])).code, 0, 'without --exit-code a difference is not a failure');

    const push = await run(['assistants', 'push', '--dir', dir, '--yes']);
    assert.equal(push.code, 0, push.stderr);
    const after = await get(first!.id);
    assert.equal(after.description, 'Edited in git');
    assert.match(after.model!.messages![0]!.content, /^Be brief and kind\.$/m);
    assert.equal((await run(['assistants', 'diff', '--dir', dir, '--exit-code'])).code, 0);
  });

  test('pull leaves a file with changes not pushed alone (exit 1), and --force overwrites it', async () => {
    const [first] = await listed();
    const path = fileOf(first!.id);
    const pushed = readFileSync(path, 'utf8');
    edit(path, /^description: .*$/m, 'description: Not pushed yet');
    const kept = await run(['assistants', 'pull', '--dir', dir]);
    assert.equal(kept.code, 1);
    assert.match(kept.stderr, /not overwritten: it has changes not pushed/);
    assert.match(readFileSync(path, 'utf8'), /^description: Not pushed yet$/m);
    assert.equal((await run(['assistants', 'pull', '--dir', dir, '--force'])).code, 0);
    assert.equal(readFileSync(path, 'utf8'), pushed);
  });

  test('--dry-run and a push without a terminal and without --yes send nothing', async () => {
    const [first] = await listed();
    edit(fileOf(first!.id), /^description: .*$/m, 'description: Not sent');
    const state = await serviceState();
    const dry = await run(['assistants', 'push', '--dir', dir, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /PATCH \/assistants\/\S+ \(description\)/);
    assert.match(dry.stderr, /nothing was sent/);
    const refused = await run(['assistants', 'push', '--dir', dir]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /without a terminal.*--yes/);
    assert.equal(await serviceState(), state);
    assert.equal((await get(first!.id)).description, 'Edited in git');
    edit(fileOf(first!.id), /^description: .*$/m, 'description: Edited in git');
  });

  test('a change made on the service after the pull makes push refuse (exit 1); --force applies the file', async () => {
    const [first] = await listed();
    await ok(['assistants', 'update', first!.id, '--name', 'Renamed on the service']);
    edit(fileOf(first!.id), /^description: .*$/m, 'description: Local edit');
    const state = await serviceState();

    const refused = await run(['assistants', 'push', '--dir', dir, '--yes']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused: .*changed on the service since the pull: name; changed in the file: description/);
    assert.equal(await serviceState(), state, 'nothing written');

    const diff = await run(['assistants', 'diff', '--dir', dir]);
    assert.match(diff.stdout, /drift: changed on the service since the pull: name/);

    const forced = await run(['assistants', 'push', '--dir', dir, '--yes', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    const after = await get(first!.id);
    assert.equal(after.description, 'Local edit');
    assert.notEqual(after.name, 'Renamed on the service', 'the file wins under --force');
    // The base copy moved on: the next push has nothing to refuse.
    assert.equal((await run(['assistants', 'push', '--dir', dir, '--yes'])).code, 0);
  });

  test('a new file is created, its id written back with the rest of the file kept; KB files by name', async () => {
    const files = JSON.parse(await ok(['files', 'list', '-o', 'json'])) as { id: string; name: string }[];
    const kb = files.find((f) => files.filter((g) => g.name === f.name).length === 1)!;
    const path = join(dir, 'new-bot.assistant.yaml');
    const text =
      `# The bot for the pilot\nname: Pilot bot   # shown to callers\ndescription: |\n  Two lines\n  of text\nknowledgeBase:\n` +
      `  files: [${JSON.stringify(kb.name)}]\n`;
    writeFileSync(path, text);
    const diff = await run(['assistants', 'diff', '--dir', dir, '--exit-code']);
    assert.equal(diff.code, 1);
    assert.match(diff.stdout, /new-bot\.assistant\.yaml: new/);

    const before = (await listed()).length;
    const push = await run(['assistants', 'push', '--dir', dir, '--yes']);
    assert.equal(push.code, 0, push.stderr);
    const all = await listed();
    assert.equal(all.length, before + 1);
    const created = all.find((a) => a.name === 'Pilot bot')!;
    assert.deepEqual(created.knowledgeBase?.fileIds, [kb.id]);
    assert.equal(readFileSync(path, 'utf8'), text.replace('name: Pilot bot', `id: ${created.id}\nname: Pilot bot`));
    assert.equal((await run(['assistants', 'push', '--dir', dir, '--yes'])).code, 0);
    assert.equal((await listed()).length, before + 1, 'a second push does not create it again');
  });

  test('an unknown knowledge-base file name exits 2, naming it; nothing sent', async () => {
    const path = join(dir, 'kb-typo.assistant.yaml');
    writeFileSync(path, 'name: Typo bot\nknowledgeBase:\n  files: [no-such-file.md]\n');
    const state = await serviceState();
    const r = await run(['assistants', 'push', '--dir', dir, '--yes']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /kb-typo\.assistant\.yaml: knowledgeBase\.files\[0\]: no knowledge-base file .*"no-such-file\.md"/);
    assert.equal(await serviceState(), state);
    rmSync(path);
  });

  test('invalid YAML and a field of the wrong type exit 2 naming file, line and column; nothing sent', async () => {
    const [first] = await listed();
    const good = fileOf(first!.id);
    edit(good, /^description: .*$/m, 'description: Would be sent');
    const state = await serviceState();
    const bad = join(dir, 'zz-bad.assistant.yaml');
    writeFileSync(bad, 'name: Bad\nmodel:\n  temperature: [oops\n');
    for (const args of [['diff'], ['push', '--yes']]) {
      const r = await run(['assistants', ...args, '--dir', dir]);
      const verb = args[0];
      assert.equal(r.code, 2, `${verb}: ${r.stderr}`);
      assert.match(r.stderr, /zz-bad\.assistant\.yaml:\d+:\d+: invalid YAML/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
    writeFileSync(bad, 'name: Bad\nmodel:\n  temperature: hot\n');
    const typed = await run(['assistants', 'push', '--dir', dir, '--yes']);
    assert.equal(typed.code, 2);
    assert.match(typed.stderr, /zz-bad\.assistant\.yaml:3:16: model\.temperature: .*number/);
    assert.equal(await serviceState(), state);
    rmSync(bad);
    edit(good, /^description: .*$/m, 'description: Local edit');
  });

  test('assistants on the service without a file are listed by diff', async () => {
    const [first] = await listed();
    const other = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'));
    try {
      await ok(['assistants', 'pull', '--dir', other, first!.id]);
      assert.equal(readdirSync(other).filter((n) => n.endsWith('.assistant.yaml')).length, 1);
      const r = await run(['assistants', 'diff', '--dir', other, '--exit-code']);
      assert.equal(r.code, 1);
      const all = await listed();
      for (const a of all.filter((x) => x.id !== first!.id)) assert.ok(r.stdout.includes(`(${a.id}): on the service, no file`), `${a.id} listed`);
      const asJson = JSON.parse(await ok(['assistants', 'diff', '--dir', other, '-o', 'json'])) as { kind: string; id: string }[];
      assert.deepEqual(
        asJson.map((e) => e.kind),
        all.filter((x) => x.id !== first!.id).map(() => 'no-file'),
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('service text in a diff is escaped; colour only when asked for (a TTY, FORCE_COLOR)', async () => {
    const other = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'));
    try {
      const [first] = await listed();
      await ok(['assistants', 'pull', '--dir', other, first!.id]);
      await ok(['assistants', 'update', first!.id, '--description', 'evil \u001b]52;c;aGk=\u0007 \u009b31m text']);
      const plain = await run(['assistants', 'diff', '--dir', other]);
      assert.doesNotMatch(plain.stdout, /[\u001b\u0007\u009b]/, 'no raw control character');
      assert.match(plain.stdout, /evil \\x1b\]52;c;aGk=\\x07 \\x9b31m text|evil \\u001b/);
      const coloured = await runCli(['assistants', 'diff', '--dir', other], { env: { ...on.env, FORCE_COLOR: '1' } });
      assert.match(coloured.stdout, /\u001b\[31m/);
      assert.doesNotMatch(coloured.stdout.replace(/\u001b\[\d+m/g, ''), /[\u001b\u0007\u009b]/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('clone creates a copy with a new name', async () => {
    const [first] = await listed();
    const src = await get(first!.id);
    const r = await run(['assistants', 'clone', first!.id, '--name', 'Copy of first', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const copy = JSON.parse(r.stdout) as Listed;
    assert.notEqual(copy.id, first!.id);
    assert.equal(copy.name, 'Copy of first');
    assert.deepEqual(copy.model?.messages, src.model?.messages);
    assert.equal(copy.description, src.description);
  });
});

test('push re-reads each assistant and names the fields the service did not apply (as the spec says of PATCH)', async () => {
  // A service like the spec's: a PATCH keeps only name, status and description, and echoes the whole request.
  let stored: Record<string, unknown> = { id: 'a1', name: 'Desk', description: 'Old', voice: { provider: 'vapi', voiceId: 'Elliot' } };
  const server = await startServer(async (req, res) => {
    if (req.method === 'PATCH') {
      let raw = '';
      for await (const c of req) raw += c as string;
      const patch = JSON.parse(raw) as Record<string, unknown>;
      stored = { ...stored, ...Object.fromEntries(Object.entries(patch).filter(([k]) => ['name', 'status', 'description'].includes(k))) };
      return json(res, 200, { message: 'updated', assistant: { ...stored, ...patch } });
    }
    if (req.url === '/assistants') return json(res, 200, { assistants: [stored] });
    json(res, 200, { assistant: stored });
  });
  const other = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'));
  try {
    const env = { ...on.home.env, SWITCHBOARD_BASE_URL: server.url, SWITCHBOARD_API_KEY: 'sk-test-spec-0000000000' };
    assert.equal((await runCli(['assistants', 'pull', '--dir', other], { env })).code, 0);
    const path = join(other, 'desk.assistant.yaml');
    edit(path, 'description: Old', 'description: New');
    edit(path, 'voiceId: Elliot', 'voiceId: Paige');
    const push = await runCli(['assistants', 'push', '--dir', other, '--yes'], { env });
    assert.equal(push.code, 0, push.stderr);
    assert.match(push.stderr, /warning: .*desk\.assistant\.yaml: the service did not apply: voice\b/);
    assert.equal(stored.description, 'New');
    const diff = await runCli(['assistants', 'diff', '--dir', other, '--exit-code'], { env });
    assert.equal(diff.code, 1);
    assert.match(diff.stdout, /voice\.voiceId: "Elliot" → "Paige"/);
    assert.doesNotMatch(diff.stdout, /description/);
  } finally {
    rmSync(other, { recursive: true, force: true });
    await server.close();
  }
});

test('pull: an assistant with a 300-character id and no usable name gets short file names, each file with its base copy', async () => {
  const longId = `asst_${'x9'.repeat(150)}`;
  const other = { id: `${longId}-b`, name: '', updatedAt: '2026-11-01T00:00:00.000Z' };
  const first = { id: longId, name: '!!!', updatedAt: '2026-11-01T00:00:00.000Z' };
  const server = await startServer((req, res) => {
    if (req.url === '/assistants') return json(res, 200, { assistants: [first, other] });
    json(res, 404, { statusCode: 404, error: 'Not Found', message: 'no such assistant' });
  });
  const where = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'));
  try {
    const env = { ...on.home.env, SWITCHBOARD_BASE_URL: server.url, SWITCHBOARD_API_KEY: 'sk-test-spec-0000000000' };
    const pull = await runCli(['assistants', 'pull', '--dir', where], { env });
    assert.equal(pull.code, 0, pull.stderr);
    const files = readdirSync(where).filter((n) => n.endsWith('.assistant.yaml'));
    const bases = readdirSync(join(where, '.switchboard'));
    assert.equal(files.length, 2, `two files: ${files.join(', ')}`);
    assert.equal(bases.length, 2, `two base copies: ${bases.join(', ')}`);
    for (const name of [...files, ...bases]) assert.ok(name.length <= 100, `a short name: ${name}`);
    assert.equal(new Set(files).size, 2, 'two long ids that share a prefix keep apart');
    const diff = await runCli(['assistants', 'diff', '--dir', where, '--exit-code'], { env });
    assert.equal(diff.code, 0, `nothing changed since the pull: ${diff.stdout}${diff.stderr}`);
  } finally {
    rmSync(where, { recursive: true, force: true });
    await server.close();
  }
});

test('an assistant file that is an alias bomb or too large exits 2 naming the file (and line and column), with nothing sent', async () => {
  const where = mkdtempSync(join(tmpdir(), 'switchboard-ascode-'));
  try {
    const bomb =
      `name: Bomb\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, ` +
      `lol]\n${Array.from({ length: 8 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(', ')}]`).join('\n')}\n`;
    writeFileSync(join(where, 'bomb.assistant.yaml'), bomb);
    const r = await run(['assistants', 'diff', '--dir', where]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bomb\.assistant\.yaml:3:10: aliases \(\*name\) expand too many times/);
    rmSync(join(where, 'bomb.assistant.yaml'));
    writeFileSync(join(where, 'huge.assistant.yaml'), `name: Huge\ndescription: "${'x'.repeat(3 * 1024 * 1024)}"\n`);
    const huge = await run(['assistants', 'push', '--dir', where, '--yes']);
    assert.equal(huge.code, 2, huge.stderr);
    assert.match(huge.stderr, /huge\.assistant\.yaml: 3 MB is too large for an assistant file/);
  } finally {
    rmSync(where, { recursive: true, force: true });
  }
});
