// Every client function against a real sandbox over loopback HTTP: the happy path and the
// service's errors (400 / 401 / 404) with its own message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestSandbox, sandboxForFile } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { ApiError, InputError, failure as userWords } from '../../src/api/errors.js';
import { walkCallLog } from '../../src/api/pager.js';

const sb = sandboxForFile({ callPace: 1 });
let api: VoiceAgentApi;
let dir: string;
const debugLines: string[] = [];

before(async () => {
  await sb.started;
  api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, debug: (l) => debugLines.push(l) });
  dir = mkdtempSync(join(tmpdir(), 'switchboard-client-'));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => assert.fail('should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, String(err));
  return err;
}

test('assistants: list, get, create with every field, update', async () => {
  const list = await api.listAssistants();
  assert.ok(list.length >= 2);
  const one = await api.getAssistant(list[0].id);
  assert.equal(one.id, list[0].id);
  assert.equal(one.name, list[0].name);

  const created = (
    await api.createAssistant({
      name: 'Test desk',
      description: 'made by the client test',
      status: true,
      voice: { provider: 'elevenlabs', voiceId: 'v1', speed: 1.1 },
      transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
      model: { provider: 'openai', model: 'gpt-4o', temperature: 0.3, messages: [{ role: 'system', content: 'Be brief.' }] },
      firstMessage: 'Hello {{name}}',
      firstMessageMode: 'assistant-speaks-first',
      maxDurationSeconds: 600,
      analysisPlan: { summary: true },
    })
  ).record!;
  assert.equal(created.name, 'Test desk');
  assert.equal(created.model?.messages?.[0].content, 'Be brief.');
  assert.deepEqual(created.analysisPlan, { summary: true });

  const updated = (await api.updateAssistant(created.id, { name: 'Renamed desk', status: false })).record!;
  assert.equal(updated.name, 'Renamed desk');
  assert.equal(updated.status, false);
  assert.equal((await api.getAssistant(created.id)).name, 'Renamed desk');
});

test('assistants: 400 and 404 carry the service message', async () => {
  const bad = await failure(api.createAssistant({ description: 'no name' }));
  assert.equal(bad.status, 400);
  assert.match(bad.message, /^POST \/assistants failed \(400\): .*name/);
  const missing = await failure(api.getAssistant('no-such-assistant'));
  assert.equal(missing.status, 404);
  assert.match(missing.detail, /no-such-assistant/);
  assert.equal((await failure(api.updateAssistant('no-such-assistant', { name: 'x' }))).status, 404);
});

test('a wrong key is a 401 with a hint, and the key never appears in errors or debug lines', async () => {
  const wrong = createClient({ baseUrl: sb.url, apiKey: 'sk-wrong-key-123456789' });
  try {
    const err = await failure(wrong.listAssistants());
    assert.equal(err.status, 401);
    assert.match(userWords(err).hint ?? '', /switchboard login/);
    assert.ok(!err.message.includes('sk-wrong-key-123456789'));
  } finally {
    await wrong.close();
  }
  for (const line of debugLines) assert.ok(!line.includes(sb.apiKey), line);
});

test('phone numbers: list and link an assistant; 400 and 404', async () => {
  const numbers = await api.listPhoneNumbers();
  assert.ok(numbers.length >= 3);
  const [assistant] = await api.listAssistants();
  const linked = await api.linkNumber({ assistantId: assistant.id, phoneNumberId: numbers[1].id });
  assert.ok(linked.message.length > 0);
  const after = (await api.listPhoneNumbers()).find((n) => n.id === numbers[1].id);
  assert.equal(after?.assistantId, assistant.id);
  assert.equal((await failure(api.linkNumber({ assistantId: assistant.id, phoneNumberId: '' }))).status, 400);
  assert.equal((await failure(api.linkNumber({ assistantId: 'nope', phoneNumberId: numbers[0].id }))).status, 404);
});

test('calls: list with filters, details, one call, outbound; 400 for a number not in E.164', async () => {
  const calls = await api.listCalls({ limit: 5 });
  assert.equal(calls.length, 5);
  for (let i = 1; i < calls.length; i++) assert.ok(calls[i - 1].createdAt >= calls[i].createdAt, 'newest first');

  const assistantId = calls[0].assistantId!;
  const mine = await api.listCalls({ assistantId, limit: 1000 });
  assert.ok(mine.length > 0 && mine.every((c) => c.assistantId === assistantId));

  const details = await api.callDetails({ id: calls[0].id });
  assert.equal(details.length, 1);
  assert.ok(typeof details[0].transcript === 'string' || Array.isArray(details[0].messages), 'details are full records');
  assert.equal((await api.getCall(calls[0].id)).id, calls[0].id);
  assert.equal((await failure(api.getCall('no-such-call'))).status, 404);

  const [number] = await api.listPhoneNumbers();
  const placed = (await api.placeOutboundCall({ assistantId, phoneNumberId: number.id, customer: { number: '+14155550123', name: 'Ada' } })).record!;
  assert.equal(placed.assistantId, assistantId);
  assert.equal(placed.customer?.number, '+14155550123');
  assert.equal((await api.getCall(placed.id)).id, placed.id);
  const bad = await failure(api.placeOutboundCall({ assistantId, phoneNumberId: number.id, customer: { number: '4155550123' } }));
  assert.equal(bad.status, 400);
  assert.match(bad.detail, /customer\.number/);
  assert.equal((await failure(api.listCalls({ limit: 0 }))).status, 400);
});

