// Resource shapes of the Voice Agent Service. Types derive from these schemas.
// Client-side parsing is tolerant: unknown fields are kept (looseObject), most fields optional,
// because the hosted service returns more than the spec shows.
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import { noteMismatch } from './adapt.js';
import type { CallDateFilter } from './traits.js';

const str = z.string();
const optStr = z.string().nullish();
const optNum = z.number().nullish();
const optBool = z.boolean().nullish();

// Parsing never changes a record: no field is added, defaulted or transformed, so what is
// printed with -o json or exported is what the service sent. Readers read records through
// src/api/records.ts, the only code that knows their alternative shapes.

/**
 * A record the service sends, read one field at a time: each field of `shape` whose value is of
 * another type is kept as received (the record is never changed) and noted (adapt.ts), so one
 * field never fails a request. `id` stays as its schema says: a record without one cannot be read.
 * `prefix` names where the object sits in its record ("customer.", "messages[].").
 */
function serviceRecord<S extends z.ZodRawShape>(prefix: string, shape: S) {
  const fields: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape) as [string, z.ZodType][]) {
    fields[key] =
      key === 'id' && !prefix
        ? schema
        : schema.catch((ctx: { value: unknown; issues: readonly z.core.$ZodIssue[] }) => {
            noteMismatch(`${prefix}${key}`, ctx.value, ctx.issues);
            return ctx.value;
          });
  }
  return z.looseObject(fields as unknown as S);
}

/** A prompt message of an assistant's model (our own writes send `{ role, content }`). */
const PromptMessageSchema = z.looseObject({ role: str, content: optStr });

/**
 * A message of a call, chat or session as sent: text in `content` or (the platform's) `message`,
 * role maybe missing. Read with messageText / messageRole (src/api/records.ts).
 */
function messageSchema(prefix: string) {
  return serviceRecord(prefix, { role: optStr, content: z.unknown().optional(), message: z.unknown().optional() });
}
export type Message = z.infer<ReturnType<typeof messageSchema>>;

const KnowledgeBaseSchema = z.looseObject({ fileIds: z.array(str).nullish() });

export const VoiceSchema = z.looseObject({
  provider: optStr,
  voiceId: optStr,
  model: optStr,
  language: optStr,
  speed: optNum,
});
export const TranscriberSchema = z.looseObject({ provider: optStr, model: optStr, language: optStr });
export const ModelSchema = z.looseObject({
  provider: optStr,
  model: optStr,
  temperature: optNum,
  maxTokens: optNum,
  emotionRecognitionEnabled: optBool,
  messages: z.array(PromptMessageSchema).nullish(),
  knowledgeBase: KnowledgeBaseSchema.nullish(),
});

