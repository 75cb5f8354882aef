// `calls outbound --number` takes a DID as `numbers link` does, and `calls get` prints the
// conversation as a dialogue (-o json unchanged), run as the built binary against a sandbox.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { sandboxForFile } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

const sb = sandboxForFile({ callPace: 20 });
let home: CliHome;
let env: NodeJS.ProcessEnv;
before(async () => {
  await sb.started;
  home = tempHome();
  env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
});

async function json<T>(args: string[]): Promise<T> {
  const r = await runCli([...args, '-o', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

describe('calls outbound and get', () => {
  test('--number takes a DID; an unknown DID is one line naming it', async () => {
    const [assistant] = await json<{ id: string }[]>(['assistants', 'list']);
    const [number] = await json<{ id: string; did: string }[]>(['numbers', 'list']);
    const call = await json<{ id: string; phoneNumberId: string }>([
      'calls',
      'outbound',
      '--assistant',
      assistant.id,
      '--number',
      number.did,
      '--to',
      '+14155550199',
    ]);
    assert.equal(call.phoneNumberId, number.id);

    const unknown = await runCli(['calls', 'outbound', '--assistant', assistant.id, '--number', '+19995550000', '--to', '+14155550199'], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no phone number "\+19995550000" by id, short id or DID/);
    assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);

    // The call ends with a transcript; then `calls get` shows it as turns.
    let ended: { status: string; messages?: unknown[] } = { status: '' };
    while (ended.status !== 'ended') {
      await delay(100);
      ended = await json(['calls', 'get', call.id]);
    }
    assert.ok(Array.isArray(ended.messages) && ended.messages.length > 1, '-o json keeps the messages as returned');
    const r = await runCli(['calls', 'get', call.id], { env });
    assert.equal(r.code, 0, r.stderr);
    const [fields, talk] = r.stdout.split('\ntranscript\n');
    assert.ok(talk, r.stdout);
    assert.doesNotMatch(fields, /^messages\t/m, 'no JSON block of messages');
    assert.doesNotMatch(r.stdout, /"role":/);
    const lines = talk.trimEnd().split('\n');
    assert.ok(lines.length > 1);
    for (const line of lines) assert.match(line, /^ {2}(Assistant|Caller): \S/);
  });
});
