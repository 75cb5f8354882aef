// Choices offered by the assistant form. The service accepts five language-model provider families,
// each with its own model ids, two voice providers and a set of transcribers; these lists are data
// so they can grow without touching the form.
import type { Option } from '../../components/Form.js';
import { MODEL_PROVIDERS as CATALOG_MODEL_PROVIDERS, VOICE_PROVIDERS } from '../../../api/catalog.js';

/** The language models and voice providers come from the one catalogue the sandbox validates against. */
export const MODEL_PROVIDERS: Readonly<Record<string, readonly string[]>> = CATALOG_MODEL_PROVIDERS;
export { VOICE_PROVIDERS };

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
