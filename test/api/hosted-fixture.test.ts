// The hosted-service fixture's own tests: each variant answers as the references describe it,
// so the tests that run Switchboard against it test Switchboard and not the fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixturesForFile, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';

const fixture = fixturesForFile();

async function get(f: HostedFixture, path: string, init: RequestInit = {}): Promise<{ status: number; type: string; body: unknown; text: string }> {
  const res = await fetch(f.url + path, { ...init, headers: { 'x-api-key': f.apiKey, ...(init.headers ?? {}) } });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (type.includes('json')) body = JSON.parse(text);
  return { status: res.status, type, body, text };
}

function post(f: HostedFixture, path: string, json: unknown, method = 'POST') {
  return get(f, path, { method, body: JSON.stringify(json), headers: { 'content-type': 'application/json' } });
}

type Rec = Record<string, unknown>;

test('every request needs the x-api-key: 401 otherwise, and each request is logged', async () => {
  const f = await fixture();
  const res = await fetch(`${f.url}/calls?limit=5`);
  assert.equal(res.status, 401);
  const wrong = await fetch(`${f.url}/assistants`, { headers: { 'x-api-key': 'nope' } });
  assert.equal(wrong.status, 401);
  assert.deepEqual(f.requests[0], { method: 'GET', path: '/calls', query: { limit: '5' } });
});

test('seeded calls are Vapi Call objects: newest first, no durationSeconds or top-level summary', async () => {
  const f = await fixture();
  assert.equal(f.calls.length, 40);
  const r = await get(f, '/calls/details');
  assert.equal(r.status, 200);
  const { calls } = r.body as { message: string; calls: Rec[] };
  assert.equal(typeof (r.body as Rec).message, 'string');
  assert.equal(calls.length, 40);
  for (let i = 1; i < calls.length; i++) assert.ok(Date.parse(calls[i - 1].createdAt as string) >= Date.parse(calls[i].createdAt as string));
  const ended = calls.filter((c) => c.status === 'ended');
  assert.ok(ended.length >= 35);
  for (const c of ended) {
    for (const k of [
      'id',
      'type',
      'status',
      'startedAt',
      'endedAt',
      'endedReason',
      'costBreakdown',
      'messages',
      'transcript',
      'artifact',
      'analysis',
      'assistantId',
      'phoneNumberId',
      'createdAt',
      'updatedAt',
    ]) {
      assert.ok(k in c, `${k} in ${String(c.id)}`);
    }
    assert.ok(!('durationSeconds' in c) && !('summary' in c));
    assert.equal(typeof (c.analysis as Rec).summary, 'string');
    assert.equal(typeof (c.costBreakdown as Rec).total, 'number');
    assert.ok(Date.parse(c.endedAt as string) >= Date.parse(c.startedAt as string));
    for (const m of c.messages as Rec[]) {
      assert.ok(['bot', 'user', 'system'].includes(m.role as string));
      assert.equal(typeof m.message, 'string');
      assert.ok(!('content' in m));
      assert.equal(typeof m.time, 'number');
      assert.equal(typeof m.secondsFromStart, 'number');
    }
  }
  assert.ok(
    ended.some((c) => !('cost' in c)),
    'some calls carry only costBreakdown.total',
  );
  assert.ok(ended.some((c) => Date.parse(c.endedAt as string) - Date.parse(c.startedAt as string) > 60_000));
  assert.ok(calls.some((c) => String(c.transcript).includes('refund')));
  assert.ok(new Set(calls.map((c) => c.assistantId)).size >= 3 && new Set(calls.map((c) => c.phoneNumberId)).size >= 3);
});

