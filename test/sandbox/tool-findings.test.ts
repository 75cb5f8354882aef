// What independent API tools (a property-based tester and a validating proxy) found where the
// server and its document disagreed: each rule below is one the document states and the server keeps.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { get, isErrorBody, openApiCheck, send } from './http.js';

describe("the tools' findings", () => {
  const sb = sandboxForFile({ callPace: 1 });
  let doc: any;
  let ids: { assistant: string; number: string; did: string; session: string; file: string };
  before(async () => {
    doc = (await get(sb, '/openapi.json')).body;
    const assistant = (await get(sb, '/assistants')).body.assistants[0].id;
    const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
    ids = {
      assistant,
      number: number.id,
      did: number.did,
      session: (await send(sb, 'POST', '/sessions', { assistantId: assistant })).body.session.id,
      file: (await get(sb, '/files')).body.files[0].id,
    };
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]: [string, any]) => ({ path, method, op })));
  const jsonBodySchema = (op: any) => op.requestBody?.content?.['application/json']?.schema;
  const resolve = (s: any): any => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s);
  /** The object schema a request body is, through one allOf or $ref. */
  const bodyObject = (op: any) => {
    const s = resolve(jsonBodySchema(op));
    return s?.allOf ? resolve(s.allOf[0]) : s;
  };

  describe('id, createdAt and updatedAt are server-set: ignored in every body, whatever their value', () => {
    const junk = { id: {}, createdAt: null, updatedAt: 'yesterday' };
    const isServerSet = (record: any, label: string) => {
      assert.equal(typeof record.id, 'string', `${label}: id ${JSON.stringify(record.id)}`);
      assert.ok(record.id.length > 0, label);
      for (const k of ['createdAt', 'updatedAt']) assert.ok(!Number.isNaN(Date.parse(record[k])), `${label}: ${k} ${JSON.stringify(record[k])}`);
    };

    test('every create and change route accepts them, ignores them and stores none of them', async () => {
      const created = await send(sb, 'POST', '/assistants', { name: 'server-set', ...junk });
      assert.equal(created.status, 201, created.text);
      isServerSet(created.body.assistant, 'POST /assistants');
      const aid = created.body.assistant.id;
      isServerSet((await get(sb, `/assistants/${aid}`)).body.assistant, 'GET /assistants/{id}');

      const patched = await send(sb, 'PATCH', `/assistants/${aid}`, { description: 'd', ...junk });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.assistant.id, aid);
      isServerSet(patched.body.assistant, 'PATCH /assistants/{id}');

      const session = await send(sb, 'POST', '/sessions', { assistantId: ids.assistant, ...junk });
      assert.equal(session.status, 201, session.text);
      isServerSet(session.body.session, 'POST /sessions');
      isServerSet((await get(sb, `/chats/session/${session.body.session.id}`)).body.session, 'GET /chats/session/{id}');

      const chat = await send(sb, 'POST', '/chats', { sessionId: session.body.session.id, input: 'hello', ...junk });
      assert.equal(chat.status, 201, chat.text);
      isServerSet(chat.body.chat, 'POST /chats');

      const call = await send(sb, 'POST', '/calls/outbound', {
        assistantId: ids.assistant,
        phoneNumberId: ids.number,
        customer: { number: '+14155550199' },
        ...junk,
      });
      assert.equal(call.status, 201, call.text);
      isServerSet(call.body.call, 'POST /calls/outbound');
      const listed = (await get(sb, `/calls/details?id=${call.body.call.id}`)).body.calls;
      assert.equal(listed.length, 1);
      isServerSet(listed[0], 'GET /calls/details');

      const linked = await send(sb, 'POST', '/phone-numbers/inbound/setup', { assistantId: ids.assistant, phoneNumberId: ids.number, ...junk });
      assert.equal(linked.status, 200, linked.text);
      assert.equal(linked.body.phoneNumber.id, ids.number);
      isServerSet(linked.body.phoneNumber, 'POST /phone-numbers/inbound/setup');

      const rung = await send(sb, 'POST', '/sandbox/ring', { did: ids.did, ...junk });
      assert.equal(rung.status, 201, rung.text);
      isServerSet(rung.body.call, 'POST /sandbox/ring');
    });

    test('the document marks them readOnly in every request body and every record', () => {
      for (const { path, method, op } of operations()) {
        const s = bodyObject(op);
        if (!s) continue;
        for (const k of ['id', 'createdAt', 'updatedAt']) {
          assert.equal(s.properties?.[k]?.readOnly, true, `${method} ${path} body ${k}`);
          assert.equal(s.properties[k].type, undefined, `${method} ${path} body ${k}: any value is ignored`);
        }
      }
      for (const name of ['Assistant', 'Call', 'ChatSession', 'Chat', 'File', 'PhoneNumber']) {
        for (const k of ['id', 'createdAt', 'updatedAt']) assert.equal(doc.components.schemas[name].properties[k].readOnly, true, `${name}.${k}`);
      }
    });
  });

  describe('an empty id is a 400 worded one way, and the document says so', () => {
    test('in the path', async () => {
      for (const [method, path, name] of [
        ['GET', '/assistants/', 'id'],
        ['PATCH', '/assistants/', 'id'],
        ['GET', '/chats/session/', 'sessionId'],
        ['GET', '/files/', 'fileId'],
        ['DELETE', '/files/', 'fileId'],
        ['GET', '/files//content', 'fileId'],
      ]) {
        const r = await send(sb, method, path, method === 'PATCH' ? { name: 'x' } : undefined);
        assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
        assert.ok(isErrorBody(r.body, 400));
        assert.equal(r.body.message, `${name} must not be empty`, `${method} ${path}`);
      }
    });

    test('in a body and in a filter', async () => {
      const outbound = { assistantId: ids.assistant, phoneNumberId: ids.number, customer: { number: '+14155550100' } };
      for (const [path, body, field] of [
        ['/sessions', { assistantId: '' }, 'assistantId'],
        ['/chats', { sessionId: '', input: 'x' }, 'sessionId'],
        ['/calls/outbound', { ...outbound, assistantId: '' }, 'assistantId'],
        ['/calls/outbound', { ...outbound, phoneNumberId: '' }, 'phoneNumberId'],
        ['/phone-numbers/inbound/setup', { assistantId: '', phoneNumberId: ids.number }, 'assistantId'],
        ['/phone-numbers/inbound/setup', { assistantId: ids.assistant, phoneNumberId: '' }, 'phoneNumberId'],
        ['/sandbox/ring', { did: '' }, 'did'],
        ['/assistants', { name: 'n', knowledgeBase: { fileIds: [''] } }, 'knowledgeBase.fileIds[0]'],
      ] as const) {
        const r = await send(sb, 'POST', path, body);
        assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.body.message, `${field} must not be empty`, `${path} ${JSON.stringify(body)}`);
      }
      for (const path of ['/calls', '/calls/details']) {
        for (const name of ['id', 'assistantId', 'phoneNumberId']) {
          const r = await get(sb, `${path}?${name}=`);
          assert.equal(r.status, 400, `${path}?${name}=: ${r.text}`);
          assert.equal(r.body.message, `${name} must not be empty`);
        }
      }
    });

    test('the document gives every id minLength 1', () => {
      const idName = /(^id$|Id$|^did$)/;
      for (const { path, method, op } of operations()) {
        for (const p of op.parameters ?? []) {
          if (p.in === 'path' || idName.test(p.name)) assert.equal(p.schema.minLength, 1, `${method} ${path} ${p.in} ${p.name}`);
        }
        const s = bodyObject(op);
        for (const [name, prop] of Object.entries<any>(s?.properties ?? {})) {
          if (idName.test(name) && !prop.readOnly) assert.equal(prop.minLength, 1, `${method} ${path} body ${name}`);
        }
      }
      const fileIds = doc.components.schemas.AssistantInput.properties.knowledgeBase.properties.fileIds;
      assert.equal(fileIds.items.minLength, 1);
    });
  });

  test('a method a known path does not serve is a 405 with Allow; an unknown path stays a 404', async () => {
    for (const [method, path, allowed] of [
      ['PUT', `/assistants/${ids.assistant}`, 'GET, HEAD, PATCH'],
      ['DELETE', '/assistants', 'POST, GET, HEAD'],
      ['DELETE', '/calls', 'GET, HEAD'],
      ['POST', '/calls/details', 'GET, HEAD'],
      ['GET', '/calls/outbound', 'POST'],
      ['PATCH', `/files/${ids.file}`, 'GET, HEAD, DELETE'],
      ['DELETE', `/chats/session/${ids.session}`, 'GET, HEAD'],
      ['OPTIONS', '/phone-numbers', 'GET, HEAD'],
    ]) {
      const r = await send(sb, method, path, method === 'GET' || method === 'OPTIONS' ? undefined : {});
      assert.equal(r.status, 405, `${method} ${path}: ${r.text}`);
      assert.ok(isErrorBody(r.body, 405), r.text);
      assert.equal(r.body.error, 'Method Not Allowed');
      assert.deepEqual(new Set(r.headers.get('allow')?.split(', ')), new Set(allowed.split(', ')), `${method} ${path}`);
      assert.match(r.body.message, new RegExp(`does not take ${method}`));
    }
    for (const [method, path] of [
      ['GET', '/nope'],
      ['DELETE', '/assistants/a/b'],
    ]) {
      const r = await send(sb, method, path);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.headers.get('allow'), null);
    }
  });

  describe('date filters take real dates only, exactly as the document’s pattern says', () => {
    const impossible = [
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-32',
      '2026-11-01T24:00',
      '2026-11-01T25:00:00Z',
      '2026-11-01T23:60',
      '2026-11-01T23:59:60Z',
      '2026-11-01T09:30:00+24:00',
      '2026-11-01T09:30:00-01:60',
    ];
    const real = [
      '2024-02-29',
      '2000-02-29',
      '2026-11-01',
      '2026-12-31T23:59:59.999999999-23:59',
      '2026-11-01T00:00+0130',
      '0000-01-01',
      '0099-12-31',
      '9999-12-31T23:59:59Z',
    ];

    test('an impossible date or time is a 400 naming the parameter, on /calls and /calls/details', async () => {
      for (const path of ['/calls', '/calls/details']) {
        for (const [i, v] of impossible.entries()) {
          const name = i % 2 ? 'createdAtLt' : 'createdAtGt';
          const r = await get(sb, `${path}?${name}=${encodeURIComponent(v)}`);
          assert.equal(r.status, 400, `${path} ${name}=${v}: ${r.text.slice(0, 200)}`);
          assert.match(r.body.message, new RegExp(`^${name} is not a real date or time`), v);
        }
      }
    });

    test('the pattern accepts a value exactly when the server does', async () => {
      const param = doc.paths['/calls'].get.parameters.find((p: any) => p.name === 'createdAtGt');
      const pattern = new RegExp(param.schema.pattern);
      for (const v of [...impossible, ...real, '2026-11-01T09:30', '2026-11-01t09:30:00z', '2026-11-01 09:30', '26-11-01']) {
        const r = await get(sb, `/calls?limit=1&createdAtGt=${encodeURIComponent(v)}`);
        assert.equal(r.status === 200, pattern.test(v), `${v}: the pattern says ${pattern.test(v)}, the server ${r.status}`);
      }
      for (const v of real) assert.ok(pattern.test(v), v);
    });

    test('early years are their own dates, not 1900s ones', async () => {
      const r = await get(sb, '/calls?createdAtLt=0099-12-31');
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.calls.length, 0);
    });
  });

  test('PATCH with no field to change: minProperties 1 in the document, a 400 from the server', async () => {
    const patch = resolve(jsonBodySchema(doc.paths['/assistants/{id}'].patch));
    assert.equal(patch.minProperties, 1);
    const check = await openApiCheck(sb);
    for (const body of [{}, { id: 'x', updatedAt: 'y' }]) {
      const r = await send(sb, 'PATCH', `/assistants/${ids.assistant}`, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.message, /names no assistant field to change/);
      // The document calls the request invalid: a success for it would be flagged.
      const problems = check.problems({
        method: 'PATCH',
        url: `/assistants/${ids.assistant}`,
        requestContentType: 'application/json',
        requestBody: body,
        status: 200,
        responseContentType: 'application/json',
        responseBody: { message: 'Assistant updated successfully', assistant: (await get(sb, `/assistants/${ids.assistant}`)).body.assistant },
        responseText: '',
      });
      assert.ok(
        problems.some((p) => p.includes('the document calls this request invalid')),
        `${JSON.stringify(body)}: ${problems.join('; ')}`,
      );
    }
  });

  test('a 401 carries WWW-Authenticate, and the document says so on every 401', async () => {
    for (const headers of [{}, { 'x-api-key': 'wrong' }] as Record<string, string>[]) {
      const r = await fetch(`${sb.url}/calls`, { headers });
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('www-authenticate'), 'ApiKey header="x-api-key"');
    }
    for (const { path, method, op } of operations()) {
      if (!op.responses['401']) continue;
      const h = op.responses['401'].headers?.['WWW-Authenticate'];
      assert.ok(h, `${method} ${path}`);
      assert.equal(h.schema.const, 'ApiKey header="x-api-key"');
    }
  });

  test("the spec's 500s are documented where the spec lists them", () => {
    for (const [path, method] of [
      ['/phone-numbers/inbound/setup', 'post'],
      ['/phone-numbers', 'get'],
      ['/calls/details', 'get'],
    ]) {
      const r = doc.paths[path][method].responses['500'];
      assert.ok(r, `${method} ${path}`);
      assert.equal(r.content['application/json'].schema.$ref, '#/components/schemas/Error');
    }
  });

  test('every operation has a description', () => {
    for (const { path, method, op } of operations()) assert.ok(typeof op.description === 'string' && op.description.length > 10, `${method} ${path}`);
  });
});
