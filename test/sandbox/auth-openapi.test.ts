import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { checkedFetch, get, isErrorBody, send, upload } from './http.js';

describe('auth', () => {
  const sb = sandboxForFile();

  const routes: [string, string][] = [
    ['GET', '/calls'],
    ['GET', '/calls/details'],
    ['POST', '/calls/outbound'],
    ['POST', '/chats'],
    ['POST', '/sessions'],
    ['GET', '/chats/session/x'],
    ['POST', '/assistants'],
    ['GET', '/assistants'],
    ['GET', '/assistants/x'],
    ['PATCH', '/assistants/x'],
    ['POST', '/phone-numbers/inbound/setup'],
    ['GET', '/phone-numbers'],
    ['POST', '/files'],
    ['GET', '/files'],
    ['GET', '/files/x'],
    ['DELETE', '/files/x'],
    ['GET', '/files/x/content'],
    ['POST', '/sandbox/ring'],
  ];

  test('every route but the OpenAPI document needs the key', async () => {
    const sameLength = sb.apiKey.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    for (const [method, path] of routes) {
      for (const key of [undefined, '', 'wrong', sameLength, sb.apiKey.toUpperCase(), `${sb.apiKey}x`]) {
        const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key };
        const res = await checkedFetch(sb.url, path, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        assert.equal(res.status, 401, `${method} ${path} key=${JSON.stringify(key)}`);
        const body = await res.json();
        assert.ok(isErrorBody(body, 401));
        assert.equal(body.error, 'Unauthorized');
        assert.ok(!JSON.stringify(body).includes(sb.apiKey));
      }
    }
    const doc = await checkedFetch(sb.url, '/openapi.json');
    assert.equal(doc.status, 200);
  });
});

// For each documented operation: a request that succeeds, checked against the documented
// top-level keys of its answer (and of the record inside the envelope).
describe('the OpenAPI document matches the routes', () => {
  const sb = sandboxForFile();
  let doc: any;
  before(async () => {
    doc = (await get(sb, '/openapi.json')).body;
  });

  const resolve = (schema: any): any => {
    if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.split('/').pop()]);
    if (schema?.allOf) return { ...resolve(schema.allOf[0]), required: schema.allOf.flatMap((s: any) => resolve(s).required ?? []) };
    return schema;
  };

  function checkShape(value: any, schema: any, where: string) {
    const s = resolve(schema);
    if (s?.type === 'array') {
      assert.ok(Array.isArray(value), `${where} is not an array`);
      if (value.length) checkShape(value[0], s.items, `${where}[0]`);
      return;
    }
    if (s?.type !== 'object') return;
    assert.equal(typeof value, 'object', where);
    for (const k of s.required ?? []) assert.ok(k in value, `${where} lacks documented key ${k}`);
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (k in value && value[k] !== null) checkShape(value[k], sub, `${where}.${k}`);
    }
  }

  test('OpenAPI 3.1 with every route and the error shape', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.components.schemas.Error.properties).sort(), ['error', 'message', 'statusCode']);
    assert.ok(Object.keys(doc.paths).length >= 14);
    assert.deepEqual(doc.components.schemas.File.properties.status.enum, ['processing', 'done', 'failed']);
    assert.deepEqual(doc.components.schemas.Call.properties.status.enum, ['queued', 'ringing', 'in-progress', 'ended']);
  });

  test('the document enumerates the provider catalogue the sandbox validates against', async () => {
    const { MODEL_PROVIDERS, VOICE_PROVIDERS } = await import('../../src/api/catalog.js');
    const model = doc.components.schemas.AssistantInput.properties.model;
    assert.deepEqual(model.properties.provider.enum, Object.keys(MODEL_PROVIDERS));
    for (const [family, models] of Object.entries(MODEL_PROVIDERS)) {
      const branch = model.allOf.find((b: any) => b.if.properties.provider.const === family);
      assert.deepEqual(branch.then.properties.model.enum, models, family);
    }
    const voice = doc.components.schemas.AssistantInput.properties.voice;
    assert.deepEqual(
      voice.properties.provider.enum,
      VOICE_PROVIDERS.map((v) => v.value),
    );
    assert.deepEqual(voice.allOf[0].then.required, ['voiceId', 'model', 'language']);
  });

  test('each documented operation answers with its documented keys', async () => {
    const assistant = (await get(sb, '/assistants')).body.assistants[0];
    const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0];
    const session = (await send(sb, 'POST', '/sessions', { assistantId: assistant.id })).body.session;
    const call = (await get(sb, '/calls?limit=1')).body.calls[0];
    const spare = (await upload(sb, 'spare.txt', 'to delete')).body.file;
    const calls: Record<string, () => Promise<any>> = {
      'get /calls': () => get(sb, '/calls?limit=3'),
      'get /calls/details': () => get(sb, `/calls/details?id=${call.id}`),
      'post /calls/outbound': () =>
        send(sb, 'POST', '/calls/outbound', { assistantId: assistant.id, phoneNumberId: number.id, customer: { number: '+14155550100' } }),
      'post /chats': () => send(sb, 'POST', '/chats', { sessionId: session.id, input: 'What is the return window?' }),
      'post /sessions': () => send(sb, 'POST', '/sessions', { assistantId: assistant.id }),
      'get /chats/session/{sessionId}': () => get(sb, `/chats/session/${session.id}`),
      'post /assistants': () => send(sb, 'POST', '/assistants', { name: 'Shape' }),
      'get /assistants': () => get(sb, '/assistants'),
      'get /assistants/{id}': () => get(sb, `/assistants/${assistant.id}`),
      'patch /assistants/{id}': () => send(sb, 'PATCH', `/assistants/${assistant.id}`, { description: 'patched' }),
      'post /phone-numbers/inbound/setup': () => send(sb, 'POST', '/phone-numbers/inbound/setup', { assistantId: assistant.id, phoneNumberId: number.id }),
      'get /phone-numbers': () => get(sb, '/phone-numbers'),
      'post /files': () => upload(sb, 'shape.md', '# hi'),
      'get /files': () => get(sb, '/files'),
      'get /files/{fileId}': () => get(sb, `/files/${spare.id}`),
      'delete /files/{fileId}': () => send(sb, 'DELETE', `/files/${spare.id}`),
      'get /files/{fileId}/content': () => get(sb, `/files/${(assistant.knowledgeBase.fileIds as string[])[0]}/content`),
      'post /sandbox/ring': () => send(sb, 'POST', '/sandbox/ring', { did: number.did }),
      'get /openapi.json': () => get(sb, '/openapi.json'),
    };
    const documented = Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m} ${p}`));
    assert.deepEqual([...documented].sort(), Object.keys(calls).sort(), 'every documented operation is exercised here');
    for (const op of documented) {
      const [method, path] = op.split(' ');
      const r = await calls[op]();
      const responses = doc.paths[path][method].responses;
      const [status, spec] = Object.entries(responses).find(([c]) => c.startsWith('2')) as [string, any];
      assert.equal(String(r.status), status, `${op} answered ${r.status}: ${r.text.slice(0, 200)}`);
      const schema = spec.content?.['application/json']?.schema;
      if (schema) checkShape(r.body, schema, op);
      for (const code of Object.keys(responses).filter((c) => !c.startsWith('2'))) {
        assert.equal(resolve(responses[code].content['application/json'].schema), doc.components.schemas.Error, `${op} ${code}`);
      }
    }
  });
});
