// `switchboard test from-call`: a scenario made from a real sandbox call passes on the sandbox,
// with snapshots and with a judge, and fails once the assistant is changed to answer otherwise.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli } from '../support/cli.js';

const on = sandboxForCli({ seed: true });
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-from-call-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const cli = async (args: string[]) => {
  const r = await runCli(args, { env: on.env });
  assert.ok(!(r.stdout + r.stderr).includes(on.sb.apiKey), 'the key leaked');
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'a stack trace');
  return r;
};

interface ListedCall {
  id: string;
  status?: string;
  assistantId?: string;
  endedReason?: string;
}

test('a test made from a sandbox call passes on the sandbox, and fails once the assistant answers otherwise', async () => {
  const listed = JSON.parse((await cli(['calls', 'list', '--limit', '50', '-o', 'json'])).stdout) as ListedCall[];
  const call = listed.find((c) => c.status === 'ended' && c.endedReason !== 'customer-did-not-answer' && c.endedReason !== 'customer-busy');
  assert.ok(call, 'the seeded log has an answered call');

  const snap = join(dir, 'snap.test.yaml');
  // A unique part of the id is enough, as everywhere else.
  const made = await cli(['test', 'from-call', call.id.slice(0, 18), '--out', snap]);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, new RegExp(`from call ${call.id}`));
  const scenario = parse(readFileSync(snap, 'utf8')) as { assistant: string; turns: { user: string; expect?: { snapshot?: boolean } }[] };
  assert.equal(scenario.assistant, call.assistantId);
  assert.ok(scenario.turns.length >= 1 && scenario.turns.every((t) => t.expect?.snapshot === true));
  assert.ok(existsSync(join(dir, 'snap.snap.yaml')));

  // The short id the lists show is the id's end: that names it too.
  const byShort = await cli(['test', 'from-call', call.id.slice(-8), '--out', join(dir, 'short.test.yaml')]);
  assert.equal(byShort.code, 0, byShort.stderr);
  assert.match(byShort.stdout, new RegExp(`from call ${call.id}`));

  const judged = join(dir, 'judged.test.yaml');
  assert.equal((await cli(['test', 'from-call', call.id, '--judge', '--out', judged])).code, 0);
  assert.match(readFileSync(judged, 'utf8'), /judge:\n\s+- rubric: /);

  for (const f of [snap, judged]) {
    const r = await cli(['test', f]);
    assert.equal(r.code, 0, `${f}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /1 passed, 0 failed/);
  }

  // The same file is never overwritten.
  const again = await cli(['test', 'from-call', call.id, '--out', snap]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists already/);

  const assistant = JSON.parse((await cli(['assistants', 'get', call.assistantId!, '-o', 'json'])).stdout) as { model: Record<string, unknown> };
  const patch = join(dir, 'patch.json');
  writeFileSync(
    patch,
    JSON.stringify({
      model: {
        ...assistant.model,
        messages: [{ role: 'system', content: 'You are a closed shop. Tell every caller we are closed today.' }],
        knowledgeBase: { fileIds: [] },
      },
      knowledgeBase: { fileIds: [] },
    }),
  );
  assert.equal((await cli(['assistants', 'update', call.assistantId!, '--file', patch])).code, 0);
  for (const f of [snap, judged]) {
    const r = await cli(['test', f]);
    assert.equal(r.code, 1, `${f} fails after the change: ${r.stdout}`);
    assert.match(r.stdout, /0 passed, 1 failed/);
  }
});

test('from-call names what is wrong: an unknown call, a file name the runner would not find', async () => {
  const unknown = await cli(['test', 'from-call', 'no-such-call', '--out', join(dir, 'x.test.yaml')]);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /no-such-call|not found|no call/i);
  const listed = JSON.parse((await cli(['calls', 'list', '--limit', '1', '-o', 'json'])).stdout) as ListedCall[];
  const badName = await cli(['test', 'from-call', listed[0].id, '--out', join(dir, 'x.yaml')]);
  assert.equal(badName.code, 2);
  assert.match(badName.stderr, /ends in \.test\.yaml/);
});
