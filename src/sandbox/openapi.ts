// The OpenAPI 3.1 document served at GET /openapi.json: every route, body and answer shape the
// sandbox chose where the spec is silent, status values, and the one error shape. The sandbox's
// tests check that each route really answers with the documented top-level keys.
import { CALL_STATUSES, ENDED_REASONS } from './simulate.js';
import { CHAT_STATUSES, SESSION_STATUSES } from './routes/chats.js';
import { FILE_STATUSES, DEFAULT_FILE_PAGE_LIMIT, MAX_FILE_PAGE_LIMIT } from './routes/files.js';
import { DEFAULT_CALL_LIMIT, MAX_CALL_LIMIT } from './routes/calls.js';
import { MODEL_PROVIDERS, MODEL_PROVIDER_NAMES, VOICE_DETAIL_FIELDS, VOICE_PROVIDERS, VOICE_PROVIDER_NAMES } from '../api/catalog.js';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const dateTime: Schema = { type: 'string', format: 'date-time' };
const obj = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

const message = obj({ role: str('system, user or assistant'), content: str() }, ['role', 'content']);
const knowledgeBase = obj({ fileIds: arrayOf(str('a file id from POST /files')) }, ['fileIds']);

const assistantFields: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  status: { type: 'boolean', description: 'active flag' },
  description: { type: 'string', maxLength: 2000 },
  voice: obj(
    {
      provider: { type: 'string', enum: VOICE_PROVIDER_NAMES, description: 'the spec: two voice providers are supported' },
      voiceId: str(),
      model: str(),
      language: str(),
      speed: { type: 'number', minimum: 0.25, maximum: 4 },
    },
    [],
    {
      description: `voiceId, model and language are required for ${VOICE_PROVIDERS.filter((p) => p.needsDetails).map((p) => p.value).join(', ')} (the spec: "required for the second provider")`,
      allOf: VOICE_PROVIDERS.filter((p) => p.needsDetails).map((p) => ({
        if: { properties: { provider: { const: p.value } }, required: ['provider'] },
        then: { required: [...VOICE_DETAIL_FIELDS], properties: Object.fromEntries(VOICE_DETAIL_FIELDS.map((f) => [f, { type: 'string', minLength: 1 }])) },
      })),
    },
  ),
  transcriber: obj({ provider: str(), model: str(), language: str() }),
  model: obj({
    provider: { type: 'string', enum: MODEL_PROVIDER_NAMES, description: 'the spec: a fixed list of five provider families' },
    model: { type: 'string', description: 'one of the model ids of the provider family; needs provider' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    maxTokens: { type: 'integer', minimum: 1 },
    emotionRecognitionEnabled: { type: 'boolean' },
    messages: { ...arrayOf(message), description: 'the `system` message is the prompt; {{variables}} are filled from chat variableValues' },
    knowledgeBase,
  }, [], {
    dependentRequired: { model: ['provider'] },
    allOf: MODEL_PROVIDER_NAMES.map((p) => ({
      if: { properties: { provider: { const: p } }, required: ['provider'] },
      then: { properties: { model: { type: 'string', enum: [...MODEL_PROVIDERS[p]] } } },
    })),
  }),
  firstMessage: str('opening message; may use {{variables}}'),
  firstMessageMode: str('`assistant-speaks-first` opens chat sessions and calls with firstMessage'),
  backgroundSound: str('e.g. `office`'),
  silenceTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
  backgroundDenoisingEnabled: { type: 'boolean' },
  firstMessageInterruptionsEnabled: { type: 'boolean' },
  maxDurationSeconds: { type: 'integer', minimum: 1, maximum: 86400 },
  analysisPlan: { type: 'object', description: 'free-form' },
  knowledgeBase,
  hangupUsingPrompt: obj({ enabled: { type: 'boolean' }, prompt: str() }),
};

