// The OpenAPI 3.1 document served at GET /openapi.json: every route, body and answer shape the
// sandbox chose where the spec is silent, status values, and the one error shape. The sandbox's
// tests check that each route really answers with the documented top-level keys.
import { CALL_STATUSES, ENDED_REASONS } from './simulate.js';
import { CHAT_STATUSES, SESSION_STATUSES } from './routes/chats.js';
import { FILE_STATUSES, DEFAULT_FILE_PAGE_LIMIT, MAX_FILE_PAGE_LIMIT } from './routes/files.js';
import { DEFAULT_CALL_LIMIT, MAX_CALL_LIMIT } from './routes/calls.js';
import { DATE_QUERY_PATTERN, SERVER_SET_FIELDS } from './validate.js';
import { WWW_AUTHENTICATE } from './auth.js';
import { CATALOG_SOURCE, MODEL_PROVIDERS, MODEL_PROVIDER_NAMES, VOICE_DETAIL_FIELDS, VOICE_PROVIDERS, VOICE_PROVIDER_NAMES } from '../api/catalog.js';

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
/** An id given in a body or a path: any non-empty string (an unknown one is a 404). */
const idStr = (description?: string): Schema => ({ type: 'string', minLength: 1, ...(description ? { description } : {}) });
/** A record's id, createdAt or updatedAt as read. */
const serverSetId: Schema = { type: 'string', readOnly: true };
const serverSetDate: Schema = { ...dateTime, readOnly: true };
/**
 * id, createdAt and updatedAt in a request body: set by the server, so ignored whatever their
 * value (any JSON value, null and objects included); never stored.
 */
const serverSetInput: Record<string, Schema> = Object.fromEntries(
  SERVER_SET_FIELDS.map((k) => [k, { readOnly: true, description: 'set by the server: ignored if sent, whatever its value' }]),
);
/** An object that keeps keys beyond the listed ones (the hosted service has more than the spec shows). */
const loose = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema =>
  obj(properties, required, { additionalProperties: true, ...extra });

const message = loose({ role: str('system, user or assistant'), content: str() }, ['role', 'content']);
const knowledgeBase = loose({ fileIds: arrayOf(idStr('a file id from POST /files')) }, ['fileIds']);

const assistantFields: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  status: { type: 'boolean', description: 'active flag' },
  description: { type: 'string', maxLength: 2000 },
  voice: loose(
    {
      provider: {
        type: 'string',
        enum: VOICE_PROVIDER_NAMES,
        description: `the reference's voice providers (${CATALOG_SOURCE}); an assistant written before may keep another, and may send it back unchanged`,
      },
      voiceId: str(),
      model: str(),
      language: str(),
      speed: { type: 'number', minimum: 0.25, maximum: 4 },
    },
    [],
    {
      description:
        `voiceId, model and language are required for ${VOICE_PROVIDERS.filter((p) => p.needsDetails)
          .map((p) => p.value)
          .join(', ')} (the reference: "For ` + `Sarvam, voiceId, model, and language are required")`,
      allOf: VOICE_PROVIDERS.filter((p) => p.needsDetails).map((p) => ({
        if: { properties: { provider: { const: p.value } }, required: ['provider'] },
        then: { required: [...VOICE_DETAIL_FIELDS], properties: Object.fromEntries(VOICE_DETAIL_FIELDS.map((f) => [f, { type: 'string', minLength: 1 }])) },
      })),
    },
  ),
  transcriber: loose({ provider: str(), model: str(), language: str() }),
  model: loose(
    {
      provider: {
        type: 'string',
        enum: MODEL_PROVIDER_NAMES,
        description: `the reference's provider families (${CATALOG_SOURCE}); an assistant written before may keep another, and may send it back unchanged`,
      },
      model: { type: 'string', description: 'one of the model ids of the provider family; needs provider' },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      maxTokens: { type: 'integer', minimum: 1 },
      emotionRecognitionEnabled: { type: 'boolean' },
      messages: { ...arrayOf(message), description: 'the `system` message is the prompt; {{variables}} are filled from chat variableValues' },
      knowledgeBase,
    },
    [],
    {
      dependentRequired: { model: ['provider'] },
      allOf: MODEL_PROVIDER_NAMES.map((p) => ({
        if: { properties: { provider: { const: p } }, required: ['provider'] },
        then: { properties: { model: { type: 'string', enum: [...MODEL_PROVIDERS[p]] } } },
      })),
    },
  ),
  firstMessage: str('opening message; may use {{variables}}'),
  firstMessageMode: str('`assistant-speaks-first` opens chat sessions and calls with firstMessage'),
  backgroundSound: str('e.g. `office`'),
  silenceTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
  backgroundDenoisingEnabled: { type: 'boolean' },
  firstMessageInterruptionsEnabled: { type: 'boolean' },
  maxDurationSeconds: { type: 'integer', minimum: 1, maximum: 86400 },
  analysisPlan: { type: 'object', additionalProperties: true, description: 'free-form' },
  knowledgeBase,
  hangupUsingPrompt: loose({ enabled: { type: 'boolean' }, prompt: str() }),
};

