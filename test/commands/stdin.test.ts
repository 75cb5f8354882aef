// `-` reads stdin as a stream: input that arrives after the program started (a slow producer in a
// pipeline, a busy machine) is waited for, not refused because the pipe had nothing yet.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempHome } from '../support/cli.js';

const home = tempHome();
after(() => home.cleanup());

test('assistants create --file - waits for JSON that arrives late on the pipe', async () => {
  const spec = JSON.stringify({ name: 'Late on stdin', model: { provider: 'openai', model: 'gpt-4o-mini' } });
  const r = await runCli(['assistants', 'create', '--file', '-', '-o', 'json'], { env: home.env, stdin: spec, stdinAfterMs: 400 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).name, 'Late on stdin');
});

test('assistants update --file - and chat send - wait for late input too', async () => {
  const created = await runCli(['assistants', 'create', '--file', '-', '-o', 'ids'], { env: home.env, stdin: '{"name":"Patch me"}', stdinAfterMs: 200 });
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  const updated = await runCli(['assistants', 'update', id, '--file', '-', '-o', 'json'], {
    env: home.env,
    stdin: '{"description":"patched late"}',
    stdinAfterMs: 400,
  });
  assert.equal(updated.code, 0, updated.stderr);
  assert.equal(JSON.parse(updated.stdout).description, 'patched late');
  const session = await runCli(['sessions', 'create', '--assistant', id, '-o', 'ids'], { env: home.env });
  assert.equal(session.code, 0, session.stderr);
  const sent = await runCli(['chat', 'send', '--session', session.stdout.trim(), '-'], { env: home.env, stdin: 'Hello, late\n', stdinAfterMs: 400 });
  assert.equal(sent.code, 0, sent.stderr);
  assert.ok(sent.stdout.trim().length > 0);
});
