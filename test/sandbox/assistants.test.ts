import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { get, isErrorBody, post, send } from './http.js';

const full = {
  name: 'Test Agent',
  status: true,
  description: 'for tests',
  voice: { provider: 'elevenlabs', voiceId: 'v1', model: 'eleven_turbo_v2_5', language: 'en', speed: 1.2, stability: 0.4 },
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
  const sb = sandboxForFile();

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
    const r = await send(sb, 'PATCH', `/assistants/${id}`, {
      description: 'changed',
      voice: { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en' },
      silenceTimeoutSeconds: 10,
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.assistant.description, 'changed');
    assert.deepEqual(r.body.assistant.voice, { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en' });
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
    // The reference (docs.callhq.ai, create assistant): "Supports ElevenLabs or Sarvam. For Sarvam, voiceId, model, and language are required."
    ['unknown voice provider', { name: 'a', voice: { provider: 'nope' } }, /^voice\.provider must be one of elevenlabs, sarvam$/],
    [
      'Sarvam without voiceId',
      { name: 'a', voice: { provider: 'sarvam', model: 'bulbul:v2', language: 'en' } },
      /^voice\.voiceId is required for voice provider sarvam/,
    ],
    [
      'Sarvam without model',
      { name: 'a', voice: { provider: 'sarvam', voiceId: 'anushka', language: 'en' } },
      /^voice\.model is required for voice provider sarvam/,
    ],
    [
      'Sarvam without language',
      { name: 'a', voice: { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2' } },
      /^voice\.language is required for voice provider sarvam/,
    ],
    // The same page: "Supported providers and models: openai (…), azure (…), openrouter (…)".
    [
      'unknown model provider',
      { name: 'a', model: { provider: 'nope', model: 'gpt-4o' } },
      /^model\.provider must be one of openai, azure, openrouter, google$/,
    ],
    [
      'model of another family',
      { name: 'a', model: { provider: 'azure', model: 'gpt-4o' } },
      /^model\.model must be one of gpt-4\.1-mini-cluster, .* for provider azure/,
    ],
    ['a provider the reference no longer lists', { name: 'a', model: { provider: 'anthropic', model: 'claude-3-5-haiku' } }, /^model\.provider must be one of/],
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
      [{ voice: { provider: 'sarvam' } }, /^voice\.voiceId is required for voice provider sarvam/],
      [{ voice: { provider: 'vapi', voiceId: 'Elliot' } }, /^voice\.provider must be one of elevenlabs, sarvam/],
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
    const eleven = await post(sb, '/assistants', { name: 'v', voice: { provider: 'elevenlabs' } });
    assert.equal(eleven.status, 201, 'ElevenLabs needs no details');
  });

  test('null stored by an older build reads as absent, so answers stay valid against the document', async () => {
    const { SandboxStore } = await import('../../src/sandbox/db.js');
    const { openSeeded } = await import('../../src/sandbox/seed.js');
    const { db } = openSeeded(sb.dataDir, false);
    try {
      const now = new Date().toISOString();
      new SandboxStore(db).insertAssistant({
        id: 'legacy-nulls',
        body: {
          name: 'Old',
          status: null,
          description: null,
          voice: null,
          model: { provider: 'openai', temperature: null },
          hangupUsingPrompt: null,
          analysisPlan: { keep: null },
        },
        createdAt: now,
        updatedAt: now,
      });
    } finally {
      db.close();
    }
    const r = await get(sb, '/assistants/legacy-nulls');
    assert.deepEqual(r.body.assistant, {
      id: 'legacy-nulls',
      name: 'Old',
      model: { provider: 'openai' },
      analysisPlan: { keep: null },
      createdAt: r.body.assistant.createdAt,
      updatedAt: r.body.assistant.updatedAt,
    });
    assert.equal((await get(sb, '/assistants')).status, 200);
  });

  test('an assistant stored with providers the catalogue no longer lists is read, and updated, as it is', async () => {
    const { SandboxStore } = await import('../../src/sandbox/db.js');
    const { openSeeded } = await import('../../src/sandbox/seed.js');
    const { db } = openSeeded(sb.dataDir, false);
    const old = {
      name: 'Legacy',
      voice: { provider: 'vapi', voiceId: 'Elliot' },
      model: { provider: 'groq', model: 'llama-3.1-70b-versatile', temperature: 0.1 },
    };
    try {
      const now = new Date().toISOString();
      new SandboxStore(db).insertAssistant({ id: 'legacy-providers', body: old, createdAt: now, updatedAt: now });
    } finally {
      db.close();
    }
    const r = await get(sb, '/assistants/legacy-providers');
    assert.deepEqual(r.body.assistant.voice, old.voice);
    assert.deepEqual(r.body.assistant.model, old.model);
    assert.ok((await get(sb, '/assistants')).body.assistants.some((a: any) => a.id === 'legacy-providers'));
    // A new name leaves the stored providers alone; sending them back unchanged (an edit form does) is no new choice.
    const renamed = await send(sb, 'PATCH', '/assistants/legacy-providers', { name: 'Legacy 2' });
    assert.equal(renamed.status, 200, renamed.text);
    const same = await send(sb, 'PATCH', '/assistants/legacy-providers', {
      voice: { provider: 'vapi', voiceId: 'Paige' },
      model: { ...old.model, temperature: 0.4 },
    });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.body.assistant.voice, { provider: 'vapi', voiceId: 'Paige' });
    assert.equal(same.body.assistant.model.temperature, 0.4);
    // Choosing another model of that family is a new choice, checked against the catalogue.
    const other = await send(sb, 'PATCH', '/assistants/legacy-providers', { model: { provider: 'groq', model: 'mixtral-8x7b-32768' } });
    assert.equal(other.status, 400);
    assert.match(other.body.message, /^model\.provider must be one of openai, azure, openrouter, google/);
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