/**
 * The fields of an assistant as read: the input's, without the catalogue's enums (an assistant
 * written by an older sandbox keeps the providers it was created with).
 */
const assistantRecordFields: Record<string, Schema> = {
  ...assistantFields,
  voice: loose({ ...(assistantFields.voice as { properties: Record<string, Schema> }).properties, provider: str() }),
  model: loose({ ...(assistantFields.model as { properties: Record<string, Schema> }).properties, provider: str(), model: str() }),
};

const money = (description: string): Schema => ({ type: 'number', description });
/** A call message as the platform (Vapi) gives it: the text in `message`. */
const callMessage: Schema = loose(
  {
    role: { type: 'string', enum: ['bot', 'user', 'system'], description: 'bot: the assistant; user: the caller' },
    message: str(),
    time: { type: 'number', description: 'when it was said, epoch milliseconds' },
    secondsFromStart: { type: 'number', description: 'seconds from the start of the call' },
  },
  ['role', 'message', 'time', 'secondsFromStart'],
);

const call: Schema = obj(
  {
    id: serverSetId,
    assistantId: str(),
    phoneNumberId: str(),
    createdAt: serverSetDate,
    updatedAt: { ...serverSetDate, description: 'the latest point of the timeline reached' },
    type: { type: 'string', enum: ['outboundPhoneCall', 'inboundPhoneCall'] },
    status: {
      type: 'string',
      enum: CALL_STATUSES,
      description: 'outbound: queued (1 s) → ringing (2 s) → in-progress (4–8 s) → ended; inbound starts ringing. Derived from the stored timeline when read.',
    },
    customer: obj({ number: str('E.164'), name: str() }, ['number']),
    startedAt: nullable({
      ...dateTime,
      description: 'when answered; null before, and for unanswered calls. The talk time is endedAt − startedAt (there is no duration field)',
    }),
    endedAt: nullable(dateTime),
    endedReason: nullable({ type: 'string', enum: [...ENDED_REASONS] }),
    cost: money('US dollars; 0 until the call ends'),
    costBreakdown: obj(
      {
        transport: money('placing the call'),
        stt: money('speech-to-text'),
        llm: money('the language model'),
        tts: money('text-to-speech'),
        vapi: money('the platform'),
        total: money("the call's cost"),
      },
      ['total'],
      { additionalProperties: true, description: "the platform's breakdown of cost; all 0 until the call ends" },
    ),
    analysis: loose({ summary: str('set when the call ends') }, [], { description: 'empty until the call ends' }),
    transcript: nullable(str('lines "AI: …" / "User: …"; only in /calls/details and outbound answers')),
    messages: { ...arrayOf(callMessage), description: 'the conversation so far; only in /calls/details and outbound answers' },
  },
  [
    'id',
    'assistantId',
    'phoneNumberId',
    'createdAt',
    'updatedAt',
    'type',
    'status',
    'customer',
    'startedAt',
    'endedAt',
    'endedReason',
    'cost',
    'costBreakdown',
    'analysis',
  ],
  {
    description:
      "The platform's (Vapi's) call record, which the hosted service forwards. No recordingUrl or artifact: the sandbox records no audio, and its messages " +
      'and transcript are at the top level.',
  },
);

