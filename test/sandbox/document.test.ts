// The OpenAPI document says exactly what the server does: the behaviours it promises,
// and the parts generated clients rely on. Every exchange through ./http.ts is also checked
// against the document by test/support/openapi-check.ts.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { checkedFetch, get, send, upload } from './http.js';

describe('the document and the server agree', () => {
  const sb = sandboxForFile();
  let doc: any;
  let ids: { assistant: string; session: string; file: string; call: string };
  before(async () => {
    doc = (await get(sb, '/openapi.json')).body;
    const assistant = (await get(sb, '/assistants')).body.assistants[0].id;
    ids = {
      assistant,
      session: (await send(sb, 'POST', '/sessions', { assistantId: assistant })).body.session.id,
      file: (await get(sb, '/files')).body.files[0].id,
      call: (await get(sb, '/calls?limit=1')).body.calls[0].id,
    };
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]: [string, any]) => ({ path, method, op })));

  test('every operation has an operationId, a summary and a tag the document declares', () => {
    const declared = new Set(doc.tags.map((t: any) => t.name));
    const seen = new Set<string>();
    for (const { path, method, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method} ${path}`);
      assert.ok(!seen.has(op.operationId), `${op.operationId} is unique`);
      seen.add(op.operationId);
      assert.ok(op.summary, `${method} ${path} summary`);
      assert.equal(op.tags?.length, 1, `${method} ${path} tag`);
      assert.ok(declared.has(op.tags[0]), `${op.tags[0]} is declared`);
    }
  });

  test('free-form objects declare additionalProperties: true; the upload is a binary part', () => {
    const s = doc.components.schemas;
    assert.equal(s.AssistantInput.properties.analysisPlan.additionalProperties, true);
    assert.equal(s.File.properties.integration.additionalProperties, true);
    assert.equal(s.Chat.properties.assistantOverrides.properties.variableValues.additionalProperties, true);
    assert.equal(
      doc.paths['/chats'].post.requestBody.content['application/json'].schema.properties.assistantOverrides.properties.variableValues.additionalProperties,
      true,
    );
    const multipart = doc.paths['/files'].post.requestBody.content['multipart/form-data'];
    assert.deepEqual(multipart.schema.required, ['file']);
    assert.equal(multipart.schema.properties.file.format, 'binary');
  });

  test('statuses every operation can answer are documented with the error body', () => {
    for (const { path, method, op } of operations()) {
      const codes = Object.keys(op.responses);
      const where = `${method} ${path}`;
      assert.ok(codes.includes('400'), `${where} 400`);
      if (path !== '/openapi.json') assert.ok(codes.includes('401'), `${where} 401`);
      if (path.includes('{')) for (const c of ['404', '414']) assert.ok(codes.includes(c), `${where} ${c}`);
      if (method !== 'get') for (const c of ['413', '415']) assert.ok(codes.includes(c), `${where} ${c}`);
      for (const c of codes.filter((c) => !c.startsWith('2')))
        assert.equal(op.responses[c].content['application/json'].schema.$ref, '#/components/schemas/Error', `${where} ${c}`);
    }
  });

  test('one policy for unknown query parameters: 400 naming them, on every route', async () => {
    for (const path of [
      '/calls',
      '/calls/details',
      '/files',
      '/assistants',
      `/assistants/${ids.assistant}`,
      '/phone-numbers',
      `/files/${ids.file}`,
      `/files/${ids.file}/content`,
      `/chats/session/${ids.session}`,
      '/openapi.json',
    ]) {
      const r = await get(sb, `${path}?nope=1`);
      assert.equal(r.status, 400, `${path}: ${r.status}`);
      assert.match(r.body.message, /unknown query parameter nope/, path);
    }
    const del = await send(sb, 'DELETE', `/files/${ids.file}?force=1`);
    assert.equal(del.status, 400);
  });

  test('date filters take what the document says: a date, a date-time with or without zone', async () => {
    for (const v of [
      '2026-11-01',
      '2026-11-01T09:30',
      '2026-11-01T09:30:00',
      '2026-11-01T09:30:00Z',
      '2026-11-01T09:30:00.123+01:00',
      '2026-11-01t09:30:00z',
    ]) {
      const r = await get(sb, `/calls?createdAtGt=${encodeURIComponent(v)}`);
      assert.equal(r.status, 200, `${v}: ${r.text}`);
    }
    for (const v of [' 2026-11-01', '2026-11-01 09:30', '01/11/2026', '2026-11-01T']) {
      const r = await get(sb, `/calls?createdAtLt=${encodeURIComponent(v)}`);
      assert.equal(r.status, 400, `${v}: ${r.status}`);
    }
  });

  test('/calls and /calls/details filter by id alike: an unknown id is an empty list', async () => {
    for (const path of ['/calls', '/calls/details']) {
      const none = await get(sb, `${path}?id=no-such-call`);
      assert.equal(none.status, 200, path);
      assert.deepEqual(none.body.calls, []);
      const one = await get(sb, `${path}?id=${ids.call}`);
      assert.deepEqual(
        one.body.calls.map((c: any) => c.id),
        [ids.call],
      );
    }
  });

  test('DELETE with Content-Type: application/json (or any other) and no body succeeds', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain']) {
      const spare = (await upload(sb, 'spare.txt', 'bye')).body.file;
      const r = await send(sb, 'DELETE', `/files/${spare.id}`, undefined, { 'content-type': type });
      assert.equal(r.status, 200, `${type}: ${r.text}`);
    }
  });

  test('HEAD /openapi.json needs no key, like GET', async () => {
    const r = await checkedFetch(sb.url, '/openapi.json', { method: 'HEAD' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    const keyed = await checkedFetch(sb.url, '/assistants', { method: 'HEAD' });
    assert.equal(keyed.status, 401);
  });
});
