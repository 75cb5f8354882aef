// Create an assistant (every field of the spec), edit name/description/status, and attach or
// detach knowledge-base files.
import type { Assistant, AssistantInput } from '../../../api/schemas.js';
import { useActions, useConsole } from '../../../store/index.js';
import { Form, type Field, type FormValues } from '../../components/Form.js';
import { Picker } from '../../components/Picker.js';
import { Loading } from '../../components/Status.js';
import { humanBytes } from '../../format.js';
import type { ScreenProps } from '../shared.js';
import { kbFileIds } from './AssistantDetail.js';
import { BACKGROUND_SOUNDS, FIRST_MESSAGE_MODES, LANGUAGES, MODEL_PROVIDERS, TRANSCRIBERS, VOICE_PROVIDERS, opts } from './options.js';

const json = (v: string) => {
  try {
    const o = JSON.parse(v);
    return o && typeof o === 'object' && !Array.isArray(o) ? null : 'must be a JSON object like {"summaryPrompt": "…"}';
  } catch {
    return 'is not valid JSON';
  }
};

export const CREATE_FIELDS: Field[] = [
  { kind: 'text', key: 'name', label: 'Name', required: true, group: 'Assistant' },
  { kind: 'text', key: 'description', label: 'Description' },
  { kind: 'toggle', key: 'status', label: 'Active' },
  { kind: 'select', key: 'modelProvider', label: 'Model provider', options: () => opts(Object.keys(MODEL_PROVIDERS)), group: 'Model' },
  { kind: 'select', key: 'model', label: 'Model', options: (v) => opts(MODEL_PROVIDERS[String(v.modelProvider)] ?? []) },
  { kind: 'number', key: 'temperature', label: 'Temperature', min: 0, max: 2, hint: '0 – 2' },
  { kind: 'number', key: 'maxTokens', label: 'Max tokens', integer: true, min: 1, max: 100000 },
  { kind: 'toggle', key: 'emotionRecognitionEnabled', label: 'Emotion recognition' },
  { kind: 'text', key: 'systemPrompt', label: 'System prompt', multiline: true, hint: 'Enter for a new line; Tab moves on' },
  { kind: 'select', key: 'voiceProvider', label: 'Voice provider', options: () => opts(VOICE_PROVIDERS.map((p) => p.value)), group: 'Voice' },
  { kind: 'text', key: 'voiceId', label: 'Voice id', hint: 'required for 11labs' },
  { kind: 'select', key: 'voiceModel', label: 'Voice model', options: (v) => [{ value: '', label: '(none)' }, ...opts(VOICE_PROVIDERS.find((p) => p.value === v.voiceProvider)?.models ?? [])] },
  { kind: 'select', key: 'voiceLanguage', label: 'Voice language', options: () => [{ value: '', label: '(none)' }, ...opts(LANGUAGES)] },
  { kind: 'number', key: 'voiceSpeed', label: 'Voice speed', min: 0.25, max: 4, hint: '0.25 – 4' },
  { kind: 'select', key: 'transcriberProvider', label: 'Transcriber', options: () => opts(Object.keys(TRANSCRIBERS)), group: 'Transcriber' },
  { kind: 'select', key: 'transcriberModel', label: 'Transcriber model', options: (v) => opts(TRANSCRIBERS[String(v.transcriberProvider)] ?? []) },
  { kind: 'select', key: 'transcriberLanguage', label: 'Transcriber language', options: () => opts(LANGUAGES) },
  { kind: 'text', key: 'firstMessage', label: 'First message', group: 'Call behaviour' },
  { kind: 'select', key: 'firstMessageMode', label: 'First message mode', options: () => opts(FIRST_MESSAGE_MODES) },
  { kind: 'toggle', key: 'firstMessageInterruptionsEnabled', label: 'Caller may interrupt' },
  { kind: 'select', key: 'backgroundSound', label: 'Background sound', options: () => opts(BACKGROUND_SOUNDS) },
  { kind: 'toggle', key: 'backgroundDenoisingEnabled', label: 'Background denoising' },
  { kind: 'number', key: 'silenceTimeoutSeconds', label: 'Silence timeout (s)', integer: true, min: 1, max: 3600 },
  { kind: 'number', key: 'maxDurationSeconds', label: 'Max duration (s)', integer: true, min: 10, max: 43200 },
  { kind: 'toggle', key: 'hangupEnabled', label: 'Hang up using prompt', group: 'Hang-up and analysis' },
  { kind: 'text', key: 'hangupPrompt', label: 'Hang-up prompt' },
  { kind: 'text', key: 'analysisPlan', label: 'Analysis plan (JSON)', validate: json, hint: '{"summaryPrompt": "…"}' },
];

export const CREATE_DEFAULTS: FormValues = {
  name: '',
  description: '',
  status: true,
  temperature: '0.7',
  maxTokens: '',
  emotionRecognitionEnabled: false,
  systemPrompt: '',
  voiceId: '',
  voiceSpeed: '',
  firstMessage: '',
  firstMessageInterruptionsEnabled: false,
  backgroundDenoisingEnabled: false,
  silenceTimeoutSeconds: '30',
  maxDurationSeconds: '600',
  hangupEnabled: false,
  hangupPrompt: '',
  analysisPlan: '',
};

