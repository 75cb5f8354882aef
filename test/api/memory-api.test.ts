// The in-memory VoiceAgentApi (test/support/memory-api.ts) and the real client against a real
// sandbox, put through the same steps: what each answers, with ids and times taken out, must be
// the same. A store or UI test on the memory api so sees what it would see over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { createMemoryApi } from '../support/memory-api.js';
import { sandboxWithClient } from '../support/sandbox.js';

/** What a failed operation said: its status and the service's words, or that it did not fail. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.detail} (${err.method} ${err.path.replace(/\?.*/, '')})`;
    throw err;
  }
}

/** Every operation of the contract, the answers summed up without what differs by nature (ids, times, the base URL). */
async function observe(api: VoiceAgentApi, dir: string) {
  const seen: Record<string, unknown> = {};
  const assistants = await api.listAssistants();
  seen.assistants = assistants.map((a) => [a.name, a.firstMessageMode, a.model?.provider, a.model?.knowledgeBase?.fileIds?.length ?? 0]);
  seen.state = api.connectionState;
  const numbers = await api.listPhoneNumbers();
  seen.numbers = numbers.map((n) => [n.number ?? n.did, assistants.findIndex((a) => a.id === n.assistantId)]);

  const page = await api.listCalls();
  const all = await api.listCalls({ limit: 1000 });
  seen.calls = [page.length, all.length, page.map((c) => [c.customer?.number, c.status, c.type, c.endedReason, c.cost, 'messages' in c])];
  const sorted = all.every((c, i) => i === 0 || String(all[i - 1]!.createdAt) >= String(c.createdAt));
  const mid = all[150]!;
  const window = await api.listCalls({ createdAtGt: all[160]!.createdAt!, createdAtLt: mid.createdAt!, limit: 1000 });
  const byAssistant = await api.listCalls({ assistantId: assistants[0]!.id, limit: 1000 });
  seen.filters = [
    sorted,
    window.map((c) => c.id).join() ===
      all
        .slice(150, 161)
        .map((c) => c.id)
        .join(),
    byAssistant.length,
    byAssistant.every((c) => c.assistantId === assistants[0]!.id),
  ];
  const details = await api.callDetails({ limit: 3 });
  const one = await api.getCall(page[0]!.id);
  seen.details = [details.map((c) => [c.customer?.number, c.messages?.length, typeof c.transcript]), one.transcript === details[0]!.transcript];
  seen.callErrors = [await outcome(api.getCall('no-such-call')), await outcome(api.listCalls({ limit: 1001 }))];

  const files = await api.listFiles({ page: 1, limit: 2 });
  const page2 = await api.listFiles({ page: 2, limit: 2 });
  const beyond = await api.listFiles({ page: 9, limit: 2 });
  const deflt = await api.listFiles();
  seen.files = [
    files.files.map((f) => [f.name, f.bytes, f.mimetype, f.status]),
    files.pagination,
    page2.files.map((f) => f.name),
    page2.pagination,
    beyond.files.length,
    beyond.pagination,
    deflt.pagination,
    (await api.getFile(files.files[0]!.id)).name,
  ];
  seen.fileErrors = [await outcome(api.getFile('no-such-file')), await outcome(api.deleteFile('no-such-file')), await outcome(api.listFiles({ limit: 101 }))];

  const speaks = assistants.find((a) => a.firstMessageMode === 'assistant-speaks-first')!;
  const session = (await api.createSession({ assistantId: speaks.id })).record!;
  const sent = await api.sendChat({ sessionId: session.id, input: 'What are your opening hours?', variableValues: { company: 'Northwind' } });
  const again = await api.getSession(session.id);
  seen.chat = [session.name, session.messages, sent.message, sent.record?.output, sent.record?.status, again.messages?.length, again.messages?.at(-1)];
  seen.chatErrors = [
    await outcome(api.getSession('no-such-session')),
    await outcome(api.sendChat({ sessionId: 'no-such-session', input: 'hi' })),
    await outcome(api.createSession({ assistantId: 'no-such-assistant' })),
  ];

  const created = await api.createAssistant({ name: 'Memory check', firstMessage: 'Hello there' });
  const updated = await api.updateAssistant(created.record!.id, { name: 'Memory check 2' });
  const read = await api.getAssistant(created.record!.id);
  seen.assistantWrites = [
    created.message,
    created.record?.name,
    updated.message,
    updated.record?.name,
    updated.record?.notApplied,
    read.name,
    (await api.listAssistants()).length,
    await outcome(api.getAssistant('no-such-assistant')),
    await outcome(api.updateAssistant('no-such-assistant', { name: 'x' })),
  ];

  const link = await api.linkNumber({ assistantId: created.record!.id, phoneNumberId: numbers[0]!.id });
  seen.link = [
    link.message,
    link.phoneNumber?.assistantId === created.record!.id,
    await outcome(api.linkNumber({ assistantId: created.record!.id, phoneNumberId: 'no-such-number' })),
  ];

  const placed = await api.placeOutboundCall({ assistantId: speaks.id, phoneNumberId: numbers[0]!.id, customer: { number: '+14155550100' } });
  seen.outbound = [
    placed.message,
    placed.record?.status,
    placed.record?.customer,
    (await api.listCalls({ limit: 1 }))[0]?.id === placed.record?.id,
    await outcome(api.placeOutboundCall({ assistantId: speaks.id, phoneNumberId: numbers[0]!.id, customer: { number: '555' } })),
  ];

  const path = join(dir, 'notes.txt');
  writeFileSync(path, 'The memory check file.\n');
  const up = await api.uploadFile(path);
  const listed = await api.listFiles({ limit: 100 });
  const del = await api.deleteFile(up.record!.id);
  seen.upload = [
    up.message,
    up.record?.name,
    up.record?.bytes,
    up.record?.mimetype,
    listed.files[0]?.id === up.record?.id,
    listed.pagination.total,
    del.message,
    (await outcome(api.getFile(up.record!.id))).replaceAll(up.record!.id, '<id>'),
  ];
  seen.stateAfter = api.connectionState;
  seen.learned = { ...api.traits };
  return seen;
}

describe('the memory api answers as the sandbox does', () => {
  const on = sandboxWithClient();
  const memory = createMemoryApi();
  let dir: string;
  before(() => void (dir = mkdtempSync(join(tmpdir(), 'switchboard-memory-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every operation, the seed, paging, filters, errors and chat replies', async () => {
    const fromSandbox = await observe(on.api, dir);
    const fromMemory = await observe(memory, dir);
    for (const key of Object.keys(fromSandbox)) assert.deepEqual(fromMemory[key], fromSandbox[key], key);
    assert.deepEqual(Object.keys(fromMemory), Object.keys(fromSandbox));
    // The same, and also right: the seed's size, its paging and a 404's words.
    const [pageLength, allLength] = fromMemory.calls as number[];
    assert.deepEqual([pageLength, allLength], [100, 300]);
    assert.equal(fromMemory.state, 'online');
    assert.match(String((fromMemory.fileErrors as string[])[0]), /^404 no file with id no-such-file/);
    assert.ok(String((fromMemory.chat as unknown[])[3] && JSON.stringify((fromMemory.chat as unknown[])[3])).length > 20);
  });

  test('a wrong key: the same 401 and connection state', async () => {
    const wrong = createClient({ baseUrl: on.sb.url, apiKey: 'sk-wrong-key-0000' });
    const memoryWrong = createMemoryApi({ wrongKey: true, seed: false });
    try {
      for (const api of [wrong, memoryWrong]) {
        assert.equal(await outcome(api.listAssistants()), '401 invalid API key in x-api-key header (GET /assistants)');
        assert.equal(api.connectionState, 'unauthorized');
      }
    } finally {
      await wrong.close();
    }
  });
});