test('the seed is deterministic and has three calls sharing a timestamp across each boundary of 100', async () => {
  const a = await fixture({ calls: 350 });
  const b = await fixture({ calls: 350 });
  assert.deepEqual(
    a.calls.map((c) => [c.id, c.createdAt]),
    b.calls.map((c) => [c.id, c.createdAt]),
  );
  for (const boundary of [100, 200, 300]) {
    const at = a.calls[boundary - 1].createdAt;
    assert.equal(a.calls[boundary].createdAt, at);
    assert.equal(a.calls[boundary + 1].createdAt, at);
  }
  assert.equal(new Set(a.calls.map((c) => c.id)).size, 350);
});

test('GET /calls: limit defaults to 100; id, assistantId and phoneNumberId filter', async () => {
  const f = await fixture({ calls: 150 });
  const all = (await get(f, '/calls')).body as { calls: Rec[] };
  assert.equal(all.calls.length, 100);
  const five = (await get(f, '/calls?limit=5')).body as { calls: Rec[] };
  assert.deepEqual(
    five.calls.map((c) => c.id),
    f.calls.slice(0, 5).map((c) => c.id),
  );
  const target = f.calls[7];
  const one = (await get(f, `/calls/details?id=${String(target.id)}`)).body as { calls: Rec[] };
  assert.deepEqual(one.calls, [target]);
  const byAssistant = (await get(f, `/calls?limit=1000&assistantId=${String(target.assistantId)}`)).body as { calls: Rec[] };
  assert.ok(byAssistant.calls.length > 10 && byAssistant.calls.every((c) => c.assistantId === target.assistantId));
  const byNumber = (await get(f, `/calls?limit=1000&phoneNumberId=${String(target.phoneNumberId)}`)).body as { calls: Rec[] };
  assert.ok(byNumber.calls.every((c) => c.phoneNumberId === target.phoneNumberId));
});

test('date filters, vapi: createdAtGt/Lt strict, createdAtGe/Le inclusive', async () => {
  const f = await fixture({ calls: 150 });
  const at = f.calls[99].createdAt as string; // shared by calls 99, 100, 101
  const ids = async (q: string) => ((await get(f, `/calls?limit=1000&${q}`)).body as { calls: Rec[] }).calls.map((c) => c.id);
  const lt = await ids(`createdAtLt=${at}`);
  assert.deepEqual(
    lt,
    f.calls.slice(102).map((c) => c.id),
  );
  const le = await ids(`createdAtLe=${at}`);
  assert.deepEqual(
    le,
    f.calls.slice(99).map((c) => c.id),
  );
  const gt = await ids(`createdAtGt=${at}`);
  assert.deepEqual(
    gt,
    f.calls.slice(0, 99).map((c) => c.id),
  );
  const ge = await ids(`createdAtGe=${at}`);
  assert.deepEqual(
    ge,
    f.calls.slice(0, 102).map((c) => c.id),
  );
  const renamed = await ids(`createdAfter=${at}`);
  assert.equal(renamed.length, 150, 'other names are not honoured');
  const bad = await get(f, '/calls?createdAtGt=yesterday');
  assert.equal(bad.status, 400);
});

test('date filters, inclusive / renamed / ignored', async () => {
  const inclusive = await fixture({ calls: 150, dateFilters: 'inclusive' });
  const at = inclusive.calls[99].createdAt as string;
  const count = async (f: HostedFixture, q: string) => ((await get(f, `/calls?limit=1000&${q}`)).body as { calls: Rec[] }).calls.length;
  assert.equal(await count(inclusive, `createdAtLt=${at}`), 51);
  assert.equal(await count(inclusive, `createdAtGt=${at}`), 102);
  const renamed = await fixture({ calls: 150, dateFilters: 'renamed' });
  assert.equal(await count(renamed, `createdAtLt=${at}`), 150);
  assert.equal(await count(renamed, `createdBefore=${at}`), 51);
  assert.equal(await count(renamed, `createdAfter=${at}`), 102);
  const ignored = await fixture({ calls: 150, dateFilters: 'ignored' });
  assert.equal(await count(ignored, `createdAtLt=${at}`), 150);
  assert.equal(await count(ignored, `createdBefore=${at}&createdAtLe=${at}`), 150);
});

