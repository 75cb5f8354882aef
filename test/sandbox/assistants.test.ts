import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';
import { get, isErrorBody, post, send } from './http.js';

const full = {
  name: 'Test Agent',
  status: true,
  description: 'for tests',
  voice: { provider: '11labs', voiceId: 'v1', model: 'eleven_turbo_v2_5', language: 'en', speed: 1.2, stability: 0.4 },
  transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
  model: {
    provider: 'openai',
    model: 'gpt-4o-mini',
    temperature: 0.7,
    maxTokens: 250,
    emotionRecognitionEnabled: true,
    messages: [{ role: 'system', content: 'You are a test agent.' }],
    knowledgeBase: { fileIds: [] },
  },
  firstMessage: 'Hello!',
  firstMessageMode: 'assistant-speaks-first',
  backgroundSound: 'office',
  silenceTimeoutSeconds: 30,
  backgroundDenoisingEnabled: true,
  firstMessageInterruptionsEnabled: false,
  maxDurationSeconds: 600,
  analysisPlan: { anything: { nested: [1, 2] } },
  knowledgeBase: { fileIds: [] },
  hangupUsingPrompt: { enabled: true, prompt: 'bye' },
};

describe('assistants', () => {
  let sb: RunningSandbox;
  before(async () => (sb = await startTestSandbox()));
  after(() => sb.close());

  test('the seed has assistants across model providers, one speaking first', async () => {
    const r = await get(sb, '/assistants');
    assert.equal(r.status, 200);
    assert.ok(r.body.assistants.length >= 4);
    assert.ok(new Set(r.body.assistants.map((a: any) => a.model.provider)).size >= 4);
    assert.ok(r.body.assistants.some((a: any) => a.firstMessageMode === 'assistant-speaks-first'));
  });

  test('create keeps every field as given and adds id and timestamps', async () => {
    const r = await post(sb, '/assistants', full);
    assert.equal(r.status, 201);
    const { id, createdAt, updatedAt, ...rest } = r.body.assistant;
    assert.deepEqual(rest, full);
    assert.ok(id && createdAt && updatedAt);
    const got = await get(sb, `/assistants/${id}`);
    assert.deepEqual(got.body.assistant, r.body.assistant);
    const list = await get(sb, '/assistants');
    assert.ok(list.body.assistants.some((a: any) => a.id === id));
  });

  test('patch changes any field and replaces nested objects whole', async () => {
    const { body } = await post(sb, '/assistants', full);
    const id = body.assistant.id;
    const r = await send(sb, 'PATCH', `/assistants/${id}`, { description: 'changed', voice: { provider: 'vapi', voiceId: 'Elliot' }, silenceTimeoutSeconds: 10 });
    assert.equal(r.status, 200);
    assert.equal(r.body.assistant.description, 'changed');
    assert.deepEqual(r.body.assistant.voice, { provider: 'vapi', voiceId: 'Elliot' });
    assert.equal(r.body.assistant.silenceTimeoutSeconds, 10);
    assert.equal(r.body.assistant.name, full.name);
    assert.ok(r.body.assistant.updatedAt >= body.assistant.updatedAt);
    const got = await get(sb, `/assistants/${id}`);
    assert.deepEqual(got.body.assistant, r.body.assistant);
  });

  test('patch ignores echoed id/createdAt but rejects an empty change', async () => {
    const { body } = await post(sb, '/assistants', { name: 'Echo' });
    const r = await send(sb, 'PATCH', `/assistants/${body.assistant.id}`, { id: 'other', createdAt: 'x' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /no assistant field/);
  });

  const bad: [string, unknown, RegExp][] = [
    ['missing name', { status: true }, /^name is required/],
    ['blank name', { name: '   ' }, /^name must not be empty/],
    ['name wrong type', { name: 42 }, /^name must be a string/],
    ['status wrong type', { name: 'a', status: 'yes' }, /^status must be a boolean/],
    ['voice not an object', { name: 'a', voice: 'alloy' }, /^voice must be an object/],
    ['speed out of range', { name: 'a', voice: { speed: 99 } }, /^voice\.speed must be a number from/],
    ['temperature wrong type', { name: 'a', model: { temperature: 'hot' } }, /^model\.temperature must be a number/],
    ['maxTokens fractional', { name: 'a', model: { maxTokens: 1.5 } }, /^model\.maxTokens must be a whole number/],
    ['message content missing', { name: 'a', model: { messages: [{ role: 'system' }] } }, /^model\.messages\[0\]\.content is required/],
    ['silence timeout huge', { name: 'a', silenceTimeoutSeconds: 1e300 }, /^silenceTimeoutSeconds must be a whole number/],
    ['unknown field', { name: 'a', firstMesage: 'typo' }, /unknown field firstMesage/],
    ['unknown kb file', { name: 'a', knowledgeBase: { fileIds: ['nope'] } }, /^knowledgeBase\.fileIds\[0\] names no uploaded file/],
    ['fileIds not strings', { name: 'a', knowledgeBase: { fileIds: [1] } }, /^knowledgeBase\.fileIds\[0\] must be a string/],
    ['analysisPlan array', { name: 'a', analysisPlan: [] }, /^analysisPlan must be/],
    ['array body', [{ name: 'a' }], /body must be a JSON object/],
    // Spec, Voice object: "two voice providers are supported"; voiceId, model, language "required for the second provider".
    ['unknown voice provider', { name: 'a', voice: { provider: 'nope' } }, /^voice\.provider must be one of vapi, 11labs/],
    ['second voice provider without voiceId', { name: 'a', voice: { provider: '11labs', model: 'eleven_turbo_v2_5', language: 'en' } }, /^voice\.voiceId is required for voice provider 11labs/],
    ['second voice provider without model', { name: 'a', voice: { provider: '11labs', voiceId: 'v', language: 'en' } }, /^voice\.model is required for voice provider 11labs/],
    ['second voice provider without language', { name: 'a', voice: { provider: '11labs', voiceId: 'v', model: 'm' } }, /^voice\.language is required for voice provider 11labs/],
    // Spec, Model object: "a fixed list of five provider families, each with its own list of model identifiers".
    ['unknown model provider', { name: 'a', model: { provider: 'nope', model: 'gpt-4o' } }, /^model\.provider must be one of openai, anthropic, google, groq, deep-seek/],
    ['model of another family', { name: 'a', model: { provider: 'groq', model: 'gpt-4o' } }, /^model\.model must be one of llama-3\.3-70b-versatile, .* for provider groq/],
    ['model without provider', { name: 'a', model: { model: 'gpt-4o' } }, /^model\.provider is required with model\.model/],
    // null is not a value of any typed field: it would be stored and break every later GET against the document.
    ['null status', { name: 'a', status: null }, /^status must be a boolean, not null/],
    ['null description', { name: 'a', description: null }, /^description must be a string, not null/],
    ['null voice', { name: 'a', voice: null }, /^voice must be an object, not null/],
    ['null temperature', { name: 'a', model: { temperature: null } }, /^model\.temperature must be a number, not null/],
    ['null hangupUsingPrompt', { name: 'a', hangupUsingPrompt: null }, /^hangupUsingPrompt must be an object, not null/],
  ];
  for (const [label, body, msg] of bad) {
    test(`create rejects ${label} with a 400 naming the field`, async () => {
      const r = await post(sb, '/assistants', body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.ok(isErrorBody(r.body, 400));
      assert.match(r.body.message, msg);
    });
  }

  test('patch rejects null, unknown providers and an incomplete second voice provider', async () => {
    const { body } = await post(sb, '/assistants', full);
    const id = body.assistant.id;
    for (const [patch, msg] of [
      [{ status: null }, /^status must be a boolean, not null/],
      [{ description: null }, /^description must be a string, not null/],
      [{ voice: null }, /^voice must be an object, not null/],
      [{ model: { provider: 'openai', model: 'gpt-4o', temperature: null } }, /^model\.temperature must be a number, not null/],
      [{ hangupUsingPrompt: null }, /^hangupUsingPrompt must be an object, not null/],
      [{ voice: { provider: '11labs' } }, /^voice\.voiceId is required for voice provider 11labs/],
      [{ model: { provider: 'nope' } }, /^model\.provider must be one of/],
    ] as [unknown, RegExp][]) {
      const r = await send(sb, 'PATCH', `/assistants/${id}`, patch);
      assert.equal(r.status, 400, `${JSON.stringify(patch)} → ${r.status} ${r.text}`);
      assert.match(r.body.message, msg);
    }
    const after = await get(sb, `/assistants/${id}`);
    assert.deepEqual(after.body.assistant, body.assistant, 'nothing was stored');
  });

  test('every seed assistant is valid input, and every catalogue model is accepted', async () => {
    const { assistants } = (await get(sb, '/assistants')).body;
    for (const a of assistants) {
      const { id: _id, createdAt: _c, updatedAt: _u, knowledgeBase: _k, model, ...rest } = a;
      const { knowledgeBase: _mk, ...modelRest } = model ?? {};
      const r = await post(sb, '/assistants', { ...rest, ...(model ? { model: modelRest } : {}) });
      assert.equal(r.status, 201, `${a.name}: ${r.text}`);
    }
    const { MODEL_PROVIDERS } = await import('../../src/api/catalog.js');
    for (const [provider, models] of Object.entries(MODEL_PROVIDERS)) {
      for (const model of models) {
        const r = await post(sb, '/assistants', { name: 'each', model: { provider, model } });
        assert.equal(r.status, 201, `${provider}/${model}: ${r.text}`);
      }
    }
    const vapi = await post(sb, '/assistants', { name: 'v', voice: { provider: 'vapi' } });
    assert.equal(vapi.status, 201, 'the first voice provider needs no details');
  });

  test('null stored by an older build reads as absent, so answers stay valid against the document', async () => {
    const { SandboxStore } = await import('../../src/sandbox/db.js');
    const { openSeeded } = await import('../../src/sandbox/seed.js');
    const { db } = openSeeded(sb.dataDir, false);
    try {
      const now = new Date().toISOString();
      new SandboxStore(db).insertAssistant({ id: 'legacy-nulls', body: { name: 'Old', status: null, description: null, voice: null, model: { provider: 'openai', temperature: null }, hangupUsingPrompt: null, analysisPlan: { keep: null } }, createdAt: now, updatedAt: now });
    } finally {
      db.close();
    }
    const r = await get(sb, '/assistants/legacy-nulls');
    assert.deepEqual(r.body.assistant, { id: 'legacy-nulls', name: 'Old', model: { provider: 'openai' }, analysisPlan: { keep: null }, createdAt: r.body.assistant.createdAt, updatedAt: r.body.assistant.updatedAt });
    assert.equal((await get(sb, '/assistants')).status, 200);
  });

  test('unknown ids answer 404', async () => {
    const r = await get(sb, '/assistants/does-not-exist');
    assert.equal(r.status, 404);
    assert.ok(isErrorBody(r.body, 404));
    assert.match(r.body.message, /does-not-exist/);
    const p = await send(sb, 'PATCH', '/assistants/does-not-exist', { name: 'x' });
    assert.equal(p.status, 404);
  });
});
