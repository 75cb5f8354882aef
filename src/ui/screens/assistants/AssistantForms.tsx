// Create an assistant (every field of the spec); edit one in the same form pre-filled (every
// field, only the changed ones sent); duplicate one (the create form pre-filled from it); attach
// or detach knowledge-base files. Providers and models are free choices: the catalogue's values
// are offered and any other can be typed (the service decides); its 400 shows in the field it names.
import type { Assistant, AssistantInput, UpdatedAssistant } from '../../../api/schemas.js';
import { ApiError } from '../../../api/errors.js';
import { kbFileIds } from '../../../api/records.js';
import { useActions, useConsole } from '../../../store/index.js';
import { useState } from 'react';
import { Form, normalize, type Field, type FormValues } from '../../components/Form.js';
import { Picker } from '../../components/Picker.js';
import { Loading } from '../../components/Status.js';
import { humanBytes } from '../../../format/display.js';
import type { ScreenProps } from '../shared.js';
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
  { kind: 'select', free: true, key: 'modelProvider', label: 'Model provider', options: () => opts(Object.keys(MODEL_PROVIDERS)), group: 'Model' },
  { kind: 'select', free: true, key: 'model', label: 'Model', options: (v) => opts(MODEL_PROVIDERS[String(v.modelProvider)] ?? []) },
  { kind: 'number', key: 'temperature', label: 'Temperature', min: 0, max: 2, hint: '0 – 2' },
  { kind: 'number', key: 'maxTokens', label: 'Max tokens', integer: true, min: 1, max: 100000 },
  { kind: 'toggle', key: 'emotionRecognitionEnabled', label: 'Emotion recognition' },
  { kind: 'text', key: 'systemPrompt', label: 'System prompt', multiline: true, hint: 'Enter for a new line; Tab moves on' },
  { kind: 'select', free: true, key: 'voiceProvider', label: 'Voice provider', options: () => opts(VOICE_PROVIDERS.map((p) => p.value)), group: 'Voice' },
  {
    kind: 'text',
    key: 'voiceId',
    label: 'Voice id',
    hint: `required for ${VOICE_PROVIDERS.filter((p) => p.needsDetails)
      .map((p) => p.value)
      .join(', ')}`,
  },
  {
    kind: 'select',
    free: true,
    key: 'voiceModel',
    label: 'Voice model',
    options: (v) => [{ value: '', label: '(none)' }, ...opts(VOICE_PROVIDERS.find((p) => p.value === v.voiceProvider)?.models ?? [])],
  },
  { kind: 'select', key: 'voiceLanguage', label: 'Voice language', options: () => [{ value: '', label: '(none)' }, ...opts(LANGUAGES)] },
  { kind: 'number', key: 'voiceSpeed', label: 'Voice speed', min: 0.25, max: 4, hint: '0.25 – 4' },
  { kind: 'select', free: true, key: 'transcriberProvider', label: 'Transcriber', options: () => opts(Object.keys(TRANSCRIBERS)), group: 'Transcriber' },
  { kind: 'select', free: true, key: 'transcriberModel', label: 'Transcriber model', options: (v) => opts(TRANSCRIBERS[String(v.transcriberProvider)] ?? []) },
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