test('page caps: silent answers at most N whatever the limit; refuse answers 400 naming the maximum', async () => {
  const none = await fixture({ calls: 300 });
  assert.equal(((await get(none, '/calls?limit=1000')).body as { calls: Rec[] }).calls.length, 300);
  const silent = await fixture({ calls: 300, pageCap: 'silent' });
  assert.equal(((await get(silent, '/calls?limit=1000')).body as { calls: Rec[] }).calls.length, 100);
  assert.equal(((await get(silent, '/calls/details?limit=250')).body as { calls: Rec[] }).calls.length, 100);
  assert.equal(((await get(silent, '/calls?limit=40')).body as { calls: Rec[] }).calls.length, 40);
  const refuse = await fixture({ calls: 300, pageCap: 'refuse', pageCapSize: 100 });
  const r = await get(refuse, '/calls?limit=1000');
  assert.equal(r.status, 400);
  assert.match(JSON.stringify(r.body), /limit must not be greater than 100/);
  assert.equal(((await get(refuse, '/calls?limit=100')).body as { calls: Rec[] }).calls.length, 100);
  const small = await fixture({ calls: 300, pageCap: 'silent', pageCapSize: 50 });
  assert.equal(((await get(small, '/calls?limit=100')).body as { calls: Rec[] }).calls.length, 50);
});

test('list envelopes: documented, bare, {<plural>}, {data}, {items}, {results}', async () => {
  const documented = await fixture();
  assert.ok(Array.isArray((await get(documented, '/assistants')).body), 'assistants: bare, as Vapi lists are');
  assert.ok(Array.isArray(((await get(documented, '/phone-numbers')).body as Rec).phoneNumbers));
  assert.ok(Array.isArray(((await get(documented, '/calls')).body as Rec).calls));
  const cases: [FixtureVariant['list'], (b: unknown) => unknown][] = [
    ['bare', (b) => b],
    ['named', (b) => (b as Rec).assistants],
    ['data', (b) => (b as Rec).data],
    ['items', (b) => (b as Rec).items],
    ['results', (b) => (b as Rec).results],
  ];
  for (const [list, pick] of cases) {
    const f = await fixture({ list });
    const body = (await get(f, '/assistants')).body;
    assert.deepEqual(pick(body), f.assistants, list);
    const calls = (await get(f, '/calls?limit=3')).body;
    const callList = list === 'named' ? (calls as Rec).calls : pick(calls);
    assert.equal((callList as Rec[]).length, 3, `calls ${list}`);
    const files = (await get(f, '/files')).body;
    const fileList = list === 'named' ? (files as Rec).files : pick(files);
    assert.equal((fileList as Rec[]).length, 10, `files ${list}`);
    if (list !== 'bare') assert.deepEqual((files as Rec).pagination, { total: 23, page: 1, limit: 10, totalPages: 3 });
  }
});

test('single-record envelopes: documented, bare, {<name>}, {data}, {message, data}, {message, <name>}', async () => {
  const documented = await fixture();
  const a = documented.assistants[0];
  assert.deepEqual((await get(documented, `/assistants/${String(a.id)}`)).body, a);
  const created = await post(documented, '/assistants', {
    name: 'New',
    voice: { provider: '11labs', voiceId: 'burt' },
    transcriber: { provider: 'deepgram' },
    model: { provider: 'openai', model: 'gpt-4o' },
  });
  assert.equal(created.status, 201);
  assert.equal((created.body as Rec).message, 'Assistant created successfully');
  assert.equal(((created.body as Rec).data as Rec).name, 'New');
  const file = (await get(documented, `/files/${String(documented.files[0].id)}`)).body as Rec;
  assert.deepEqual(file, { file: documented.files[0] });
  const cases: [FixtureVariant['single'], (b: Rec) => unknown][] = [
    ['bare', (b) => b],
    ['named', (b) => b.assistant],
    ['data', (b) => b.data],
    ['messageData', (b) => b.data],
    ['messageNamed', (b) => b.assistant],
  ];
  for (const [single, pick] of cases) {
    const f = await fixture({ single });
    const body = (await get(f, `/assistants/${String(f.assistants[1].id)}`)).body as Rec;
    assert.deepEqual(pick(body), f.assistants[1], single);
    if (single.startsWith('message')) assert.equal(typeof body.message, 'string');
  }
});

