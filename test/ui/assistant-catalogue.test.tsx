// The catalogue suggests, never forbids: the assistant form offers the reference's providers and
// models and takes any typed one ("type another…"), sends it as typed, and shows the service's 400
// in the field it names.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, tick } from '../support/ink.js';
import { openConsole, renderForm } from './support.js';
import { startFaultyServer, type FaultyServer } from '../support/faulty-server.js';
import { ApiError } from '../../src/api/errors.js';
import { TYPE_ANOTHER, choicesOf, normalize, type Field } from '../../src/ui/components/Form.js';
import { CREATE_FIELDS, fieldErrorsOf, voiceProblems } from '../../src/ui/screens/assistants/AssistantForms.js';
import { sandboxForFile } from '../support/sandbox.js';

const ESC_WAIT = () => new Promise((r) => setTimeout(r, 60));

const PROVIDER_AND_MODEL: Field[] = [
  { kind: 'select', free: true, key: 'provider', label: 'Provider', options: () => [{ value: 'openai' }, { value: 'azure' }] },
  {
    kind: 'select',
    free: true,
    key: 'model',
    label: 'Model',
    options: (v) => (v.provider === 'azure' ? [{ value: 'gpt-4o-cluster' }] : [{ value: 'gpt-4o' }, { value: 'gpt-4.1' }]),
  },
];

test('a free choice keeps a typed value; a listed one that the new provider does not list is reset', () => {
  assert.deepEqual(normalize(PROVIDER_AND_MODEL, { provider: 'groq', model: 'llama-3' }), { provider: 'groq', model: 'llama-3' }, 'values not listed are kept');
  assert.deepEqual(normalize(PROVIDER_AND_MODEL, { provider: '', model: '' }), { provider: 'openai', model: 'gpt-4o' }, 'empty takes the first option');
  const before = { provider: 'openai', model: 'gpt-4.1' };
  assert.deepEqual(
    normalize(PROVIDER_AND_MODEL, { ...before, provider: 'azure' }, before),
    { provider: 'azure', model: 'gpt-4o-cluster' },
    "openai's model does not stay under azure",
  );
  // While the provider is being typed (even empty), its models are those of what is typed.
  assert.deepEqual(normalize(PROVIDER_AND_MODEL, { provider: '', model: 'gpt-4o' }, { provider: 'azure', model: 'gpt-4o-cluster' }, 'provider'), {
    provider: '',
    model: 'gpt-4o',
  });
  const typed = { provider: 'openai', model: 'my-finetune' };
  assert.deepEqual(normalize(PROVIDER_AND_MODEL, { ...typed, provider: 'azure' }, typed), { provider: 'azure', model: 'my-finetune' }, 'a typed model stays');
  // A strict choice is as before: only its options.
  const strict: Field[] = [{ kind: 'select', key: 'k', label: 'K', options: () => [{ value: 'a' }] }];
  assert.deepEqual(normalize(strict, { k: 'zzz' }), { k: 'a' });
  const shown = choicesOf(PROVIDER_AND_MODEL[0] as Field & { kind: 'select' }, { provider: 'groq' });
  assert.deepEqual(
    shown.map((o) => o.label ?? o.value),
    ['openai', 'azure', 'groq (typed)', 'type another…'],
  );
  assert.equal(shown.at(-1)!.value, TYPE_ANOTHER);
});

test('the create form offers providers and models as free choices', () => {
  for (const key of ['modelProvider', 'model', 'voiceProvider', 'voiceModel', 'transcriberProvider', 'transcriberModel']) {
    const f = CREATE_FIELDS.find((x) => x.key === key);
    assert.ok(f && f.kind === 'select' && f.free, key);
  }
});

test("a service's 400 goes to the field it names, in its words", () => {
  const err = (message: string | string[]) => new ApiError(400, message, 'POST', '/assistants', 'http://x');
  assert.deepEqual(fieldErrorsOf(err('model.provider must be one of openai, azure')), { modelProvider: 'model.provider must be one of openai, azure' });
  assert.deepEqual(fieldErrorsOf(err('model.model must be one of gpt-4o for provider openai')), {
    model: 'model.model must be one of gpt-4o for provider openai',
  });
  assert.deepEqual(fieldErrorsOf(err(['voice.voiceId should not be empty', 'name must be a string'])), {
    voiceId: 'voice.voiceId should not be empty',
    name: 'name must be a string',
  });
  assert.equal(fieldErrorsOf(err('something else went wrong')), null);
  assert.equal(fieldErrorsOf(new ApiError(500, 'model.provider broke', 'POST', '/assistants', 'http://x')), null, 'only a 400 names a bad field');
  assert.equal(fieldErrorsOf(new Error('model.provider')), null);
});

