// The providers the hosted service's public reference lists, in one place. The catalogue only
// suggests: the console's create form offers these values and takes any other typed value, and
// `switchboard assistants create` passes any value through, because the service may accept more
// than its reference shows (the client never refuses a provider or model). The sandbox, which
// models the service, validates new writes against it and answers a 400 naming the field.

/** Where the lists below come from (the service's public API reference). */
export const CATALOG_SOURCE = 'https://docs.callhq.ai/api-reference/assistants/create-a-new-assistant';

/**
 * Language-model provider families and the model ids each accepts.
 * Source: docs.callhq.ai /api-reference/assistants/create-a-new-assistant, the `model` field
 * ("Supported providers and models: openai (…), azure (…), openrouter (…), …"). The stored copy of
 * that page cuts its list after openrouter's fourth id, so openrouter may accept more and the two
 * families after it are not known from it; `google` (gemini-1.5-pro) is from an earlier version of
 * the same page's example (and /api-reference/assistants/update-assistant).
 */
export const MODEL_PROVIDERS = {
  openai: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo'],
  azure: ['gpt-4.1-mini-cluster', 'gpt-4.1-cluster', 'gpt-4.1-nano-cluster', 'gpt-4o-mini-cluster', 'gpt-4o-cluster', 'gpt-4-cluster', 'gpt-3.5-cluster'],
  openrouter: ['gpt-oss-20b', 'gpt-oss-120b', 'gpt-4', 'gpt-4o-mini'],
  google: ['gemini-1.5-pro'],
} as const satisfies Record<string, readonly string[]>;

export type ModelProvider = keyof typeof MODEL_PROVIDERS;
export const MODEL_PROVIDER_NAMES = Object.keys(MODEL_PROVIDERS) as ModelProvider[];

export const modelsOf = (provider: string): readonly string[] => (Object.hasOwn(MODEL_PROVIDERS, provider) ? MODEL_PROVIDERS[provider as ModelProvider] : []);

/**
 * Voice providers. Source: the same page's `voice` field, "Supports ElevenLabs or Sarvam. For
 * Sarvam, voiceId, model, and language are required"; its example gives sarvam's identifier
 * (`sarvam`, voiceId `anushka`, model `bulbul:v2`, language `en`). The page names ElevenLabs without
 * showing its identifier: `elevenlabs` follows the lower-case `sarvam`; its model ids are
 * ElevenLabs' own. Either may take other values the reference does not list.
 */
export const VOICE_PROVIDERS: readonly { value: string; label: string; needsDetails: boolean; models: readonly string[]; voices: readonly string[] }[] = [
  { value: 'elevenlabs', label: 'ElevenLabs', needsDetails: false, models: ['eleven_turbo_v2_5', 'eleven_flash_v2_5', 'eleven_multilingual_v2'], voices: [] },
  { value: 'sarvam', label: 'Sarvam', needsDetails: true, models: ['bulbul:v2'], voices: ['anushka'] },
];
export const VOICE_PROVIDER_NAMES = VOICE_PROVIDERS.map((p) => p.value);
/** The voice fields Sarvam needs. */
export const VOICE_DETAIL_FIELDS = ['voiceId', 'model', 'language'] as const;

/** For help text: where the lists come from, then one family a line. */
export function describeCatalog(): string {
  const families = MODEL_PROVIDER_NAMES.map((p) => `  ${p}: ${MODEL_PROVIDERS[p].join(', ')}`).join('\n');
  const voices = VOICE_PROVIDERS.map((v) => `  ${v.value}${v.needsDetails ? ` (needs voice.${VOICE_DETAIL_FIELDS.join(', voice.')})` : ''}`).join('\n');
  return [
    `Providers the hosted service's public reference lists (${CATALOG_SOURCE}).`,
    'They are suggestions: any other value in the file is passed through, and the service decides',
    '(the sandbox, which models the service, accepts only these for new assistants).',
    `Language models (model.provider: model.model):\n${families}`,
    `Voice providers (voice.provider):\n${voices}`,
  ].join('\n');
}