/** The create form's values as the body of POST /assistants (empty optional fields left out). */
export function assistantInputFrom(v: FormValues): AssistantInput {
  const s = (k: string) => String(v[k] ?? '').trim() || undefined;
  const n = (k: string) => (s(k) === undefined ? undefined : Number(s(k)));
  const prompt = s('systemPrompt');
  return {
    name: s('name'),
    description: s('description'),
    status: v.status === true,
    model: {
      provider: s('modelProvider'),
      model: s('model'),
      temperature: n('temperature'),
      maxTokens: n('maxTokens'),
      emotionRecognitionEnabled: v.emotionRecognitionEnabled === true,
      messages: prompt ? [{ role: 'system', content: prompt }] : undefined,
    },
    voice: { provider: s('voiceProvider'), voiceId: s('voiceId'), model: s('voiceModel'), language: s('voiceLanguage'), speed: n('voiceSpeed') },
    transcriber: { provider: s('transcriberProvider'), model: s('transcriberModel'), language: s('transcriberLanguage') },
    firstMessage: s('firstMessage'),
    firstMessageMode: s('firstMessageMode'),
    firstMessageInterruptionsEnabled: v.firstMessageInterruptionsEnabled === true,
    backgroundSound: s('backgroundSound'),
    backgroundDenoisingEnabled: v.backgroundDenoisingEnabled === true,
    silenceTimeoutSeconds: n('silenceTimeoutSeconds'),
    maxDurationSeconds: n('maxDurationSeconds'),
    hangupUsingPrompt: { enabled: v.hangupEnabled === true, prompt: s('hangupPrompt') },
    analysisPlan: s('analysisPlan') ? (JSON.parse(s('analysisPlan')!) as Record<string, unknown>) : undefined,
  };
}

export function AssistantCreate({ width, height }: ScreenProps<{ name: 'assistant-new' }>) {
  const actions = useActions();
  return (
    <Form
      title="New assistant"
      fields={CREATE_FIELDS}
      initial={CREATE_DEFAULTS}
      submitLabel="Create assistant"
      width={width}
      height={height}
      onCancel={actions.back}
      onSubmit={async (v) => {
        const voice = VOICE_PROVIDERS.find((p) => p.value === v.voiceProvider);
        if (voice?.needsDetails && (!String(v.voiceId).trim() || !v.voiceModel || !v.voiceLanguage)) {
          actions.flash(`Voice provider ${voice.value} needs a voice id, a voice model and a language`, 'error');
          return;
        }
        const a = await actions.createAssistant(assistantInputFrom(v));
        if (a) {
          actions.back();
          actions.push({ name: 'assistant', id: a.id });
        }
      }}
    />
  );
}

const EDIT_FIELDS: Field[] = [
  { kind: 'text', key: 'name', label: 'Name', required: true },
  { kind: 'text', key: 'description', label: 'Description' },
  { kind: 'toggle', key: 'status', label: 'Active' },
];

function useAssistant(id: string): Assistant | undefined {
  const rec = useConsole((s) => s.records[`assistant:${id}`]?.data as Assistant | undefined);
  const listed = useConsole((s) => s.assistants.data?.find((a) => a.id === id));
  return rec ?? listed;
}

export function AssistantEdit({ route, width, height }: ScreenProps<{ name: 'assistant-edit'; id: string }>) {
  const actions = useActions();
  const a = useAssistant(route.id);
  if (!a) return <Loading what="the assistant" />;
  return (
    <Form
      title={`Edit ${a.name ?? a.id}`}
      fields={EDIT_FIELDS}
      initial={{ name: a.name ?? '', description: a.description ?? '', status: a.status !== false }}
      submitLabel="Save"
      width={width}
      height={height}
      onCancel={actions.back}
      onSubmit={async (v) => {
        const saved = await actions.updateAssistant(a.id, { name: String(v.name).trim(), description: String(v.description).trim(), status: v.status === true });
        if (saved) actions.back();
      }}
    />
  );
}

export function AssistantKnowledgeBase({ route, width, height }: ScreenProps<{ name: 'assistant-kb'; id: string }>) {
  const actions = useActions();
  const a = useAssistant(route.id);
  const files = useConsole((s) => s.files);
  if (!a || !files.data) return <Loading what={a ? 'files' : 'the assistant'} />;
  return (
    <Picker
      title={`Knowledge-base files of ${a.name ?? a.id}`}
      multi
      items={files.data.files.map((f) => ({ id: f.id, label: f.name ?? f.id, detail: `${humanBytes(f.bytes)} ${f.status ?? ''}` }))}
      initialSelected={kbFileIds(a)}
      width={width}
      height={height}
      onCancel={actions.back}
      onChoose={async (ids) => {
        const kb = { fileIds: ids };
        const saved = await actions.updateAssistant(a.id, { knowledgeBase: kb, model: { ...a.model, knowledgeBase: kb } }, `${a.name ?? a.id} now uses ${ids.length} knowledge-base file${ids.length === 1 ? '' : 's'}`);
        if (saved) actions.back();
      }}
    />
  );
}