const call: Schema = obj(
  {
    id: str(),
    assistantId: str(),
    phoneNumberId: str(),
    createdAt: dateTime,
    updatedAt: { ...dateTime, description: 'the latest point of the timeline reached' },
    type: { type: 'string', enum: ['outboundPhoneCall', 'inboundPhoneCall'] },
    status: {
      type: 'string',
      enum: CALL_STATUSES,
      description: 'outbound: queued (1 s) → ringing (2 s) → in-progress (4–8 s) → ended; inbound starts ringing. Derived from the stored timeline when read.',
    },
    customer: obj({ number: str('E.164'), name: str() }, ['number']),
    startedAt: nullable({ ...dateTime, description: 'when answered; null before, and for unanswered calls' }),
    endedAt: nullable(dateTime),
    endedReason: nullable({ type: 'string', enum: [...ENDED_REASONS] }),
    durationSeconds: { type: 'number', description: 'talk time so far' },
    cost: { type: 'number', description: 'US dollars; 0 until the call ends' },
    summary: nullable(str('set when the call ends')),
    transcript: nullable(str('lines "AI: …" / "User: …"; only in /calls/details and outbound answers')),
    messages: { ...arrayOf({ ...message, properties: { ...(message.properties as object), secondsFromStart: { type: 'number' } } }), description: 'the conversation so far; only in /calls/details and outbound answers' },
  },
  ['id', 'assistantId', 'phoneNumberId', 'createdAt', 'updatedAt', 'type', 'status', 'customer', 'startedAt', 'endedAt', 'endedReason', 'durationSeconds', 'cost', 'summary'],
);

const schemas: Record<string, Schema> = {
  Error: obj(
    { statusCode: { type: 'integer' }, error: str('HTTP reason phrase'), message: str('what was wrong, naming the field') },
    ['statusCode', 'error', 'message'],
  ),
  AssistantInput: obj(assistantFields, [], { additionalProperties: false, description: 'id, createdAt and updatedAt are ignored if sent; other unknown fields are rejected' }),
  Assistant: obj({ id: str(), ...assistantFields, createdAt: dateTime, updatedAt: dateTime }, ['id', 'name', 'createdAt', 'updatedAt']),
  PhoneNumber: obj(
    {
      id: str(),
      accountId: str(),
      did: str('E.164'),
      domain: str('SIP domain'),
      provider: str(),
      externalId: str(),
      status: { type: 'boolean', description: 'active flag' },
      service: obj({ id: str(), name: str() }, ['id', 'name']),
      assistantId: nullable(str('the assistant answering inbound calls')),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'accountId', 'did', 'domain', 'provider', 'externalId', 'status', 'service', 'assistantId', 'createdAt', 'updatedAt'],
  ),
  Call: call,
  ChatSession: obj(
    {
      id: str(),
      name: str(),
      assistantId: str(),
      status: { type: 'string', enum: [...SESSION_STATUSES], description: 'active: takes messages (sandbox sessions never close)' },
      messages: { ...arrayOf(message), description: 'starts with the first message when the assistant speaks first' },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'name', 'assistantId', 'status', 'messages', 'createdAt', 'updatedAt'],
  ),
  Chat: obj(
    {
      id: str(),
      externalChatId: str(),
      sessionId: str(),
      input: str(),
      output: { ...arrayOf(message), description: "the assistant's reply (role assistant)" },
      assistantId: str(),
      status: { type: 'string', enum: [...CHAT_STATUSES], description: 'completed: the reply is in' },
      cost: { type: 'number', description: 'US dollars' },
      createdAt: dateTime,
      updatedAt: dateTime,
      assistantOverrides: obj({ variableValues: { type: 'object', description: 'values in force for this session so far' } }),
    },
    ['id', 'externalChatId', 'sessionId', 'input', 'output', 'assistantId', 'status', 'cost', 'createdAt', 'updatedAt', 'assistantOverrides'],
  ),
  File: obj(
    {
      id: str(),
      externalId: str(),
      name: str('display name: last path segment, control characters removed'),
      integrationId: str(),
      url: str('GET it with the key for the original bytes'),
      bytes: { type: 'integer' },
      object: { const: 'file' },
      purpose: str(),
      mimetype: str('from the file name extension'),
      bucket: str(),
      path: str(),
      status: { type: 'string', enum: [...FILE_STATUSES], description: 'processing → done once text is extracted (text, markdown, CSV, JSON); other types are done without text; failed if extraction failed' },
      parsedTextUrl: nullable(str('the extracted text, with the key')),
      parsedTextBytes: nullable(str('size of the extracted text, as a string')),
      organizationId: str(),
      createdAt: dateTime,
      updatedAt: dateTime,
      service: obj({ id: str(), name: str() }, ['id', 'name']),
      integration: { type: 'object' },
    },
    ['id', 'externalId', 'name', 'url', 'bytes', 'object', 'purpose', 'mimetype', 'status', 'parsedTextUrl', 'parsedTextBytes', 'createdAt', 'updatedAt', 'service'],
  ),
  Pagination: obj(
    { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } },
    ['total', 'page', 'limit', 'totalPages'],
  ),
};