const schemas: Record<string, Schema> = {
  Error: obj({ statusCode: { type: 'integer' }, error: str('HTTP reason phrase'), message: str('what was wrong, naming the field') }, [
    'statusCode',
    'error',
    'message',
  ]),
  AssistantInput: obj({ ...assistantFields, ...serverSetInput }, [], {
    additionalProperties: false,
    description:
      'id, createdAt and updatedAt are set by the server: ignored if sent, whatever their value; other unknown fields are rejected, and so is null in any ' +
      'field',
  }),
  AssistantPatch: obj({ ...assistantRecordFields, ...serverSetInput }, [], {
    additionalProperties: false,
    minProperties: 1,
    // At least one field other than the server-set ones, which are ignored.
    not: { propertyNames: { enum: [...SERVER_SET_FIELDS] } },
    description:
      'As AssistantInput, but a voice or model provider (and model) the assistant already has may be sent back unchanged, even one the catalogue no longer ' +
      'lists; a new one must be in the catalogue (400 naming the field and the accepted values otherwise). At least one field to change: {} (or only ' +
      'server-set fields) is a 400',
  }),
  Assistant: obj({ id: serverSetId, ...assistantRecordFields, createdAt: serverSetDate, updatedAt: serverSetDate }, ['id', 'name', 'createdAt', 'updatedAt']),
  PhoneNumber: obj(
    {
      id: serverSetId,
      accountId: str(),
      did: str('E.164'),
      domain: str('SIP domain'),
      provider: str(),
      externalId: str(),
      status: { type: 'boolean', description: 'active flag' },
      organization: obj({ id: str(), name: str() }, ['id', 'name'], {
        description: 'the spec\'s "the service" object, named as the reference names it on files',
      }),
      assistantId: nullable(str('the assistant answering inbound calls')),
      createdAt: serverSetDate,
      updatedAt: serverSetDate,
    },
    ['id', 'accountId', 'did', 'domain', 'provider', 'externalId', 'status', 'organization', 'assistantId', 'createdAt', 'updatedAt'],
  ),
  Call: call,
  ChatSession: obj(
    {
      id: serverSetId,
      name: str(),
      assistantId: str(),
      status: { type: 'string', enum: [...SESSION_STATUSES], description: 'active: takes messages (sandbox sessions never close)' },
      messages: { ...arrayOf(message), description: 'starts with the first message when the assistant speaks first' },
      createdAt: serverSetDate,
      updatedAt: serverSetDate,
    },
    ['id', 'name', 'assistantId', 'status', 'messages', 'createdAt', 'updatedAt'],
  ),
  Chat: obj(
    {
      id: serverSetId,
      externalChatId: str(),
      sessionId: str(),
      input: str(),
      output: { ...arrayOf(message), description: "the assistant's reply (role assistant)" },
      assistantId: str(),
      status: { type: 'string', enum: [...CHAT_STATUSES], description: 'completed: the reply is in' },
      cost: { type: 'number', description: 'US dollars' },
      createdAt: serverSetDate,
      updatedAt: serverSetDate,
      assistantOverrides: obj({ variableValues: { type: 'object', additionalProperties: true, description: 'values in force for this session so far' } }),
      missingVariables: {
        type: 'array',
        items: { type: 'string' },
        description: 'sandbox only: the {{variables}} the reply uses that have no value (left as written, as a hosted service does); absent when none',
      },
    },
    ['id', 'externalChatId', 'sessionId', 'input', 'output', 'assistantId', 'status', 'cost', 'createdAt', 'updatedAt', 'assistantOverrides'],
  ),
  File: obj(
    {
      id: serverSetId,
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
      status: {
        type: 'string',
        enum: [...FILE_STATUSES],
        description: 'processing → done once text is extracted (text, markdown, CSV, JSON); other types are done without text; failed if extraction failed',
      },
      parsedTextUrl: nullable(str('the extracted text, with the key')),
      parsedTextBytes: nullable(str('size of the extracted text, as a string')),
      organizationId: str(),
      createdAt: serverSetDate,
      updatedAt: serverSetDate,
      organization: obj({ id: str(), name: str() }, ['id', 'name'], {
        description: 'the spec\'s "the service" object; the reference (docs.callhq.ai list files) names it organization',
      }),
      integration: { type: 'object', additionalProperties: true, description: 'free-form' },
    },
    [
      'id',
      'externalId',
      'name',
      'url',
      'bytes',
      'object',
      'purpose',
      'mimetype',
      'status',
      'parsedTextUrl',
      'parsedTextBytes',
      'createdAt',
      'updatedAt',
      'organization',
    ],
  ),
  Pagination: obj({ total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } }, [
    'total',
    'page',
    'limit',
    'totalPages',
  ]),
};

