// Every route against a table of bad inputs: each answer is JSON in the one error shape with
// a 4xx status — never a 5xx, never a stack trace.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { get, send } from './http.js';

const ODD = ['', ' ', '\u0000', '../../etc/passwd', '%00', '\uD800', '👩‍👩‍👧‍👦', 'ｆｕｌｌ', '\u202E', 'x'.repeat(10_000), '<script>', "' OR 1=1 --", '{{x}}'];
const WRONG_TYPES = [null, true, 0, -1, 1e308, [], {}, 'str', [1, 2], { nested: { deep: [null] } }];

describe('bad input never makes the sandbox fail', () => {
  const sb = sandboxForFile();
  let ids: { assistant: string; number: string; session: string; file: string };
  before(async () => {
    const assistant = (await get(sb, '/assistants')).body.assistants[0].id;
    const number = (await get(sb, '/phone-numbers')).body.phoneNumbers[0].id;
    const session = (await send(sb, 'POST', '/sessions', { assistantId: assistant })).body.session.id;
    const file = (await get(sb, '/files')).body.files[0].id;
    ids = { assistant, number, session, file };
  });

  async function expect4xx(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const r = await send(sb, method, path, body, headers);
    const where = `${method} ${path} ${typeof body === 'string' ? body.slice(0, 60) : JSON.stringify(body)?.slice(0, 60)}`;
    assert.ok(r.status >= 400 && r.status < 500, `${where} → ${r.status} ${r.text.slice(0, 200)}`);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/, where);
    assert.equal(r.body?.statusCode, r.status, where);
    assert.equal(typeof r.body.error, 'string', where);
    assert.equal(typeof r.body.message, 'string', where);
    assert.doesNotMatch(r.text, /at .+\.(ts|js):\d+/, `${where} leaks a stack`);
    return r;
  }

  const jsonRoutes = () => [
    ['POST', '/assistants'],
    ['PATCH', `/assistants/${ids.assistant}`],
    ['POST', '/calls/outbound'],
    ['POST', '/sessions'],
    ['POST', '/chats'],
    ['POST', '/phone-numbers/inbound/setup'],
    ['POST', '/sandbox/ring'],
  ];

  test('malformed JSON, wrong content types, empty and non-object bodies', async () => {
    for (const [method, path] of jsonRoutes()) {
      for (const raw of ['{', '{"a":}', 'null', '[]', '"text"', '42', '{"a":1}{', '\u0000', '']) {
        await expect4xx(method, path, raw, { 'content-type': 'application/json' });
      }
      await expect4xx(method, path, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
      await expect4xx(method, path, 'hello', { 'content-type': 'text/plain' });
      await expect4xx(method, path, '{}', { 'content-type': 'application/xml' });
    }
  });

  test('a JSON body over 1 MB is 413', async () => {
    const r = await expect4xx('POST', '/assistants', { name: 'x'.repeat(1_100_000) });
    assert.equal(r.status, 413);
  });

  test('wrong types in every field', async () => {
    const bodies: [string, string, Record<string, unknown>, string[]][] = [
      [
        'POST',
        '/assistants',
        { name: 'ok' },
        [
          'name',
          'status',
          'voice',
          'model',
          'firstMessage',
          'silenceTimeoutSeconds',
          'maxDurationSeconds',
          'knowledgeBase',
          'analysisPlan',
          'hangupUsingPrompt',
          'transcriber',
        ],
      ],
      ['PATCH', `/assistants/${ids.assistant}`, {}, ['name', 'status', 'description', 'voice', 'model', 'backgroundDenoisingEnabled', 'knowledgeBase']],
      [
        'POST',
        '/calls/outbound',
        { assistantId: ids.assistant, phoneNumberId: ids.number, customer: { number: '+14155550100' } },
        ['assistantId', 'phoneNumberId', 'customer'],
      ],
      ['POST', '/sessions', { assistantId: ids.assistant }, ['assistantId', 'name']],
      ['POST', '/chats', { sessionId: ids.session, input: 'hi' }, ['sessionId', 'input', 'assistantOverrides']],
      ['POST', '/phone-numbers/inbound/setup', { assistantId: ids.assistant, phoneNumberId: ids.number }, ['assistantId', 'phoneNumberId']],
    ];
    for (const [method, path, valid, fields] of bodies) {
      for (const field of fields) {
        for (const v of WRONG_TYPES) {
          const r = await send(sb, method, path, { ...valid, [field]: v });
          // Some wrong-looking values are valid for some fields ({} is a voice); null is valid for none.
          assert.ok(r.status < 500, `${method} ${path} ${field}=${JSON.stringify(v)} → ${r.status}`);
          if (v === null) assert.equal(r.status, 400, `${method} ${path} ${field}=null → ${r.status}`);
          if (r.status >= 400) assert.equal(r.body.statusCode, r.status);
        }
      }
    }
  });

  test('odd strings in ids, bodies and query strings', async () => {
    for (const s of ODD) {
      // A lone surrogate goes as invalid UTF-8.
      const enc = /[\uD800-\uDFFF]/.test(s) && !/\p{Extended_Pictographic}/u.test(s) ? '%ED%A0%80%FF' : encodeURIComponent(s);
      for (const path of [`/assistants/${enc}`, `/files/${enc}`, `/files/${enc}/content`, `/chats/session/${enc}`, `/calls/details?id=${enc}`]) {
        const r = await send(sb, 'GET', path);
        assert.ok([400, 404, 414].includes(r.status) || (r.status === 200 && path.startsWith('/calls')), `${path.slice(0, 80)} → ${r.status}`);
        assert.equal(r.body?.statusCode ?? 200, r.status);
      }
      for (const q of ['limit', 'createdAtGt', 'createdAtLt']) await expect4xx('GET', `/calls?${q}=${enc}`);
      for (const q of ['page', 'limit']) await expect4xx('GET', `/files?${q}=${enc}`);
      await expect4xx('POST', '/calls/outbound', { assistantId: ids.assistant, phoneNumberId: ids.number, customer: { number: s } });
      await expect4xx('POST', '/sandbox/ring', { did: s || '+1' });
      // Odd text is fine where text is free-form: a chat input is answered, never a 5xx.
      const chat = await send(sb, 'POST', '/chats', { sessionId: ids.session, input: s || 'x', assistantOverrides: { variableValues: { [s]: s } } });
      assert.ok(chat.status === 201 || chat.status === 400, `chat ${JSON.stringify(s.slice(0, 20))} → ${chat.status}`);
      const a = await send(sb, 'POST', '/assistants', { name: s.trim() ? s.slice(0, 200) : 'n', description: s.slice(0, 2000), firstMessage: s });
      assert.ok(a.status === 201 || a.status === 400, `assistant ${JSON.stringify(s.slice(0, 20))} → ${a.status}`);
    }
  });

  test('huge and extreme values', async () => {
    for (const v of [1e308, -1e308, 2 ** 53 + 1, -0, 1.5, 1e23]) {
      await expect4xx('POST', '/assistants', { name: 'n', maxDurationSeconds: v });
    }
    await expect4xx('GET', '/calls?limit=99999999999999999999');
    await expect4xx('GET', '/files?page=99999999999999999999');
    await expect4xx('GET', '/calls?createdAtGt=99999-01-01');
    await expect4xx('POST', '/assistants', { name: 'n', model: { messages: Array.from({ length: 500 }, () => ({ role: 'system', content: 'x' })) } });
    for (const depth of [5_000, 100_000]) {
      const deep = `{"name":"deep","analysisPlan":${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
      const r = await send(sb, 'POST', '/assistants', deep);
      assert.equal(r.status, 400, `nesting ${depth} deep → ${r.status} ${r.text.slice(0, 200)}`);
      assert.match(r.body.message, /nested more than/);
    }
  });

  test('unknown routes are JSON 404s; unknown methods on known paths JSON 405s', async () => {
    for (const [m, p] of [
      ['GET', '/nope'],
      ['GET', '/files/a/b/c'],
    ]) {
      const r = await expect4xx(m, p);
      assert.equal(r.status, 404);
    }
    for (const [m, p] of [
      ['DELETE', '/assistants'],
      ['PUT', `/assistants/${ids.assistant}`],
      ['POST', '/calls'],
    ]) {
      const r = await expect4xx(m, p);
      assert.equal(r.status, 405);
    }
  });

  test('multipart oddities on /files', async () => {
    const multi = (body: string, boundary = 'b0') => send(sb, 'POST', '/files', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    for (const body of [
      '',
      '--b0--\r\n',
      'garbage',
      '--b0\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--b0--\r\n',
      '--b0\r\n\r\n\r\n--b0--',
    ]) {
      const r = await multi(body);
      assert.ok(r.status >= 400 && r.status < 500, `${JSON.stringify(body)} → ${r.status} ${r.text}`);
      assert.equal(r.body.statusCode, r.status);
    }
    const noBoundary = await send(sb, 'POST', '/files', 'abc', { 'content-type': 'multipart/form-data' });
    assert.ok(noBoundary.status >= 400 && noBoundary.status < 500, `${noBoundary.status}`);
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob(['a']), 'a.txt');
    twoFiles.append('file', new Blob(['b']), 'b.txt');
    const two = await send(sb, 'POST', '/files', twoFiles);
    assert.ok(two.status >= 400 && two.status < 500, `${two.status}`);
  });
});