export const AssistantSchema = z.looseObject({
  id: str,
  name: optStr,
  status: optBool,
  description: optStr,
  voice: VoiceSchema.nullish(),
  transcriber: TranscriberSchema.nullish(),
  model: ModelSchema.nullish(),
  firstMessage: optStr,
  firstMessageMode: optStr,
  backgroundSound: optStr,
  silenceTimeoutSeconds: optNum,
  backgroundDenoisingEnabled: optBool,
  firstMessageInterruptionsEnabled: optBool,
  maxDurationSeconds: optNum,
  analysisPlan: z.record(z.string(), z.unknown()).nullish(),
  knowledgeBase: KnowledgeBaseSchema.nullish(),
  hangupUsingPrompt: z.looseObject({ enabled: optBool, prompt: optStr }).nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type Assistant = z.infer<typeof AssistantSchema>;

/** Body of POST /assistants and PATCH /assistants/{id} (every field optional here; the sandbox requires `name` on create). */
export const AssistantInputSchema = AssistantSchema.omit({ id: true, createdAt: true, updatedAt: true }).partial();
export type AssistantInput = z.input<typeof AssistantInputSchema>;

/**
 * An assistant as a file (`switchboard assistants pull`/`push`): the input fields plus its `id`
 * (none yet: push creates it), and knowledge-base files named by `files` (names or ids) as well
 * as by `fileIds`.
 */
const KnowledgeBaseRefSchema = z.looseObject({ fileIds: z.array(str).optional(), files: z.array(str).optional() });
export const AssistantFileSchema = AssistantInputSchema.extend({
  id: str.optional(),
  model: ModelSchema.extend({ knowledgeBase: KnowledgeBaseRefSchema.nullish() }).nullish(),
  knowledgeBase: KnowledgeBaseRefSchema.nullish(),
});

/**
 * The assistant as stored after a PATCH, plus the patch's fields the service did not apply.
 * `notApplied` is not enumerable: printed or stored, the value is the record alone.
 */
export type UpdatedAssistant = Assistant & { readonly notApplied: readonly string[] };

const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt']);

/** Whether `stored` holds what `sent` asked for: objects may carry more keys, everything else is equal. */
function holds(stored: unknown, sent: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(stored) && stored.length === sent.length && sent.every((v, i) => holds(stored[i], v));
  if (sent !== null && typeof sent === 'object') {
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return false;
    return Object.entries(sent).every(([k, v]) => v === undefined || holds((stored as Record<string, unknown>)[k], v));
  }
  return Object.is(stored, sent);
}

/** `stored` with `notApplied`: the top-level fields of `patch` that `stored` does not hold. */
export function reportNotApplied(stored: Assistant, patch: AssistantInput): UpdatedAssistant {
  const notApplied = Object.entries(patch)
    .filter(([k, v]) => v !== undefined && !SERVER_SET.has(k) && !holds((stored as Record<string, unknown>)[k], v))
    .map(([k]) => k);
  return Object.defineProperty({ ...stored }, 'notApplied', { value: notApplied, enumerable: false }) as UpdatedAssistant;
}

export const CallSchema = serviceRecord('', {
  id: str,
  assistantId: optStr,
  phoneNumberId: optStr,
  createdAt: str,
  updatedAt: optStr,
  type: optStr, // 'outboundPhoneCall' | 'inboundPhoneCall'
  status: optStr, // 'queued' | 'ringing' | 'in-progress' | 'ended'
  customer: serviceRecord('customer.', { number: optStr, name: optStr }).nullish(),
  startedAt: optStr,
  endedAt: optStr,
  endedReason: optStr,
  // The platform gives no duration (startedAt/endedAt), its cost may be only costBreakdown.total
  // and its summary analysis.summary: see viewCall.
  durationSeconds: optNum,
  cost: optNum,
  transcript: optStr,
  messages: z.array(messageSchema('messages[].')).nullish(),
  summary: optStr,
  // The platform's: what the call cost by part, its analysis, and what it left (messages,
  // transcript, recording, per-turn latencies). Read through src/api/records.ts.
  costBreakdown: serviceRecord('costBreakdown.', {
    transport: optNum,
    stt: optNum,
    llm: optNum,
    tts: optNum,
    vapi: optNum,
    chat: optNum,
    total: optNum,
    llmPromptTokens: optNum,
    llmCompletionTokens: optNum,
    ttsCharacters: optNum,
  }).nullish(),
  costs: z.array(serviceRecord('costs[].', { type: optStr, cost: optNum, minutes: optNum })).nullish(),
  analysis: serviceRecord('analysis.', { summary: optStr, structuredData: z.unknown().optional(), successEvaluation: z.unknown().optional() }).nullish(),
  artifact: serviceRecord('artifact.', {
    messages: z.array(messageSchema('artifact.messages[].')).nullish(),
    transcript: optStr,
    recordingUrl: optStr,
    stereoRecordingUrl: optStr,
    performanceMetrics: serviceRecord('artifact.performanceMetrics.', {
      turnLatencies: z
        .array(
          serviceRecord('artifact.performanceMetrics.turnLatencies[].', {
            modelLatency: optNum,
            voiceLatency: optNum,
            transcriberLatency: optNum,
            endpointingLatency: optNum,
            turnLatency: optNum,
          }),
        )
        .nullish(),
      modelLatencyAverage: optNum,
      voiceLatencyAverage: optNum,
      transcriberLatencyAverage: optNum,
      endpointingLatencyAverage: optNum,
      turnLatencyAverage: optNum,
    }).nullish(),
  }).nullish(),
  recordingUrl: optStr,
});
export type Call = z.infer<typeof CallSchema>;

export const ChatSchema = serviceRecord('', {
  id: str,
  externalChatId: optStr,
  sessionId: optStr,
  input: z.unknown().optional(),
  output: z.array(messageSchema('output[].')).nullish(),
  assistantId: optStr,
  status: optStr,
  cost: optNum,
  createdAt: optStr,
  updatedAt: optStr,
  assistantOverrides: z.looseObject({ variableValues: z.record(z.string(), z.unknown()).nullish() }).nullish(),
});
export type Chat = z.infer<typeof ChatSchema>;

export const ChatSessionSchema = serviceRecord('', {
  id: str,
  name: optStr,
  assistantId: optStr,
  status: optStr,
  messages: z.array(messageSchema('messages[].')).nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type ChatSession = z.infer<typeof ChatSessionSchema>;

function serviceRefSchema(prefix: string) {
  return serviceRecord(prefix, { id: optStr, name: optStr });
}

/**
 * A phone number in either shape: the spec's (`did`, a boolean `status`, `service`) or the
 * platform's (Vapi's PhoneNumber: `number`, `name`, `assistantId`, `status` "active" /
 * "activating" / "blocked", `orgId`). Read with numberDid / numberStatus (src/api/records.ts).
 */
export const PhoneNumberSchema = serviceRecord('', {
  id: str,
  accountId: optStr,
  did: optStr,
  number: optStr,
  name: optStr,
  domain: optStr,
  provider: optStr,
  externalId: optStr,
  status: z.union([z.boolean(), z.string()]).nullish(),
  assistantId: optStr, // the assistant linked for inbound calls (sandbox field; null when none); see linkOfNumber
  createdAt: optStr,
  updatedAt: optStr,
  // "The service" object: `organization` on the platform, `service` in our spec; see serviceOfRecord.
  service: serviceRefSchema('service.').nullish(),
  organization: serviceRefSchema('organization.').nullish(),
});
export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;

export const KbFileSchema = serviceRecord('', {
  id: str,
  externalId: optStr,
  name: optStr,
  integrationId: optStr,
  url: optStr,
  bytes: optNum,
  object: optStr,
  purpose: optStr,
  mimetype: optStr,
  bucket: optStr,
  path: optStr,
  status: optStr, // 'processing' | 'done' | 'failed'
  parsedTextUrl: optStr,
  parsedTextBytes: z.union([z.string(), z.number()]).nullish(),
  organizationId: optStr,
  createdAt: optStr,
  updatedAt: optStr,
  service: serviceRefSchema('service.').nullish(),
  organization: serviceRefSchema('organization.').nullish(),
  integration: z.unknown().optional(),
});
export type KbFile = z.infer<typeof KbFileSchema>;

export const PaginationSchema = z.looseObject({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

/** Call-log filters, named in one place; these are the query parameter names of GET /calls. */
export const CALL_FILTER_KEYS = ['id', 'assistantId', 'phoneNumberId', 'limit', 'createdAtGt', 'createdAtLt'] as const;
export interface CallFilters {
  id?: string;
  assistantId?: string;
  phoneNumberId?: string;
  limit?: number;
  /** created on or after (ISO 8601) */
  createdAtGt?: string;
  /** created on or before (ISO 8601) */
  createdAtLt?: string;
  /**
   * The query parameters the two bounds above are sent as, their values unchanged (default: what
   * the client learned, else createdAtGt/createdAtLt); 'none' sends neither. The pager sets it.
   */
  dateFilter?: CallDateFilter | 'none';
}