const json = (schema: Schema) => ({ 'application/json': { schema } });
/** A success message as the reference (docs.callhq.ai api-reference) words it. */
const said = (text: string): Schema => ({ type: 'string', const: text });
const ok = (description: string, schema: Schema) => ({ description, content: json(schema) });

const authenticateHeader: Schema = {
  description: `the scheme and where the key goes: ${WWW_AUTHENTICATE}`,
  required: true,
  schema: { type: 'string', const: WWW_AUTHENTICATE },
};

const ERROR_MEANING: Record<number, string> = {
  400:
    'bad input: a field, a query parameter (unknown ones included), an empty id (in the path, a body or a filter: "<name> must not be empty"), or a ' +
    'malformed body or URL; the message names it',
  401: 'missing or wrong x-api-key; the answer carries WWW-Authenticate naming the header',
  404: 'no such record (the message says which)',
  409: 'the number has no linked assistant',
  413: 'body or upload too large (the connection is closed after the answer)',
  414: 'an id in the path is too long',
  415: 'wrong Content-Type',
  500: 'the sandbox failed unexpectedly (the message says where its log is)',
  503: 'the sandbox is shutting down',
};

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: Schema[];
  requestBody?: Schema;
  /** The success status and its answer. */
  success: [number, Schema];
  /** Statuses beyond the ones every operation of its kind can answer. */
  extraErrors?: number[];
  public?: boolean;
}

/**
 * One operation, with every status it can answer: 400 (unknown query parameters are refused
 * everywhere), 503 while closing; 401 unless public; 404 and 414 with an id in the path;
 * 413 and 415 where a body is read (Fastify reads bodies of every method but GET and HEAD).
 */
function operation(method: string, spec: OperationSpec): Schema {
  const codes = new Set([400, 503, ...(spec.extraErrors ?? [])]);
  if (!spec.public) codes.add(401);
  if (spec.parameters?.some((p) => p.in === 'path')) [404, 414].forEach((c) => codes.add(c));
  if (method !== 'get') [413, 415].forEach((c) => codes.add(c));
  const errors = Object.fromEntries(
    [...codes]
      .sort()
      .map((c) => [
        String(c),
        { description: ERROR_MEANING[c], ...(c === 401 ? { headers: { 'WWW-Authenticate': authenticateHeader } } : {}), content: json(ref('Error')) },
      ]),
  );
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.public ? { security: [] } : {}),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { [String(spec.success[0])]: spec.success[1], ...errors },
  };
}

const body = (schema: Schema) => ({ required: true, content: json(schema) });
const pathId = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description: `${description}; empty is a 400 ("${name} must not be empty")`,
  schema: { type: 'string', minLength: 1, maxLength: 1000 },
});
const query = (name: string, description: string, schema: Schema = str()) => ({ name, in: 'query', required: false, description, schema });

const REAL_DATES =
  'Real dates only (the pattern is the check the server applies): ' +
  '2026-02-30, hour 24 or 25, minute 60 and a zone beyond ±23:59 are a 400 naming the parameter.';
const callFilters = [
  query('id', 'only the call with this id (no match: an empty list)', idStr()),
  query('assistantId', 'calls handled by this assistant', idStr()),
  query('phoneNumberId', 'calls on this number', idStr()),
  query('createdAtGt', `created on or after: a date (its start) or a date-time; no zone is UTC. ${REAL_DATES}`, {
    type: 'string',
    pattern: DATE_QUERY_PATTERN,
    examples: ['2026-11-01', '2026-11-01T09:30:00Z', '2026-11-01T09:30'],
  }),
  query('createdAtLt', `created on or before: a date (its end) or a date-time; no zone is UTC. ${REAL_DATES}`, {
    type: 'string',
    pattern: DATE_QUERY_PATTERN,
    examples: ['2026-11-30', '2026-11-30T18:00:00+01:00'],
  }),
  query('limit', `most records to return (default ${DEFAULT_CALL_LIMIT})`, { type: 'integer', minimum: 1, maximum: MAX_CALL_LIMIT }),
];
const callsEnvelope = obj({ message: str(), calls: arrayOf(ref('Call')) }, ['message', 'calls']);
/** A body that refuses unknown fields; id, createdAt and updatedAt are server-set and ignored. */
const strictBody = (properties: Record<string, Schema>, required: string[]) =>
  obj({ ...properties, ...serverSetInput }, required, { additionalProperties: false });