const json = (schema: Schema) => ({ 'application/json': { schema } });
const ok = (description: string, schema: Schema) => ({ description, content: json(schema) });
const errors = (...codes: number[]) =>
  Object.fromEntries(
    [401, ...codes].map((c) => [
      String(c),
      {
        description: {
          400: 'bad input; the message names the field',
          401: 'missing or wrong x-api-key',
          404: 'no such record (the message says which)',
          409: 'the number has no linked assistant',
          413: 'body or upload too large',
          415: 'wrong Content-Type',
        }[c],
        content: json(ref('Error')),
      },
    ]),
  );
const body = (schema: Schema) => ({ required: true, content: json(schema) });
const pathId = (name: string) => ({ name, in: 'path', required: true, schema: str() });
const query = (name: string, description: string, schema: Schema = str()) => ({ name, in: 'query', required: false, description, schema });

const callFilters = [
  query('id', 'call id'),
  query('assistantId', 'calls handled by this assistant'),
  query('phoneNumberId', 'calls on this number'),
  query('createdAtGt', 'created on or after (ISO 8601; a bare date is its start, no zone is UTC)', dateTime),
  query('createdAtLt', 'created on or before (ISO 8601; a bare date is its end, no zone is UTC)', dateTime),
  query('limit', `most records to return (default ${DEFAULT_CALL_LIMIT})`, { type: 'integer', minimum: 1, maximum: MAX_CALL_LIMIT }),
];
const callsEnvelope = obj({ message: str(), calls: arrayOf(ref('Call')) }, ['message', 'calls']);

