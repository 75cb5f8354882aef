// The providers the Voice Agent Service accepts, in one place: the sandbox validates against it,
// its OpenAPI document enumerates it, the console's create form offers it and
// `switchboard assistants create --help` prints it. The spec names the rules (two voice providers,
// the second needing voiceId, model and language; five language-model families, each with its
// own model ids) but leaves the brand-name identifiers out; these are the ones the service uses.

/** Language-model provider families and the model ids each accepts. */
export const MODEL_PROVIDERS = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3-mini'],
  anthropic: ['claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022', 'claude-3-5-haiku', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514'],
  google: ['gemini-2.0-flash', 'gemini-2.0-flash-lite', 'gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-2.5-flash'],
  groq: ['llama-3.3-70b-versatile', 'llama-3.1-70b-versatile', 'llama-3.1-8b-instant', 'mixtral-8x7b-32768', 'gemma2-9b-it'],
  'deep-seek': ['deepseek-chat', 'deepseek-reasoner'],
} as const satisfies Record<string, readonly string[]>;

export type ModelProvider = keyof typeof MODEL_PROVIDERS;
export const MODEL_PROVIDER_NAMES = Object.keys(MODEL_PROVIDERS) as ModelProvider[];

export const modelsOf = (provider: string): readonly string[] =>
  Object.hasOwn(MODEL_PROVIDERS, provider) ? MODEL_PROVIDERS[provider as ModelProvider] : [];

/** The two voice providers; the second needs voiceId, model and language. */
export const VOICE_PROVIDERS: readonly { value: string; needsDetails: boolean; models: readonly string[] }[] = [
  { value: 'vapi', needsDetails: false, models: [] },
  { value: '11labs', needsDetails: true, models: ['eleven_turbo_v2_5', 'eleven_flash_v2_5', 'eleven_multilingual_v2'] },
];
export const VOICE_PROVIDER_NAMES = VOICE_PROVIDERS.map((p) => p.value);
/** The voice fields the second provider needs. */
export const VOICE_DETAIL_FIELDS = ['voiceId', 'model', 'language'] as const;

/** For help text: "openai: gpt-4o, gpt-4o-mini; anthropic: …" one family a line. */
export function describeCatalog(): string {
  const families = MODEL_PROVIDER_NAMES.map((p) => `  ${p}: ${MODEL_PROVIDERS[p].join(', ')}`).join('\n');
  const voices = VOICE_PROVIDERS.map((v) => `  ${v.value}${v.needsDetails ? ` (needs voice.${VOICE_DETAIL_FIELDS.join(', voice.')})` : ''}`).join('\n');
  return `Language models (model.provider: model.model):\n${families}\nVoice providers (voice.provider):\n${voices}`;
}
