// One catalogue of providers: `assistants create --help` shows what the sandbox accepts.
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
    assert.match(help, /11labs \(needs voice\.voiceId, voice\.model, voice\.language\)/);
  });

  test('the console form offers the same catalogue', () => {
    assert.equal(Object.keys(MODEL_PROVIDERS).length, 5, 'the spec: five provider families');
    assert.equal(VOICE_PROVIDERS.length, 2, 'the spec: two voice providers');
    assert.deepEqual(FORM_MODELS, MODEL_PROVIDERS);
    assert.deepEqual(FORM_VOICES, VOICE_PROVIDERS);
  });
});