test("Sarvam's details are asked for in their fields, other providers need none", () => {
  assert.deepEqual(Object.keys(voiceProblems({ voiceProvider: 'sarvam', voiceId: '', voiceModel: 'bulbul:v2', voiceLanguage: '' })!), [
    'voiceId',
    'voiceLanguage',
  ]);
  assert.equal(voiceProblems({ voiceProvider: 'elevenlabs', voiceId: '' }), null);
  assert.equal(voiceProblems({ voiceProvider: 'some-new-provider' }), null, 'an unknown provider is for the service to judge');
});

test('a bare form: "type another…" turns the choice into a text input; Esc gives back the list', async () => {
  const f = await renderForm(PROVIDER_AND_MODEL);
  try {
    await f.waitFor(/› Provider +‹ openai ›/);
    await f.press(KEYS.left); // wraps to the last option
    await f.waitFor(/› Provider/);
    await f.type('groq');
    await f.waitFor(/› Provider +groq/);
    await f.press(KEYS.escape);
    await ESC_WAIT();
    await f.waitFor(/› Provider +‹ openai ›/);
    await f.press(KEYS.left);
    await tick();
    await f.type('groq');
    await f.press(KEYS.tab);
    await f.waitFor(/Provider +groq \(typed\)/);
    await f.press(KEYS.ctrlS);
    await tick();
    assert.deepEqual(f.submitted(), { provider: 'groq', model: 'gpt-4o' });
  } finally {
    f.unmount();
  }
});

describe('the console sends what was typed, and shows the answer in the field', () => {
  const sb = sandboxForFile();
  let proxy: FaultyServer;
  before(async () => {
    proxy = await startFaultyServer({ mode: 'healthy', upstream: sb.url });
  });
  after(async () => {
    await proxy.close();
  });

  test('a typed provider is sent as typed; the sandbox refuses it and the field says why; a listed one then saves', async () => {
    const c = await openConsole({ ...sb, url: proxy.url });
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.type('Typed Bot');
      await c.press(KEYS.tab, KEYS.tab, KEYS.tab);
      await c.waitFor(/› Model provider +‹ openai ›/);
      await c.press(KEYS.enter);
      await c.waitFor('type another…');
      await c.press(KEYS.up); // the list wraps to its last entry
      await c.press(KEYS.enter);
      await c.type('anthropic');
      await c.waitFor(/› Model provider +anthropic/);
      const before = proxy.requests.length;
      await c.press(KEYS.ctrlS);
      const frame = await c.waitFor(/^ +model\.provider must be one of openai, azure, openrouter, google/m);
      assert.match(
        frame,
        /› Model provider +‹ anthropic \(typed\) ›.*\n +model\.provider must be one of/,
        'the error is under the field it names, which has the focus',
      );
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new', 'the form stays, with what was typed');
      const post = proxy.requests.slice(before).find((r) => r.method === 'POST' && r.url.startsWith('/assistants'));
      assert.ok(post, 'the client sent it: the catalogue does not refuse');
      assert.equal(JSON.parse(post!.body).model.provider, 'anthropic');
      assert.equal(JSON.parse(post!.body).model.model, undefined, "openai's model was not kept for a provider that does not list it");
      // Back to a listed provider: the error goes, and the assistant is created.
      await c.press(KEYS.enter);
      await c.waitFor('anthropic (typed)');
      await c.press(KEYS.down, KEYS.down, KEYS.enter); // from the typed value: type another…, then round to openai
      await c.waitFor(/› Model provider +‹ openai ›/);
      assert.doesNotMatch(c.frame(), /^ +model\.provider must be one of/m, 'the error under the field went with the change');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Created assistant Typed Bot');
    } finally {
      await c.close();
    }
  });
});