const CREATE_DEFAULTS: FormValues = {
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
function assistantInputFrom(v: FormValues): AssistantInput {
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

/** The fields the reference's rule asks for and the values leave empty (Sarvam needs a voice id, model and language), by field key. */
export function voiceProblems(v: FormValues): Record<string, string> | null {
  const voice = VOICE_PROVIDERS.find((p) => p.value === v.voiceProvider);
  if (!voice?.needsDetails) return null;
  const missing = Object.entries({ voiceId: 'a voice id', voiceModel: 'a voice model', voiceLanguage: 'a language' }).filter(
    ([k]) => !String(v[k] ?? '').trim(),
  );
  return missing.length ? Object.fromEntries(missing.map(([k, what]) => [k, `voice provider ${voice.value} needs ${what}`])) : null;
}

/** The form field of each assistant field a service's error may name (its path in the body). */
const FIELD_OF_PATH: Record<string, string> = {
  name: 'name',
  description: 'description',
  status: 'status',
  'model.provider': 'modelProvider',
  'model.model': 'model',
  'model.temperature': 'temperature',
  'model.maxTokens': 'maxTokens',
  'model.emotionRecognitionEnabled': 'emotionRecognitionEnabled',
  'model.messages': 'systemPrompt',
  'voice.provider': 'voiceProvider',
  'voice.voiceId': 'voiceId',
  'voice.model': 'voiceModel',
  'voice.language': 'voiceLanguage',
  'voice.speed': 'voiceSpeed',
  'transcriber.provider': 'transcriberProvider',
  'transcriber.model': 'transcriberModel',
  'transcriber.language': 'transcriberLanguage',
  firstMessage: 'firstMessage',
  firstMessageMode: 'firstMessageMode',
  firstMessageInterruptionsEnabled: 'firstMessageInterruptionsEnabled',
  backgroundSound: 'backgroundSound',
  backgroundDenoisingEnabled: 'backgroundDenoisingEnabled',
  silenceTimeoutSeconds: 'silenceTimeoutSeconds',
  maxDurationSeconds: 'maxDurationSeconds',
  'hangupUsingPrompt.enabled': 'hangupEnabled',
  'hangupUsingPrompt.prompt': 'hangupPrompt',
  analysisPlan: 'analysisPlan',
};
const PATHS_LONGEST_FIRST = Object.keys(FIELD_OF_PATH).sort((a, b) => b.length - a.length);

/**
 * A service's 400 as errors of the form's fields: each message that names an assistant field
 * ("model.provider must be one of …", "voice.voiceId is required …") goes under that field, in the
 * service's words. Null when the failure names none (the flash line shows it).
 */
export function fieldErrorsOf(err: unknown): Record<string, string> | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const said = Array.isArray(err.serviceMessage) ? err.serviceMessage : [err.detail];
  const out: Record<string, string> = {};
  for (const message of said) {
    if (typeof message !== 'string') continue;
    const path = PATHS_LONGEST_FIRST.find((p) => new RegExp(`(^|[^\\w.])${p.replace('.', '\\.')}(?![\\w])`).test(message));
    if (path && out[FIELD_OF_PATH[path]] === undefined) out[FIELD_OF_PATH[path]] = message;
  }
  return Object.keys(out).length ? out : null;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The create form's values for an existing assistant: what edit and duplicate start from. */
export function formValuesFrom(a: Assistant): FormValues {
  const m = a.model ?? {};
  return {
    name: a.name ?? '',
    description: a.description ?? '',
    status: a.status !== false,
    modelProvider: text(m.provider),
    model: text(m.model),
    temperature: text(m.temperature),
    maxTokens: text(m.maxTokens),
    emotionRecognitionEnabled: m.emotionRecognitionEnabled === true,
    systemPrompt: m.messages?.find((x) => x.role === 'system')?.content ?? '',
    voiceProvider: text(a.voice?.provider),
    voiceId: text(a.voice?.voiceId),
    voiceModel: text(a.voice?.model),
    voiceLanguage: text(a.voice?.language),
    voiceSpeed: text(a.voice?.speed),
    transcriberProvider: text(a.transcriber?.provider),
    transcriberModel: text(a.transcriber?.model),
    transcriberLanguage: text(a.transcriber?.language),
    firstMessage: a.firstMessage ?? '',
    firstMessageMode: text(a.firstMessageMode),
    firstMessageInterruptionsEnabled: a.firstMessageInterruptionsEnabled === true,
    backgroundSound: text(a.backgroundSound),
    backgroundDenoisingEnabled: a.backgroundDenoisingEnabled === true,
    silenceTimeoutSeconds: text(a.silenceTimeoutSeconds),
    maxDurationSeconds: text(a.maxDurationSeconds),
    hangupEnabled: a.hangupUsingPrompt?.enabled === true,
    hangupPrompt: a.hangupUsingPrompt?.prompt ?? '',
    analysisPlan: a.analysisPlan ? JSON.stringify(a.analysisPlan) : '',
  };
}

/**
 * The create form's fields for an existing assistant: a choice field also offers the value the
 * assistant has when the console's lists don't know it (another provider's model), so opening
 * the form changes nothing by itself.
 */
function fieldsFor(initial: FormValues): Field[] {
  return CREATE_FIELDS.map((f) => {
    if (f.kind !== 'select') return f;
    const have = String(initial[f.key] ?? '');
    if (!have) return f;
    return {
      ...f,
      options: (v: FormValues) => {
        const o = f.options(v);
        // Only while the fields it depends on are as they were (a new provider lists its own models).
        const asWas = CREATE_FIELDS.every((g) => g.kind !== 'select' || g.key === f.key || v[g.key] === initial[g.key]);
        return asWas && !o.some((x) => x.value === have) ? [...o, { value: have, label: `${have} (current)` }] : o;
      },
    };
  });
}

/**
 * The PATCH body for an edit: only the top-level fields whose form values changed. A nested
 * object (model, voice, …) is sent whole, the assistant's own keys the form doesn't show kept
 * (the service replaces a top-level field), and other-role prompt messages kept after the system one.
 */
export function changedFields(a: Assistant, before: FormValues, after: FormValues): AssistantInput {
  const was = assistantInputFrom(before) as Record<string, unknown>;
  const now = assistantInputFrom(after) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(now)) {
    if (JSON.stringify(now[key]) === JSON.stringify(was[key])) continue;
    const mine = now[key];
    const theirs = (a as Record<string, unknown>)[key];
    if (mine && typeof mine === 'object' && !Array.isArray(mine) && theirs && typeof theirs === 'object' && key !== 'analysisPlan') {
      const merged: Record<string, unknown> = { ...(theirs as Record<string, unknown>), ...(mine as Record<string, unknown>) };
      if (key === 'model') {
        const others = (a.model?.messages ?? []).filter((m) => m.role !== 'system');
        const system = (mine as { messages?: unknown[] }).messages ?? [];
        merged.messages = system.length || others.length ? [...system, ...others] : undefined;
      }
      out[key] = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
    } else out[key] = mine;
  }
  return out as AssistantInput;
}

/** New assistant: a blank form, or (D, duplicate) one pre-filled from another assistant. */
export function AssistantCreate({ route, width, height }: ScreenProps<{ name: 'assistant-new'; from?: string }>) {
  const actions = useActions();
  const [errors, setErrors] = useState<Record<string, string> | undefined>(undefined);
  const from = useAssistant(route.from ?? '');
  const lastAttempt = useConsole((s) => s.createAttempt);
  if (route.from && !from) return <Loading what="the assistant to duplicate" />;
  const initial = from ? { ...formValuesFrom(from), name: `${from.name ?? from.id} (copy)` } : CREATE_DEFAULTS;
  return (
    <Form
      title={from ? `New assistant from ${from.name ?? from.id}` : 'New assistant'}
      fields={from ? fieldsFor(initial) : CREATE_FIELDS}
      initial={initial}
      submitLabel="Create assistant"
      width={width}
      height={height}
      errors={errors}
      onCancel={actions.back}
      onSubmit={async (v) => {
        const problems = voiceProblems(v);
        if (problems) return void setErrors(problems);
        const input = assistantInputFrom(v);
        // A duplicate uses the same knowledge-base files.
        if (from?.knowledgeBase) input.knowledgeBase = from.knowledgeBase;
        if (from?.model?.knowledgeBase && input.model) input.model.knowledgeBase = from.model.knowledgeBase;
        const create = async (again: boolean) => {
          const a = await actions.createAssistant(input, { again, onError: (err) => setErrors(fieldErrorsOf(err) ?? undefined) });
          if (!a) return;
          actions.back();
          // Without a readable record the list, reloaded, is where the new assistant shows.
          if (a !== 'created') actions.push({ name: 'assistant', id: a.id });
        };
        // The last request may have made it already: another is sent only after a yes.
        if (!lastAttempt) return create(false);
        actions.confirm({
          title: 'Create it again?',
          message: `Your last create request ${lastAttempt}. The assistant may exist already: look in the list before creating it again.`,
          confirmLabel: 'create another',
          onConfirm: () => create(true),
        });
      }}
    />
  );
}

function useAssistant(id: string): Assistant | undefined {
  const rec = useConsole((s) => s.records[`assistant:${id}`]?.data as Assistant | undefined);
  const listed = useConsole((s) => s.assistants.data?.find((a) => a.id === id));
  return rec ?? listed;
}

/** Edit: the create form pre-filled; only the fields changed are sent. */
export function AssistantEdit({ route, width, height }: ScreenProps<{ name: 'assistant-edit'; id: string }>) {
  const actions = useActions();
  const a = useAssistant(route.id);
  if (!a) return <Loading what="the assistant" />;
  return <EditForm a={a} width={width} height={height} onDone={actions.back} />;
}

function EditForm({ a, width, height, onDone }: { a: Assistant; width: number; height: number; onDone: () => void }) {
  const actions = useActions();
  // The values the form opened with: a refresh of the record while editing doesn't reset what is typed.
  const [initial] = useState(() => formValuesFrom(a));
  const [fields] = useState(() => fieldsFor(initial));
  const [errors, setErrors] = useState<Record<string, string> | undefined>(undefined);
  return (
    <Form
      title={`Edit ${a.name ?? a.id}`}
      fields={fields}
      initial={initial}
      submitLabel="Save"
      width={width}
      height={height}
      errors={errors}
      onCancel={onDone}
      onSubmit={async (v) => {
        const problems = voiceProblems(v);
        if (problems) return void setErrors(problems);
        const patch = changedFields(a, normalize(fields, initial), v);
        if (Object.keys(patch).length === 0) {
          actions.flash('Nothing changed');
          return onDone();
        }
        const saved = await actions.updateAssistant(a.id, patch, undefined, (err) => setErrors(fieldErrorsOf(err) ?? undefined));
        if (!saved) return; // the error is on the flash line; everything typed stays
        // A hosted service may keep only some fields of a PATCH (the spec: name, status, description).
        const notApplied = saved === 'saved' ? undefined : (saved as Partial<UpdatedAssistant>).notApplied;
        if (notApplied?.length) actions.flash(`Saved, but the service did not apply: ${notApplied.join(', ')}`, 'error');
        onDone();
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
        const saved = await actions.updateAssistant(
          a.id,
          { knowledgeBase: kb, model: { ...a.model, knowledgeBase: kb } },
          `${a.name ?? a.id} now uses ${ids.length} knowledge-base file${ids.length === 1 ? '' : 's'}`,
        );
        if (saved) actions.back();
      }}
    />
  );
}