test('PATCH /assistants/{id} applies only name, status and description, and keeps the body as sent', async () => {
  const f = await fixture();
  const a = f.assistants[0];
  const before = structuredClone(a);
  const r = await post(
    f,
    `/assistants/${String(a.id)}`,
    { name: 'Renamed', description: 'd2', firstMessage: 'Howdy', model: { provider: 'azure', model: 'gpt-4o-cluster' } },
    'PATCH',
  );
  assert.equal(r.status, 200);
  assert.equal((r.body as Rec).message, 'Assistant updated successfully');
  const stored = (await get(f, `/assistants/${String(a.id)}`)).body as Rec;
  assert.equal(stored.name, 'Renamed');
  assert.equal(stored.description, 'd2');
  assert.equal(stored.firstMessage, before.firstMessage);
  assert.deepEqual(stored.model, before.model);
  assert.deepEqual(f.patches[0].body.firstMessage, 'Howdy');
  assert.equal((await post(f, '/assistants/missing', { name: 'x' }, 'PATCH')).status, 404);
});

test('POST /assistants: 201, required fields, and the Sarvam rule', async () => {
  const f = await fixture();
  const base = { transcriber: { provider: 'deepgram' }, model: { provider: 'openai', model: 'gpt-4.1-mini' } };
  assert.equal((await post(f, '/assistants', { name: 'x' })).status, 400);
  const sarvam = await post(f, '/assistants', { ...base, name: 'S', voice: { provider: 'sarvam', voiceId: 'anushka' } });
  assert.equal(sarvam.status, 400);
  assert.match(JSON.stringify(sarvam.body), /voiceId, model, and language are required/);
  const ok = await post(f, '/assistants', { ...base, name: 'S', voice: { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en' } });
  assert.equal(ok.status, 201);
  assert.equal(f.assistants.length, 5);
});

test('inbound setup: JSON or text/plain success, 400 / 404, and each link logged', async () => {
  const f = await fixture();
  const body = { assistantId: f.assistants[0].id, phoneNumberId: f.phoneNumbers[1].id };
  const ok = await post(f, '/phone-numbers/inbound/setup', body);
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { message: 'Inbound agent configured successfully' });
  assert.deepEqual(f.links, [body]);
  assert.equal((await post(f, '/phone-numbers/inbound/setup', { assistantId: 'a' })).status, 400);
  const missing = await post(f, '/phone-numbers/inbound/setup', { ...body, assistantId: 'nope' });
  assert.equal(missing.status, 404);
  assert.match(JSON.stringify(missing.body), /Assistant or phone number not found/);
  const plain = await fixture({ textPlainSuccess: true });
  const p = await post(plain, '/phone-numbers/inbound/setup', { assistantId: plain.assistants[0].id, phoneNumberId: plain.phoneNumbers[0].id });
  assert.equal(p.status, 200);
  assert.match(p.type, /^text\/plain/);
  assert.equal(p.text, 'Inbound agent configured successfully');
  plain.faults.push({ method: 'POST', path: '/phone-numbers/inbound/setup', status: 500, message: 'Failed to setup inbound agent', times: 1 });
  assert.equal((await post(plain, '/phone-numbers/inbound/setup', {})).status, 500);
  assert.equal((await post(plain, '/phone-numbers/inbound/setup', {})).status, 400, 'the fault answered once');
});

test('phone numbers and files carry organization, not service; files are Vapi file objects', async () => {
  const f = await fixture();
  const numbers = ((await get(f, '/phone-numbers')).body as { phoneNumbers: Rec[] }).phoneNumbers;
  assert.equal(numbers.length, 3);
  for (const n of numbers) {
    assert.deepEqual(Object.keys(n.organization as Rec).sort(), ['id', 'name']);
    assert.ok(!('service' in n));
    for (const k of ['id', 'accountId', 'did', 'domain', 'provider', 'externalId', 'status', 'createdAt', 'updatedAt']) assert.ok(k in n, k);
  }
  for (const file of f.files) {
    assert.ok(!('service' in file));
    for (const k of [
      'id',
      'externalId',
      'name',
      'integrationId',
      'url',
      'bytes',
      'object',
      'purpose',
      'mimetype',
      'bucket',
      'path',
      'status',
      'parsedTextUrl',
      'parsedTextBytes',
      'organizationId',
      'createdAt',
      'updatedAt',
      'organization',
      'integration',
    ]) {
      assert.ok(k in file, k);
    }
    assert.equal(file.object, 'file');
  }
});

test('GET /files pages by page (default 1) and limit (default 10)', async () => {
  const f = await fixture();
  const first = (await get(f, '/files')).body as { files: Rec[]; pagination: Rec };
  assert.equal(first.files.length, 10);
  assert.deepEqual(first.pagination, { total: 23, page: 1, limit: 10, totalPages: 3 });
  const third = (await get(f, '/files?page=3')).body as { files: Rec[]; pagination: Rec };
  assert.equal(third.files.length, 3);
  const wide = (await get(f, '/files?page=2&limit=20')).body as { files: Rec[]; pagination: Rec };
  assert.deepEqual(wide.pagination, { total: 23, page: 2, limit: 20, totalPages: 2 });
  assert.deepEqual(
    wide.files.map((x) => x.id),
    f.files.slice(20).map((x) => x.id),
  );
  assert.equal((await get(f, '/files?page=0')).status, 400);
});

test('POST /files takes one multipart part named file; GET and DELETE /files/{id}', async () => {
  const f = await fixture();
  const form = new FormData();
  form.append('file', new Blob(['# FAQ\nOpen 9 to 5.\n'], { type: 'text/markdown' }), 'faq.md');
  const up = await get(f, '/files', { method: 'POST', body: form });
  assert.equal(up.status, 201);
  const created = (up.body as { message: string; file: Rec }).file;
  assert.equal((up.body as Rec).message, 'File uploaded successfully');
  assert.equal(created.name, 'faq.md');
  assert.equal(created.bytes, 19);
  assert.equal(f.files.length, 24);
  const wrongPart = new FormData();
  wrongPart.append('upload', new Blob(['x']), 'x.txt');
  assert.equal((await get(f, '/files', { method: 'POST', body: wrongPart })).status, 400);
  const del = await get(f, `/files/${String(created.id)}`, { method: 'DELETE' });
  assert.deepEqual(del.body, { message: 'File deleted successfully' });
  assert.equal((await get(f, `/files/${String(created.id)}`)).status, 404);
});

test('sessions and chats: { message, session } / { message, chat }; messages without role when asked', async () => {
  const f = await fixture();
  const s = await post(f, '/sessions', { name: 'Hours', assistantId: f.assistants[0].id });
  assert.equal(s.status, 201);
  const session = (s.body as { session: Rec }).session;
  const c = await post(f, '/chats', { sessionId: session.id, input: 'When do you open?', assistantOverrides: { variableValues: { name: 'Dana' } } });
  assert.equal(c.status, 201);
  const chat = (c.body as { message: string; chat: Rec }).chat;
  assert.equal(chat.input, 'When do you open?');
  assert.equal((chat.output as Rec[])[0].role, 'assistant');
  const read = (await get(f, `/chats/session/${String(session.id)}`)).body as { message: string; session: Rec };
  assert.deepEqual(Object.keys(read.session).sort(), ['assistantId', 'id', 'messages', 'name', 'status', 'updatedAt']);
  assert.deepEqual(
    (read.session.messages as Rec[]).map((m) => m.role),
    ['user', 'assistant'],
  );
  const bare = await fixture({ messagesWithoutRole: true });
  const seeded = (await get(bare, `/chats/session/${String(bare.sessions[0].id)}`)).body as { session: Rec };
  const messages = seeded.session.messages as Rec[];
  assert.equal(messages.length, 2);
  assert.ok(messages.every((m) => !('role' in m) && typeof m.content === 'string'));
});

test('POST /calls/outbound: 201 {message, data} holding a queued call, validated', async () => {
  const f = await fixture();
  const body = { assistantId: f.assistants[0].id, phoneNumberId: f.phoneNumbers[0].id, customer: { number: '+14155550142' } };
  const r = await post(f, '/calls/outbound', body);
  assert.equal(r.status, 201);
  const data = (r.body as { message: string; data: Rec }).data;
  assert.equal(data.status, 'queued');
  assert.equal(f.calls[0].id, data.id);
  assert.equal((await post(f, '/calls/outbound', { ...body, customer: { number: '4155550142' } })).status, 400);
});

test('error bodies in each style carry the service words', async () => {
  const styles: [FixtureVariant['errors'], (r: { body: unknown; text: string; type: string }) => string][] = [
    ['nested', (r) => ((r.body as Rec).error as Rec).message as string],
    ['string', (r) => r.body as string],
    ['array', (r) => (r.body as string[])[0]],
    ['errors', (r) => ((r.body as Rec).errors as Rec[])[0].message as string],
    ['html', (r) => (r.type.startsWith('text/html') && r.text.includes('<p>Assistant not found</p>') ? 'Assistant not found' : '')],
    ['plain', (r) => (r.body as Rec).message as string],
  ];
  for (const [errors, words] of styles) {
    const f = await fixture({ errors });
    const r = await get(f, '/assistants/does-not-exist');
    assert.equal(r.status, 404, errors);
    assert.equal(words(r), 'Assistant not found', errors);
  }
  const nested = await fixture({ errors: 'nested' });
  assert.deepEqual((await get(nested, '/assistants/x')).body, { error: { message: 'Assistant not found', code: 'NOT_FOUND' } });
  const plain = await fixture();
  assert.deepEqual((await get(plain, '/assistants/x')).body, { statusCode: 404, error: 'Not Found', message: 'Assistant not found' });
});

test('faults answer matching requests with the chosen status, in the variant error style', async () => {
  const f = await fixture({ errors: 'nested' });
  f.faults.push({ path: '/phone-numbers', status: 500, message: 'Error fetching phone numbers' });
  const r = await get(f, '/phone-numbers');
  assert.equal(r.status, 500);
  assert.deepEqual(r.body, { error: { message: 'Error fetching phone numbers', code: 'INTERNAL_SERVER_ERROR' } });
  f.variant.errors = 'string';
  assert.equal((await get(f, '/phone-numbers')).body, 'Error fetching phone numbers');
});

test('3,008 calls are seeded and served quickly enough to page through', async () => {
  const f = await fixture({ calls: 3008, pageCap: 'silent' });
  assert.equal(f.calls.length, 3008);
  let before: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const q = before ? `&createdAtLe=${before}` : '';
    const page = ((await get(f, `/calls?limit=1000${q}`)).body as { calls: Rec[] }).calls;
    const fresh = page.filter((c) => !seen.has(c.id as string));
    if (fresh.length === 0) break;
    for (const c of fresh) seen.add(c.id as string);
    before = page[page.length - 1].createdAt as string;
  }
  assert.equal(seen.size, 3008);
});