const paths = {
  '/calls': {
    get: {
      summary: 'List calls, newest first (createdAt desc, id desc); records omit transcript and messages',
      parameters: callFilters,
      responses: { 200: ok('calls', callsEnvelope), ...errors(400) },
    },
  },
  '/calls/details': {
    get: {
      summary: 'Full call records (with transcript and messages), same filters as /calls',
      parameters: callFilters,
      responses: { 200: ok('calls', callsEnvelope), ...errors(400, 404) },
    },
  },
  '/calls/outbound': {
    post: {
      summary: 'Place an outbound call (simulated)',
      requestBody: body(
        obj(
          {
            assistantId: str(),
            phoneNumberId: str(),
            customer: obj({ number: { type: 'string', pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164' }, name: str() }, ['number']),
          },
          ['assistantId', 'phoneNumberId', 'customer'],
        ),
      ),
      responses: { 201: ok('the call, queued', obj({ message: str(), call: ref('Call') }, ['message', 'call'])), ...errors(400, 404, 415) },
    },
  },
  '/chats': {
    post: {
      summary: 'Send a message in a session; the reply comes from the prompt, first message, variables and knowledge-base files',
      requestBody: body(
        obj(
          { sessionId: str(), input: { type: 'string', minLength: 1 }, assistantOverrides: obj({ variableValues: { type: 'object', description: 'fills {{name}} in prompt and first message; kept for the session' } }) },
          ['sessionId', 'input'],
        ),
      ),
      responses: { 201: ok('the exchange', obj({ message: str(), chat: ref('Chat') }, ['message', 'chat'])), ...errors(400, 404, 415) },
    },
  },
  '/sessions': {
    post: {
      summary: 'Start a chat session with an assistant',
      requestBody: body(obj({ name: str('default "Chat with <assistant>"'), assistantId: str() }, ['assistantId'])),
      responses: { 201: ok('the session', obj({ message: str(), session: ref('ChatSession') }, ['message', 'session'])), ...errors(400, 404, 415) },
    },
  },
  '/chats/session/{sessionId}': {
    get: {
      summary: 'A session with its messages',
      parameters: [pathId('sessionId')],
      responses: { 200: ok('the session', obj({ message: str(), session: ref('ChatSession') }, ['message', 'session'])), ...errors(404) },
    },
  },
  '/assistants': {
    post: {
      summary: 'Create an assistant (name required; every field kept as given)',
      requestBody: body({ allOf: [ref('AssistantInput'), { required: ['name'] }] }),
      responses: { 201: ok('created', obj({ message: str(), assistant: ref('Assistant') }, ['message', 'assistant'])), ...errors(400, 413, 415) },
    },
    get: {
      summary: 'All assistants, oldest first',
      responses: { 200: ok('assistants', obj({ assistants: arrayOf(ref('Assistant')) }, ['assistants'])), ...errors() },
    },
  },
  '/assistants/{id}': {
    get: {
      summary: 'One assistant',
      parameters: [pathId('id')],
      responses: { 200: ok('the assistant', obj({ assistant: ref('Assistant') }, ['assistant'])), ...errors(404) },
    },
    patch: {
      summary: 'Change any fields; nested objects are replaced whole',
      parameters: [pathId('id')],
      requestBody: body(ref('AssistantInput')),
      responses: { 200: ok('updated', obj({ message: str(), assistant: ref('Assistant') }, ['message', 'assistant'])), ...errors(400, 404, 415) },
    },
  },
  '/phone-numbers/inbound/setup': {
    post: {
      summary: 'Link an assistant to a number for inbound calls',
      requestBody: body(obj({ assistantId: str(), phoneNumberId: str() }, ['assistantId', 'phoneNumberId'])),
      responses: { 200: ok('linked', obj({ message: str(), phoneNumber: ref('PhoneNumber') }, ['message', 'phoneNumber'])), ...errors(400, 404, 415) },
    },
  },
  '/phone-numbers': {
    get: {
      summary: 'All phone numbers',
      responses: { 200: ok('numbers', obj({ phoneNumbers: arrayOf(ref('PhoneNumber')) }, ['phoneNumbers'])), ...errors() },
    },
  },
  '/files': {
    post: {
      summary: 'Upload a knowledge-base file (multipart part `file`); streamed to disk, size-limited',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: obj({ file: { type: 'string', format: 'binary' } }, ['file']) } } },
      responses: { 201: ok('uploaded; status processing until text is extracted', obj({ message: str(), file: ref('File') }, ['message', 'file'])), ...errors(400, 413, 415) },
    },
    get: {
      summary: 'Files, newest first, by page',
      parameters: [
        query('page', 'from 1', { type: 'integer', minimum: 1 }),
        query('limit', `per page (default ${DEFAULT_FILE_PAGE_LIMIT})`, { type: 'integer', minimum: 1, maximum: MAX_FILE_PAGE_LIMIT }),
      ],
      responses: { 200: ok('a page', obj({ files: arrayOf(ref('File')), pagination: ref('Pagination') }, ['files', 'pagination'])), ...errors(400) },
    },
  },
  '/files/{fileId}': {
    get: {
      summary: 'One file record',
      parameters: [pathId('fileId')],
      responses: { 200: ok('the file', obj({ file: ref('File') }, ['file'])), ...errors(404) },
    },
    delete: {
      summary: "Delete a file's record and bytes; its id is also removed from assistants' knowledge bases",
      parameters: [pathId('fileId')],
      responses: { 200: ok('deleted', obj({ message: str() }, ['message'])), ...errors(404) },
    },
  },
  '/files/{fileId}/content': {
    get: {
      summary: "The file's bytes (its `url`), or with format=text its extracted text (its `parsedTextUrl`)",
      parameters: [pathId('fileId'), query('format', 'text for the extracted text', { type: 'string', enum: ['text'] })],
      responses: { 200: { description: 'the bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, ...errors(400, 404) },
    },
  },
  '/sandbox/ring': {
    post: {
      summary: 'Sandbox only: simulate an inbound call to a DID; the linked assistant answers',
      requestBody: body(obj({ did: str('like +14155550100, or a phone number id') }, ['did'])),
      responses: { 201: ok('the inbound call', obj({ message: str(), call: ref('Call') }, ['message', 'call'])), ...errors(400, 404, 409) },
    },
  },
  '/openapi.json': {
    get: { summary: 'This document (no key needed)', security: [], responses: { 200: { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } },
  },
};

export function openApiDocument(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Agent Service — Switchboard sandbox',
      version: '1',
      description:
        'A local implementation of the Voice Agent Service. Every path but this document needs the x-api-key header. Every error answers { statusCode, error, message }. Uploads are limited in size (413 beyond). Unknown routes answer 404.',
    },
    servers: [{ url: baseUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: { schemas, securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
  };
}
