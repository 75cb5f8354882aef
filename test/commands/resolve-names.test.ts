// Commands take what the console's palette takes for a record: a whole id, its short id (a start
// of it) or its name (a number: its DID), through the one matcher both use (src/format/short-id.ts).
// Several matches: exit 2 listing them; none: exit 2 naming the value. Built binary, real sandbox.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli } from '../support/cli.js';
import { createClient } from '../../src/api/client.js';
import type { Assistant, PhoneNumber } from '../../src/api/schemas.js';

let riley: Assistant;
let numbers: PhoneNumber[];
let dupes: Assistant[];

const setUp = async (on: ReturnType<typeof sandboxForCli>) => {
  const api = createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey });
  try {
    riley = (await api.listAssistants()).find((a) => a.name === 'Riley — Northwind support')!;
    numbers = await api.listPhoneNumbers();
    dupes = [];
    for (const name of ['Twin desk', 'Twin desk']) dupes.push((await api.createAssistant({ name })).record!);
  } finally {
    await api.close();
  }
};

describe('names, short ids and ids', () => {
  // In the describe: its hooks run in turn, so the sandbox is up before the records are read.
  const on = sandboxForCli({ callPace: 5 });
  before(() => setUp(on));

  test('calls outbound --assistant Riley: the POST carries the id the name stands for', async () => {
    const r = await runCli(['calls', 'outbound', '--assistant', 'Riley', '--number', numbers[0].did!, '--to', '+14155550123', '-o', 'json'], {
      env: on.env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { assistantId: string }).assistantId, riley.id);
  });

  test('calls list --assistant <short id> and --number <DID> filter by the ids they name', async () => {
    const r = await runCli(['calls', 'list', '--assistant', riley.id.slice(0, 8), '--all', '-o', 'json'], { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    const calls = JSON.parse(r.stdout) as { assistantId: string }[];
    assert.ok(calls.length > 0);
    assert.ok(calls.every((c) => c.assistantId === riley.id));
    const byDid = await runCli(['calls', 'list', '--number', numbers[0].did!, '--all', '-o', 'json'], { env: on.env });
    assert.equal(byDid.code, 0, byDid.stderr);
    assert.ok((JSON.parse(byDid.stdout) as { phoneNumberId: string }[]).every((c) => c.phoneNumberId === numbers[0].id));
    const get = await runCli(['assistants', 'get', 'riley — northwind support', '-o', 'ids'], { env: on.env });
    assert.equal(get.stdout.trim(), riley.id, get.stderr);
  });

  test('a name two assistants share: exit 2, listing both, nothing sent', async () => {
    const r = await runCli(['calls', 'outbound', '--assistant', 'Twin desk', '--number', numbers[0].did!, '--to', '+14155550123'], { env: on.env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /"Twin desk" could be 2 assistants: /);
    for (const d of dupes) assert.ok(r.stderr.includes(`${d.id} (Twin desk)`), r.stderr);
  });

  test('nothing matched: exit 2 naming the value and how many there are', async () => {
    const link = await runCli(['numbers', 'link', '+19995550000', '--assistant', 'Riley'], { env: on.env });
    assert.equal(link.code, 2, link.stderr);
    assert.match(link.stderr, new RegExp(`no phone number "\\+19995550000" by id, short id or DID \\(${numbers.length} numbers on this service`));
    assert.doesNotMatch(link.stderr, /failed \(404\)/);
    const who = await runCli(['sessions', 'create', '--assistant', 'Nobody at all'], { env: on.env });
    assert.equal(who.code, 2, who.stderr);
    assert.match(who.stderr, /no assistant "Nobody at all" by id, short id or name \(\d+ assistants on this service/);
  });

  test("calls stats --by assistant -o json: each assistant's name beside its id (the README's jq example)", async () => {
    const r = await runCli(['calls', 'stats', '--by', 'assistant', '-o', 'json'], { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as { assistant: string; name: string | null; cost: number }[];
    const row = rows.find((g) => g.assistant === riley.id);
    assert.equal(row?.name, riley.name);
    // The README's example, as written there, where jq is installed.
    const example = /switchboard calls stats --by assistant -o json \| jq '([^']+)'/.exec(readFileSync('README.md', 'utf8'))?.[1];
    assert.ok(example, "the README's calls stats | jq example");
    const jq = spawnSync('jq', ['-c', example], { input: r.stdout, encoding: 'utf8' });
    if (!jq.error) assert.ok(jq.stdout.includes(JSON.stringify({ name: riley.name, cost: row!.cost })), jq.stdout + jq.stderr);
    const search = await runCli(['calls', 'search', 'refund', '--assistant', 'Riley', '-o', 'json', '--limit', '1000'], { env: on.env });
    assert.equal(search.code, 0, search.stderr);
    assert.ok((JSON.parse(search.stdout) as { assistantId: string }[]).every((c) => c.assistantId === riley.id));
  });
});