const freeForm = (description: string): Schema => ({ type: 'object', additionalProperties: true, description });

const paths = {
  '/calls': {
    get: operation('get', {
      operationId: 'listCalls',
      tag: 'Calls',
      summary: 'List calls, newest first',
      description: 'Ordered by createdAt, then id, descending; records omit transcript and messages (GET /calls/details has them).',
      parameters: callFilters,
      success: [200, ok('calls', callsEnvelope)],
    }),
  },
  '/calls/details': {
    get: operation('get', {
      operationId: 'listCallDetails',
      tag: 'Calls',
      summary: 'Full call records, same filters as /calls',
      description: 'With transcript and messages. `id` filters like the other parameters: an unknown id answers an empty list.',
      parameters: callFilters,
      success: [200, ok('calls', callsEnvelope)],
      extraErrors: [500],
    }),
  },
  '/calls/outbound': {
    post: operation('post', {
      operationId: 'placeOutboundCall',
      tag: 'Calls',
      summary: 'Place an outbound call (simulated)',
      description:
        'The call is queued, rings and is answered on a simulated timeline; read it back with GET /calls or /calls/details. An unknown assistant or number ' +
        'is a 404.',
      requestBody: body(
        strictBody(
          {
            assistantId: idStr(),
            phoneNumberId: idStr(),
            customer: obj({ number: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164' }, name: str() }, ['number'], {
              additionalProperties: true,
            }),
          },
          ['assistantId', 'phoneNumberId', 'customer'],
        ),
      ),
      success: [201, ok('the call, queued', obj({ message: str(), call: ref('Call') }, ['message', 'call']))],
      extraErrors: [404],
    }),
  },
  '/chats': {
    post: operation('post', {
      operationId: 'sendChatMessage',
      tag: 'Chat',
      summary: 'Send a message in a session',
      description: 'The reply comes from the prompt, first message, variables and knowledge-base files.',
      requestBody: body(
        strictBody(
          {
            sessionId: idStr(),
            input: { type: 'string', minLength: 1 },
            assistantOverrides: obj(
              {
                variableValues: freeForm(
                  'fills {{name}} in prompt and first message; kept for the session. {{now}}, {{date}}, {{time}}, {{year}}, {{month}} and {{day}} are filled ' +
                    'from the clock (UTC) unless given',
                ),
              },
              [],
              { additionalProperties: true },
            ),
          },
          ['sessionId', 'input'],
        ),
      ),
      success: [
        201,
        ok(
          'the exchange',
          obj(
            {
              message: str('"Chat message sent successfully", then, when the reply uses a variable with no value, which ones ("; {{company}} has no value …")'),
              chat: ref('Chat'),
            },
            ['message', 'chat'],
          ),
        ),
      ],
      extraErrors: [404],
    }),
  },
  '/sessions': {
    post: operation('post', {
      operationId: 'createChatSession',
      tag: 'Chat',
      summary: 'Start a chat session with an assistant',
      description: 'The session starts with the first message when the assistant speaks first. An unknown assistant is a 404.',
      requestBody: body(strictBody({ name: str('default "Chat with <assistant>"'), assistantId: idStr() }, ['assistantId'])),
      success: [201, ok('the session', obj({ message: said('Session created successfully'), session: ref('ChatSession') }, ['message', 'session']))],
      extraErrors: [404],
    }),
  },
  '/chats/session/{sessionId}': {
    get: operation('get', {
      operationId: 'getChatSession',
      tag: 'Chat',
      summary: 'A session with its messages',
      description: 'Every message so far, oldest first.',
      parameters: [pathId('sessionId', 'chat session id')],
      success: [200, ok('the session', obj({ message: str(), session: ref('ChatSession') }, ['message', 'session']))],
    }),
  },
  '/assistants': {
    post: operation('post', {
      operationId: 'createAssistant',
      tag: 'Assistants',
      summary: 'Create an assistant',
      description: 'name is required; every field is kept as given. null is no value of any field.',
      requestBody: body({ allOf: [ref('AssistantInput'), { required: ['name'] }] }),
      success: [
        201,
        ok('Assistant created successfully', obj({ message: said('Assistant created successfully'), assistant: ref('Assistant') }, ['message', 'assistant'])),
      ],
    }),
    get: operation('get', {
      operationId: 'listAssistants',
      tag: 'Assistants',
      summary: 'All assistants, oldest first',
      description: 'Every assistant, unpaged, ordered by createdAt.',
      success: [200, ok('assistants', obj({ assistants: arrayOf(ref('Assistant')) }, ['assistants']))],
    }),
  },
  '/assistants/{id}': {
    get: operation('get', {
      operationId: 'getAssistant',
      tag: 'Assistants',
      summary: 'One assistant',
      description: 'The assistant as stored; an unknown id is a 404.',
      parameters: [pathId('id', 'assistant id')],
      success: [200, ok('the assistant', obj({ assistant: ref('Assistant') }, ['assistant']))],
    }),
    patch: operation('patch', {
      operationId: 'updateAssistant',
      tag: 'Assistants',
      summary: 'Change fields of an assistant',
      description:
        'The spec says the hosted service updates only name, status and description locally. The sandbox has no upstream and applies every field; nested ' +
        'objects are replaced whole. Read the assistant back to see what a service applied (the Switchboard client does, and reports fields not applied). ' +
        'The body names at least one field to change ({} is a 400).',
      parameters: [pathId('id', 'assistant id')],
      requestBody: body(ref('AssistantPatch')),
      success: [
        200,
        ok('Assistant updated successfully', obj({ message: said('Assistant updated successfully'), assistant: ref('Assistant') }, ['message', 'assistant'])),
      ],
    }),
  },
  '/phone-numbers/inbound/setup': {
    post: operation('post', {
      operationId: 'setUpInboundNumber',
      tag: 'Phone numbers',
      summary: 'Link an assistant to a number for inbound calls',
      description:
        'Inbound calls to the number are answered by the assistant from then on. The spec lists 400 (fields missing), 404 (assistant or number not found) ' +
        'and 500 (failure to set up the inbound agent).',
      requestBody: body(obj({ assistantId: idStr(), phoneNumberId: idStr(), ...serverSetInput }, ['assistantId', 'phoneNumberId'])),
      success: [
        200,
        ok(
          'Inbound agent configured successfully',
          obj({ message: said('Inbound agent configured successfully'), phoneNumber: ref('PhoneNumber') }, ['message', 'phoneNumber']),
        ),
      ],
      extraErrors: [404, 500],
    }),
  },
  '/phone-numbers': {
    get: operation('get', {
      operationId: 'listPhoneNumbers',
      tag: 'Phone numbers',
      summary: 'All phone numbers',
      description: 'Every number of the account with the assistant linked for inbound calls (or null). The spec lists 500 for an error fetching them.',
      success: [200, ok('numbers', obj({ phoneNumbers: arrayOf(ref('PhoneNumber')) }, ['phoneNumbers']))],
      extraErrors: [500],
    }),
  },
  '/files': {
    post: operation('post', {
      operationId: 'uploadFile',
      tag: 'Files',
      summary: 'Upload a knowledge-base file',
      description:
        'One multipart part named `file`; streamed to disk, size-limited. Other parts are ignored (at most 10 fields); a second file part is refused. A ' +
        'refused upload leaves nothing.',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: obj(
              {
                file: {
                  type: 'string',
                  format: 'binary',
                  contentMediaType: 'application/octet-stream',
                  description: 'the file; its name gives the display name and mimetype',
                },
              },
              ['file'],
            ),
            encoding: { file: { contentType: '*/*' } },
          },
        },
      },
      success: [
        201,
        ok('uploaded; status processing until text is extracted', obj({ message: said('File uploaded successfully'), file: ref('File') }, ['message', 'file'])),
      ],
    }),
    get: operation('get', {
      operationId: 'listFiles',
      tag: 'Files',
      summary: 'Files, newest first, by page',
      description: 'One page of file records with the pagination; a page past the last is an empty list.',
      parameters: [
        query('page', 'from 1 (default 1)', { type: 'integer', minimum: 1, maximum: 1_000_000 }),
        query('limit', `per page (default ${DEFAULT_FILE_PAGE_LIMIT}, as the reference gives it; at most ${MAX_FILE_PAGE_LIMIT})`, {
          type: 'integer',
          minimum: 1,
          maximum: MAX_FILE_PAGE_LIMIT,
        }),
      ],
      success: [200, ok('a page', obj({ files: arrayOf(ref('File')), pagination: ref('Pagination') }, ['files', 'pagination']))],
    }),
  },
  '/files/{fileId}': {
    get: operation('get', {
      operationId: 'getFile',
      tag: 'Files',
      summary: 'One file record',
      description: 'The record with its extraction status; an unknown id is a 404.',
      parameters: [pathId('fileId', 'file id')],
      success: [200, ok('the file', obj({ file: ref('File') }, ['file']))],
    }),
    delete: operation('delete', {
      operationId: 'deleteFile',
      tag: 'Files',
      summary: 'Delete a file',
      description:
        "Removes the record and bytes; its id is also removed from assistants' knowledge bases. Takes no body (an empty one with any Content-Type is fine).",
      parameters: [pathId('fileId', 'file id')],
      success: [200, ok('deleted', obj({ message: said('File deleted successfully') }, ['message']))],
    }),
  },
  '/files/{fileId}/content': {
    get: operation('get', {
      operationId: 'getFileContent',
      tag: 'Files',
      summary: "A file's bytes, or its extracted text",
      description: "The file's `url` answers its bytes with its mimetype; with format=text (its `parsedTextUrl`) the extracted text as text/plain.",
      parameters: [pathId('fileId', 'file id'), query('format', 'text for the extracted text', { type: 'string', enum: ['text'] })],
      success: [
        200,
        { description: 'the bytes', content: { '*/*': { schema: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' } } } },
      ],
    }),
  },
  '/sandbox/ring': {
    post: operation('post', {
      operationId: 'ringSandboxNumber',
      tag: 'Sandbox',
      summary: 'Simulate an inbound call (sandbox only)',
      description:
        'Rings a DID; the linked assistant answers. Without a DID: the next number with an assistant linked, in turn. ' +
        'An inactive assistant (`status: false`) answers no calls: the call rings and ends unanswered, with no messages and ' +
        "`endedReason: assistant-not-valid` (sandbox choice: the nearest of the platform's ended reasons, Vapi API reference, Call.endedReason, " +
        'https://docs.vapi.ai/api-reference/calls/get; the hosted reference does not say what an inactive assistant does with a call).',
      requestBody: body(strictBody({ did: idStr('like +14155550100, or a phone number id; default: the next linked number') }, [])),
      success: [201, ok('the inbound call', obj({ message: str(), call: ref('Call') }, ['message', 'call']))],
      extraErrors: [404, 409],
    }),
  },
  '/openapi.json': {
    get: operation('get', {
      operationId: 'getOpenApiDocument',
      tag: 'Sandbox',
      summary: 'This document',
      description: 'Needs no key (GET or HEAD).',
      public: true,
      success: [200, { description: 'OpenAPI 3.1', content: json({ type: 'object', additionalProperties: true }) }],
    }),
  },
};

const tags = [
  { name: 'Calls', description: 'Call records and outbound calls (simulated)' },
  { name: 'Chat', description: 'Text sessions with an assistant' },
  { name: 'Assistants', description: 'Voice AI assistants' },
  { name: 'Phone numbers', description: 'Numbers and their inbound assistant' },
  { name: 'Files', description: 'Knowledge-base files' },
  { name: 'Sandbox', description: 'Sandbox only: not part of the hosted service' },
];

export function openApiDocument(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Agent Service — Switchboard sandbox',
      version: '1',
      description:
        `A local implementation of the Voice Agent Service. Every path but this document needs the x-api-key header. Every error answers { statusCode, ` +
        `error, message }. Every route refuses query parameters it does not document (400 naming them). Every GET also answers HEAD. Bodies are limited in ` +
        `size (413 beyond). id, createdAt and updatedAt are set by the server: in a request body they are ignored whatever their value (readOnly). An ` +
        `empty id is a 400 ("<name> must not be empty"). Unknown paths answer 404; a method a path does not serve answers 405 with Allow listing the ones ` +
        `it does. A 401 carries WWW-Authenticate: ${WWW_AUTHENTICATE}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'this sandbox' }],
    security: [{ apiKey: [] }],
    tags,
    paths,
    components: { schemas, securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
  };
}