test('the pager walks the whole seeded log once, newest first, across pages', async () => {
  const all = await api.listCalls({ limit: 1000 });
  assert.ok(all.length > 100, `seeded calls: ${all.length}`);
  const walked: string[] = [];
  for await (const page of walkCallLog(api, {}, { pageSize: 37 })) walked.push(...page.map((c) => c.id));
  assert.deepEqual(
    walked,
    all.map((c) => c.id),
  );
});

test('sessions and chat: create, send with variable values, read back; 404 for an unknown session', async () => {
  const [assistant] = await api.listAssistants();
  const session = (await api.createSession({ assistantId: assistant.id, name: 'client test' })).record!;
  assert.equal(session.assistantId, assistant.id);
  const chat = (await api.sendChat({ sessionId: session.id, input: 'Hello there', variableValues: { name: 'Ada' } })).record!;
  assert.equal(chat.sessionId, session.id);
  assert.ok(chat.output && chat.output.length > 0 && chat.output.every((m) => typeof m.content === 'string'));
  const again = await api.getSession(session.id);
  assert.ok(again.messages?.some((m) => m.content === 'Hello there'));
  assert.equal((await failure(api.getSession('no-such-session'))).status, 404);
  assert.equal((await failure(api.sendChat({ sessionId: 'no-such-session', input: 'hi' }))).status, 404);
  assert.equal((await failure(api.createSession({ assistantId: 'no-such-assistant' }))).status, 404);
});

test('files: upload (streamed multipart), list pages, get, delete; 404 after delete', async () => {
  const path = join(dir, 'opening-hours.md');
  writeFileSync(path, '# Opening hours\nWe are open 9 to 5, Monday to Friday.\n');
  const progress: Array<[number, number]> = [];
  const file = (await api.uploadFile(path, { onProgress: (sent, total) => progress.push([sent, total]) })).record!;
  assert.equal(file.name, 'opening-hours.md');
  assert.equal(file.bytes, 54);
  assert.deepEqual(progress.at(-1), [54, 54]);

  const renamed = (await api.uploadFile(path, { name: 'Öffnungszeiten "neu".md' })).record!;
  assert.match(renamed.name ?? '', /^Öffnungszeiten/);

  assert.equal((await api.getFile(file.id)).id, file.id);
  const page1 = await api.listFiles({ page: 1, limit: 2 });
  assert.equal(page1.files.length, 2);
  assert.equal(page1.pagination.limit, 2);
  assert.ok(page1.pagination.total >= 5 && page1.pagination.totalPages >= 3);
  const page2 = await api.listFiles({ page: 2, limit: 2 });
  assert.ok(!page2.files.some((f) => page1.files.some((g) => g.id === f.id)), 'pages do not overlap');

  const deleted = await api.deleteFile(file.id);
  assert.ok(deleted.message.length > 0);
  assert.equal((await failure(api.getFile(file.id))).status, 404);
  assert.equal((await failure(api.deleteFile(file.id))).status, 404);
});

test('upload refuses a missing path, a directory or an unreadable file before sending', async () => {
  await assert.rejects(
    api.uploadFile(join(dir, 'nope.txt')),
    (e: unknown) => e instanceof InputError && e.message === `there is no file at ${join(dir, 'nope.txt')}`,
  );
  await assert.rejects(api.uploadFile(dir), (e: unknown) => e instanceof InputError && e.message.startsWith(`${dir} is not a regular file`));
  if (process.getuid?.() !== 0) {
    const locked = join(dir, 'locked.txt');
    writeFileSync(locked, 'secret', { mode: 0o000 });
    await assert.rejects(api.uploadFile(locked), (e: unknown) => e instanceof InputError && /permission denied/.test(e.message));
  }
});

test('an upload over the service limit is a 413', async () => {
  const small = await startTestSandbox({ maxUploadBytes: 1024, seed: false });
  const client = createClient({ baseUrl: small.url, apiKey: small.apiKey });
  try {
    const path = join(dir, 'big.txt');
    writeFileSync(path, 'x'.repeat(64 * 1024));
    const err = await failure(client.uploadFile(path));
    assert.equal(err.status, 413);
    assert.match(userWords(err).hint ?? '', /larger than the service accepts/);
  } finally {
    await client.close();
    await small.close();
  }
});
