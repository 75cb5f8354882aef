// POST/GET/PATCH /assistants. Every spec field is kept as given; nested objects keep extra
// keys (the hosted service has more than the spec shows); PATCH replaces whole top-level fields.
// null is no value of any field (stored, it would break every later read against the document).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import type { SandboxContext } from '../context.js';
import type { AssistantRow } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { idText, numberIn, parseBody, requiredText, text, wholeNumber } from '../validate.js';
import { MODEL_PROVIDER_NAMES, VOICE_DETAIL_FIELDS, VOICE_PROVIDERS, VOICE_PROVIDER_NAMES, modelsOf } from '../../api/catalog.js';

const opt = <T extends z.ZodType>(t: T) => t.optional();
const given = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

const voice = z.looseObject({
  provider: opt(text(200)),
  voiceId: opt(text(200)),
  model: opt(text(200)),
  language: opt(text(50)),
  speed: opt(numberIn(0.25, 4)),
});

const knowledgeBase = z.looseObject({
  fileIds: z.array(idText(100)).max(100, 'must list at most 100 files'),
});

const assistantFields = {
  name: requiredText(200),
  status: opt(z.boolean()),
  description: opt(text(2000)),
  voice: opt(voice),
  transcriber: opt(z.looseObject({ provider: opt(text(100)), model: opt(text(200)), language: opt(text(50)) })),
  model: opt(
    z.looseObject({
      provider: opt(text(200)),
      model: opt(text(200)),
      temperature: opt(numberIn(0, 2)),
      maxTokens: opt(wholeNumber(1, 1_000_000)),
      emotionRecognitionEnabled: opt(z.boolean()),
      messages: opt(z.array(z.looseObject({ role: requiredText(50), content: text(200_000) })).max(200, 'must hold at most 200 messages')),
      knowledgeBase: opt(knowledgeBase),
    }),
  ),
  firstMessage: opt(text(10_000)),
  firstMessageMode: opt(text(100)),
  backgroundSound: opt(text(100)),
  silenceTimeoutSeconds: opt(wholeNumber(1, 3600)),
  backgroundDenoisingEnabled: opt(z.boolean()),
  firstMessageInterruptionsEnabled: opt(z.boolean()),
  maxDurationSeconds: opt(wholeNumber(1, 86_400)),
  analysisPlan: opt(z.record(z.string(), z.unknown())),
  knowledgeBase: opt(knowledgeBase),
  hangupUsingPrompt: opt(z.looseObject({ enabled: opt(z.boolean()), prompt: opt(text(10_000)) })),
};

type Obj = Record<string, unknown>;
const objectAt = (body: Obj | undefined, key: string): Obj | undefined => {
  const v = body?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
};

/**
 * The providers and models of a write, checked against the catalogue (the hosted service refuses
 * values its reference does not list). A value the assistant already has is not a new choice:
 * data dirs written before the catalogue followed the reference hold other providers, and those
 * assistants stay readable and editable (a PATCH that sends their voice or model back unchanged).
 */
function checkCatalogue(body: Obj, stored?: Obj): void {
  const voice = objectAt(body, 'voice');
  const storedVoice = objectAt(stored, 'voice');
  if (voice?.provider !== undefined && voice.provider !== storedVoice?.provider && !VOICE_PROVIDER_NAMES.includes(String(voice.provider))) {
    throw badRequest(`voice.provider must be one of ${VOICE_PROVIDER_NAMES.join(', ')}`);
  }
  if (voice && VOICE_PROVIDERS.find((p) => p.value === voice.provider)?.needsDetails) {
    for (const field of VOICE_DETAIL_FIELDS) {
      if (!given(voice[field])) throw badRequest(`voice.${field} is required for voice provider ${String(voice.provider)}`);
    }
  }
  const model = objectAt(body, 'model');
  const storedModel = objectAt(stored, 'model');
  if (model?.model !== undefined && model.provider === undefined) throw badRequest('model.provider is required with model.model');
  if (model?.provider === undefined) return;
  const storedChoice = model.provider === storedModel?.provider && (model.model === undefined || model.model === storedModel?.model);
  if (storedChoice) return;
  const known = MODEL_PROVIDER_NAMES.includes(String(model.provider) as never);
  if (!known) throw badRequest(`model.provider must be one of ${MODEL_PROVIDER_NAMES.join(', ')}`);
  const models = modelsOf(String(model.provider));
  if (model.model !== undefined && !models.includes(String(model.model))) {
    throw badRequest(`model.model must be one of ${models.join(', ')} for provider ${String(model.provider)}`);
  }
}

