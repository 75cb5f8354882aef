// A sandbox in a child process acknowledges writes, is killed with SIGKILL, and restarts on
// the same data dir: every acknowledged write is there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeDataDir, startChildSandbox } from '../support/child-sandbox.js';
import { get, post, send, upload } from './http.js';

test('every acknowledged write survives kill -9', async () => {
  let child = await startChildSandbox({ callPace: 10 });
  const { dataDir, apiKey } = child;
  try {
    const sb = child;
    const assistant = (await get(sb, '/assistants')).body.assistants[0];
    const free = (await get(sb, '/phone-numbers')).body.phoneNumbers.find((n: any) => !n.assistantId);

    // One of each kind of write, acknowledged before the kill.
    const created = (await post(sb, '/assistants', { name: 'Durable', description: 'v1' })).body.assistant;
    const patched = (await send(sb, 'PATCH', `/assistants/${created.id}`, { description: 'v2' })).body.assistant;
    const linked = (await post(sb, '/phone-numbers/inbound/setup', { assistantId: created.id, phoneNumberId: free.id })).body.phoneNumber;
    const session = (await post(sb, '/sessions', { assistantId: assistant.id })).body.session;
    const chat = (await post(sb, '/chats', { sessionId: session.id, input: 'How do I return an item?' })).body.chat;
    const call = (await post(sb, '/calls/outbound', { assistantId: assistant.id, phoneNumberId: free.id, customer: { number: '+14155550100' } })).body.call;
    const file = (await upload(sb, 'durable.txt', 'kept across kill -9')).body.file;
    const deleted = (await get(sb, '/files')).body.files.at(-1);
    assert.equal((await send(sb, 'DELETE', `/files/${deleted.id}`)).status, 200);

    // A burst of writes in flight when the process dies: those answered must survive.
    const acked: string[] = [];
    const burst = Array.from({ length: 60 }, (_, i) =>
      post(sb, '/assistants', { name: `burst ${i}` }).then(
        (r) => void (r.status === 201 && acked.push(r.body.assistant.id)),
        () => undefined,
      ),
    );
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 1));
    const ackedAtKill = [...acked];
    await child.kill();
    await Promise.all(burst);

    child = await startChildSandbox({ dataDir, apiKey, callPace: 10 });
    const again = child;
    assert.equal((await get(again, `/assistants/${created.id}`)).body.assistant.description, 'v2');
    assert.equal(patched.description, 'v2');
    const number = (await get(again, '/phone-numbers')).body.phoneNumbers.find((n: any) => n.id === linked.id);
    assert.equal(number.assistantId, created.id);
    const s = (await get(again, `/chats/session/${session.id}`)).body.session;
    assert.deepEqual(
      s.messages.slice(-2).map((m: any) => m.content),
      ['How do I return an item?', chat.output[0].content],
    );
    assert.equal((await get(again, `/calls/details?id=${call.id}`)).body.calls.length, 1);
    const f = (await get(again, `/files/${file.id}`)).body.file;
    assert.equal(f.name, 'durable.txt');
    assert.equal((await send(again, 'GET', `/files/${file.id}/content`)).text, 'kept across kill -9');
    assert.equal((await get(again, `/files/${deleted.id}`)).status, 404);
    const ids = new Set((await get(again, '/assistants')).body.assistants.map((a: any) => a.id));
    for (const id of ackedAtKill) assert.ok(ids.has(id), `acknowledged assistant ${id} was lost`);
  } finally {
    await child.kill();
    removeDataDir(dataDir);
  }
});
