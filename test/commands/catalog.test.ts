// One catalogue of providers, from the hosted service's public reference: `assistants create --help`
// shows it, says where it comes from and that other values pass; the console form offers it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assistantsCommand } from '../../src/commands/assistants.js';
import { MODEL_PROVIDERS, VOICE_PROVIDERS } from '../../src/api/catalog.js';
import { MODEL_PROVIDERS as FORM_MODELS, VOICE_PROVIDERS as FORM_VOICES } from '../../src/ui/screens/assistants/options.js';

describe('the provider catalogue', () => {
  test('assistants create --help lists every model family with its models, and both voice providers', () => {
    const create = assistantsCommand().commands.find((c) => c.name() === 'create')!;
    let help = '';
    create.configureOutput({ writeOut: (s) => (help += s) });
    create.outputHelp();
    for (const [family, models] of Object.entries(MODEL_PROVIDERS)) assert.ok(help.includes(`${family}: ${models.join(', ')}`), family);
    for (const v of VOICE_PROVIDERS) assert.ok(help.includes(v.value), v.value);
    assert.match(help, /sarvam \(needs voice\.voiceId, voice\.model, voice\.language\)/);
    assert.ok(help.includes('https://docs.callhq.ai/api-reference/assistants/create-a-new-assistant'), 'says where the list comes from');
    assert.match(help, /any other value in the file is passed through/);
  });

  test('the console form offers the same catalogue', () => {
    // The reference's list as stored names four of the spec's five families (it is cut after openrouter).
    assert.deepEqual(Object.keys(MODEL_PROVIDERS), ['openai', 'azure', 'openrouter', 'google']);
    assert.deepEqual(MODEL_PROVIDERS.openai, ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo']);
    assert.ok(MODEL_PROVIDERS.azure.every((m) => m.endsWith('-cluster')));
    assert.deepEqual(
      VOICE_PROVIDERS.map((v) => v.value),
      ['elevenlabs', 'sarvam'],
      'the reference: ElevenLabs or Sarvam',
    );
    assert.deepEqual(FORM_MODELS, MODEL_PROVIDERS);
    assert.deepEqual(FORM_VOICES, VOICE_PROVIDERS);
  });
});