const CreateAssistant = z.strictObject(assistantFields);
const PatchAssistant = z.strictObject({ ...assistantFields, name: requiredText(200).optional() });

/** Objects whose fields are typed (free-form analysisPlan keeps whatever it holds). */
const TYPED_OBJECTS = ['voice', 'transcriber', 'model', 'hangupUsingPrompt', 'knowledgeBase'];

/**
 * Data dirs written before null was refused may hold it: a null field reads as absent, so every
 * answer stays valid against the document.
 */
function withoutNulls(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null) continue;
    out[k] =
      TYPED_OBJECTS.includes(k) && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as object).filter(([, x]) => x !== null))
        : v;
  }
  return out;
}

export const assistantRecord = (a: AssistantRow) => ({ id: a.id, ...withoutNulls(a.body), createdAt: a.createdAt, updatedAt: a.updatedAt });

function checkFilesExist(ctx: SandboxContext, body: Record<string, unknown>): void {
  const lists: [string, unknown][] = [
    ['knowledgeBase.fileIds', (body.knowledgeBase as { fileIds?: unknown } | null | undefined)?.fileIds],
    ['model.knowledgeBase.fileIds', (body.model as { knowledgeBase?: { fileIds?: unknown } } | null | undefined)?.knowledgeBase?.fileIds],
  ];
  for (const [field, ids] of lists) {
    if (!Array.isArray(ids)) continue;
    ids.forEach((id: string, i) => {
      if (!ctx.store.getFile(id)) throw badRequest(`${field}[${i}] names no uploaded file (${id}); upload it with POST /files first`);
    });
  }
}

export function getAssistantOr404(ctx: SandboxContext, id: string, field = 'assistant'): AssistantRow {
  const a = ctx.store.getAssistant(id);
  if (!a) throw notFound(`no ${field} with id ${id}`);
  return a;
}

export function assistantRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/assistants', async (request, reply) => {
    const body = parseBody(CreateAssistant, request.body) as Record<string, unknown>;
    checkCatalogue(body);
    checkFilesExist(ctx, body);
    const now = new Date().toISOString();
    const row: AssistantRow = { id: randomUUID(), body, createdAt: now, updatedAt: now };
    ctx.store.insertAssistant(row);
    return reply.code(201).send({ message: 'Assistant created successfully', assistant: assistantRecord(row) });
  });

  app.get('/assistants', async () => ({ assistants: ctx.store.listAssistants().map(assistantRecord) }));

  app.get<{ Params: { id: string } }>('/assistants/:id', async (request) => ({
    assistant: assistantRecord(getAssistantOr404(ctx, request.params.id)),
  }));

  app.patch<{ Params: { id: string } }>('/assistants/:id', async (request) => {
    const current = getAssistantOr404(ctx, request.params.id);
    const patch = parseBody(PatchAssistant, request.body) as Record<string, unknown>;
    if (Object.keys(patch).length === 0) throw badRequest('the body names no assistant field to change');
    checkCatalogue(patch, current.body);
    checkFilesExist(ctx, patch);
    const body = { ...current.body, ...patch };
    const updatedAt = new Date().toISOString();
    ctx.store.updateAssistant(current.id, body, updatedAt);
    return { message: 'Assistant updated successfully', assistant: assistantRecord({ ...current, body, updatedAt }) };
  });
}
