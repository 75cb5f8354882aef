// Choices offered by the assistant form. The service accepts five language-model provider families,
// each with its own model ids, two voice providers and a set of transcribers; these lists are data
// so they can grow without touching the form.
import type { Option } from '../../components/Form.js';

export const MODEL_PROVIDERS: Record<string, string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3-mini'],
  anthropic: ['claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514'],
  google: ['gemini-2.0-flash', 'gemini-2.0-flash-lite', 'gemini-1.5-pro', 'gemini-2.5-flash'],
  groq: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant', 'mixtral-8x7b-32768', 'gemma2-9b-it'],
  'custom-llm': ['custom-model'],
};

/** The second voice provider needs voiceId, model and language. */
export const VOICE_PROVIDERS: { value: string; needsDetails: boolean; models: string[] }[] = [
  { value: 'vapi', needsDetails: false, models: [] },
  { value: '11labs', needsDetails: true, models: ['eleven_turbo_v2_5', 'eleven_flash_v2_5', 'eleven_multilingual_v2'] },
];

export const TRANSCRIBERS: Record<string, string[]> = {
  deepgram: ['nova-2', 'nova-3', 'nova-2-phonecall'],
  assemblyai: ['best', 'nano'],
  gladia: ['fast', 'accurate'],
  'google-stt': ['latest_long', 'telephony'],
};

export const LANGUAGES = ['en', 'en-US', 'en-GB', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ja', 'hi', 'multi'];
export const FIRST_MESSAGE_MODES = ['assistant-speaks-first', 'assistant-waits-for-user', 'assistant-speaks-first-with-model-generated-message'];
export const BACKGROUND_SOUNDS = ['off', 'office'];

export const opts = (values: readonly string[]): Option[] => values.map((value) => ({ value }));
