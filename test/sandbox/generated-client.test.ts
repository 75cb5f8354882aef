// A typed client generated from the served document (openapi-typescript types, checked in and
// compiled by tsc) with openapi-fetch calls every operation against the sandbox, the upload and
// variableValues included. Every exchange is also checked against the document.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { paths } from '../generated/sandbox-api.js';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../support/client-types.js';
import { sandboxForFile } from '../support/sandbox.js';
import { openApiCheck } from './http.js';

describe('a client generated from /openapi.json', () => {
  const sb = sandboxForFile();
  let doc: any;
  before(async () => {
    doc = await (await fetch(`${sb.url}/openapi.json`)).json();
  });

  test('the checked-in generated types are those of the served document (npm run openapi-types)', async () => {
    assert.equal(readFileSync(CLIENT_TYPES_FILE, 'utf8'), await generateClientTypes(doc), 'stale: run npm run openapi-types');
  });

  test('calls every operation, typed', async () => {
    const check = await openApiCheck(sb);
    const visited = new Set<string>();
    const client = createClient<paths>({
      baseUrl: sb.url,
      headers: { 'x-api-key': sb.apiKey },
      // Checks each exchange against the document, as the sandbox suites' helper does.
      fetch: async (request: Request) => {
        const sent = request.clone();
        const response = await fetch(request);
        const text = await response.clone().text();
        const type = sent.headers.get('content-type') ?? undefined;
        const raw = await sent.text();
        let body: unknown;
        let requestBody: unknown = raw === '' ? undefined : raw;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        if (type?.includes('json') && raw) requestBody = JSON.parse(raw);
        if (type?.startsWith('multipart/')) requestBody = '(binary)';
        const url = new URL(request.url);
        const problems = check.problems({
          method: request.method,
          url: url.pathname + url.search,
          requestContentType: type,
          requestBody,
          status: response.status,
          responseContentType: response.headers.get('content-type'),
          responseBody: body,
          responseText: text,
        });
        assert.deepEqual(problems, []);
        visited.add(`${request.method.toLowerCase()} ${url.pathname}`);
        return response;
      },
    });
    const ok = <T extends { data?: unknown; error?: unknown; response: Response }>(r: T): NonNullable<T['data']> => {
      assert.ok(r.response.ok, `${r.response.url} → ${r.response.status} ${JSON.stringify(r.error)}`);
      return r.data as NonNullable<T['data']>;
    };

    const { assistants } = ok(await client.GET('/assistants'));
    const { phoneNumbers } = ok(await client.GET('/phone-numbers'));
    const created = ok(
      await client.POST('/assistants', {
        body: {
          name: 'Typed',
          model: { provider: 'openrouter', model: 'gpt-oss-120b', messages: [{ role: 'system', content: 'You are {{who}}.' }] },
          voice: { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en' },
          firstMessage: 'Hi {{who}}',
          firstMessageMode: 'assistant-speaks-first',
          analysisPlan: { rubric: 'PassFail', nested: { any: [1, 'two'] } },
        },
      }),
    ).assistant;
    assert.equal(ok(await client.GET('/assistants/{id}', { params: { path: { id: created.id } } })).assistant.name, 'Typed');
    const patched = ok(await client.PATCH('/assistants/{id}', { params: { path: { id: created.id } }, body: { description: 'typed client', status: false } }));
    assert.equal(patched.assistant.description, 'typed client');

    const number = phoneNumbers[0];
    ok(await client.POST('/phone-numbers/inbound/setup', { body: { assistantId: created.id, phoneNumberId: number.id } }));
    const placed = ok(
      await client.POST('/calls/outbound', {
        body: { assistantId: assistants[0].id, phoneNumberId: number.id, customer: { number: '+14155550123', name: 'Ada' } },
      }),
    );
    const listed = ok(await client.GET('/calls', { params: { query: { limit: 5, createdAtGt: '2020-01-01' } } }));
    assert.ok(listed.calls.some((c) => c.id === placed.call.id));
    const details = ok(await client.GET('/calls/details', { params: { query: { id: placed.call.id } } }));
    assert.equal(details.calls[0].id, placed.call.id);
    ok(await client.POST('/sandbox/ring', { body: { did: number.did } }));

    const session = ok(await client.POST('/sessions', { body: { assistantId: created.id, name: 'typed' } })).session;
    const chat = ok(
      await client.POST('/chats', {
        body: { sessionId: session.id, input: 'Who are you?', assistantOverrides: { variableValues: { who: 'Ada', count: 3, flags: { vip: true } } } },
      }),
    );
    assert.deepEqual(chat.chat.assistantOverrides.variableValues, { who: 'Ada', count: 3, flags: { vip: true } });
    assert.ok(ok(await client.GET('/chats/session/{sessionId}', { params: { path: { sessionId: session.id } } })).session.messages.length >= 2);

    const uploaded = ok(
      await client.POST('/files', {
        body: { file: 'unused: bodySerializer builds the part' },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', new Blob(['# Hours\nNine to five.'], { type: 'text/markdown' }), 'hours.md');
          return form;
        },
      }),
    ).file;
    assert.equal(uploaded.name, 'hours.md');
    const page = ok(await client.GET('/files', { params: { query: { page: 1, limit: 10 } } }));
    assert.ok(page.files.some((f) => f.id === uploaded.id));
    assert.equal(ok(await client.GET('/files/{fileId}', { params: { path: { fileId: uploaded.id } } })).file.id, uploaded.id);
    const content = await client.GET('/files/{fileId}/content', { params: { path: { fileId: uploaded.id } }, parseAs: 'text' });
    assert.equal(content.data, '# Hours\nNine to five.');
    ok(await client.DELETE('/files/{fileId}', { params: { path: { fileId: uploaded.id } } }));
    const spec = ok(await client.GET('/openapi.json', { headers: { 'x-api-key': '' } }));
    assert.equal((spec as { openapi?: string }).openapi, '3.1.0');

    const gone = await client.GET('/files/{fileId}', { params: { path: { fileId: uploaded.id } } });
    assert.equal(gone.response.status, 404);
    assert.equal(gone.error?.statusCode, 404, 'errors are typed too');

    const documented = Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const templates = documented.map((op) => {
      const [m, p] = op.split(' ');
      return { op, re: new RegExp(`^${m} ${p.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
    });
    const missed = templates.filter(({ re }) => ![...visited].some((v) => re.test(v))).map(({ op }) => op);
    assert.deepEqual(missed, [], 'every documented operation was called');
  });
});
