// PATCH /assistants/{id}: the spec says the hosted service updates only name, status and
// description locally. The client re-reads the assistant after writing and reports every field
// the service did not apply; the command prints that as a warning.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { updateAssistantAndReport } from '../../src/commands/assistants.js';
import { json, startServer, type TestServer } from './servers.js';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';

const open: { close(): Promise<void> | void }[] = [];
after(async () => {
  for (const o of open) await o.close();
});

/** A service that, like the spec's, keeps only name, status and description of a PATCH. */
async function specLikeService(): Promise<TestServer> {
  let stored: Record<string, unknown> = {
    id: 'a1',
    name: 'Desk',
    status: true,
    voice: { provider: 'vapi', voiceId: 'Elliot' },
    createdAt: '2026-11-01T00:00:00Z',
  };
  return startServer(async (req, res) => {
    if (req.method === 'PATCH') {
      let raw = '';
      for await (const c of req) raw += c;
      const patch = JSON.parse(raw) as Record<string, unknown>;
      const kept = Object.fromEntries(Object.entries(patch).filter(([k]) => ['name', 'status', 'description'].includes(k)));
      stored = { ...stored, ...kept };
      // It echoes the whole request back, as if everything had been applied.
      return json(res, 200, { message: 'updated', assistant: { ...stored, ...patch } });
    }
    json(res, 200, { assistant: stored });
  });
}

test('updateAssistant re-reads the record and names the fields a service did not apply', async () => {
  const server = await specLikeService();
  const api = createClient({ baseUrl: server.url, apiKey: 'k', retryBaseMs: 5 });
  open.push(server, api);
  const updated = (
    await api.updateAssistant('a1', {
      name: 'Front desk',
      voice: { provider: '11labs', voiceId: 'v', model: 'm', language: 'en' },
      maxDurationSeconds: 60,
    })
  ).record!;
  assert.equal(updated.name, 'Front desk');
  assert.deepEqual(updated.voice, { provider: 'vapi', voiceId: 'Elliot' }, 'the record as stored, not the echo');
  assert.deepEqual(updated.notApplied, ['voice', 'maxDurationSeconds']);
  assert.ok(!Object.keys(updated).includes('notApplied'), 'not a field of the record (JSON output stays the record)');
  assert.deepEqual(
    server.requests.map((r) => r.method),
    ['PATCH', 'GET'],
  );
});

test('the command warns about fields not applied; against the sandbox, which applies every field, nothing', async () => {
  const server = await specLikeService();
  const api = createClient({ baseUrl: server.url, apiKey: 'k', retryBaseMs: 5 });
  open.push(server, api);
  const out = { stdout: '', stderr: '' };
  const target = { format: 'json' as const, tty: false, color: false, write: (s: string) => (out.stdout += s) };
  await updateAssistantAndReport(api, target, 'a1', { description: 'new', firstMessage: 'Hi' }, (s) => (out.stderr += s));
  assert.match(out.stderr, /the service did not apply: firstMessage/);
  assert.ok(!out.stdout.includes('notApplied'));

  const sb: RunningSandbox = await startTestSandbox();
  const local = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  open.push(sb, local);
  const id = (await local.listAssistants())[0].id;
  const all = (await local.updateAssistant(id, { description: 'x', firstMessage: 'Hello', voice: { provider: 'elevenlabs', voiceId: 'Paige' } })).record!;
  assert.deepEqual(all.notApplied, []);
});
