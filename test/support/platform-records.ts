// Records in the platform's own shapes, generated from its published OpenAPI document (Vapi's
// `fern/apis/api/openapi.json`; the schemas used are extracted, with their source, in
// vapi-openapi-extract.json). Each record is built from its schema: every required property is
// there, and every optional one is present in some records and missing in others (a pattern
// over the record's number, so any four records in a row show both). What a schema cannot say
// (words, times, amounts that add up) comes from the seed. The hosted fixture uses these in its
// `records: 'platform'` variant; other tests may add records here.
//
//   platformCall(seed)       a Call: every message type (UserMessage, BotMessage, SystemMessage,
//                            ToolCallMessage, ToolCallResultMessage), the artifact with its
//                            performance metrics, `costs` and costBreakdown, analysis, customer;
//                            English, Japanese, Chinese and Thai words; tool calls; money as a
//                            decimal string in some records
//   platformNumbers(seed)    phone numbers in the platform's shape (number, name, assistantId,
//                            status "active" / "activating" / "blocked"; one SIP number with no number)
//   platformAccepted(id)     what the platform answers an outbound call: 202 {id, status}
import { readFileSync } from 'node:fs';

type Json = Record<string, unknown>;

interface Schema {
  type?: string;
  enum?: string[];
  format?: string;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  $ref?: string;
  properties?: Record<string, Schema>;
}

// `source`: the document's address at the commit it was extracted from.
const EXTRACT = JSON.parse(readFileSync(new URL('./vapi-openapi-extract.json', import.meta.url), 'utf8')) as {
  source: string;
  schemas: Record<string, Schema>;
};

function schemaOf(name: string): Schema {
  const s = EXTRACT.schemas[name];
  if (!s) throw new Error(`no schema ${name} in the extract`);
  return s;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Whether optional `field` of schema `name` is in record `n`: missing in one record of four, which one depending on the field. */
function optionalPresent(name: string, field: string, n: number): boolean {
  return (hash(`${name}.${field}`) + n) % 4 !== 0;
}

type Given = Record<string, unknown | ((n: number) => unknown)>;

/**
 * A record of schema `name`: required properties always, optional ones by optionalPresent; each
 * value from `given` (a value, or a function of `n`; undefined leaves the property out), else a
 * plain value of the property's type. Properties `given` does not name and the schema has are
 * generated too, so the records carry every field the document describes.
 */
function fromSchema(name: string, n: number, given: Given = {}): Json {
  const s = schemaOf(name);
  const required = new Set(s.required ?? []);
  const out: Json = {};
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (!required.has(key) && !optionalPresent(name, key, n)) continue;
    const g = given[key];
    const value = key in given ? (typeof g === 'function' ? (g as (n: number) => unknown)(n) : g) : plain(prop, key, n);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A value of the property's type when the seed gives none. */
function plain(prop: Schema, key: string, n: number): unknown {
  if (prop.$ref) return fromSchema(prop.$ref.replace('#/components/schemas/', ''), n);
  if (prop.enum?.length) return prop.enum[n % prop.enum.length];
  switch (prop.type) {
    case 'string':
      return prop.format === 'date-time' ? new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString() : `${key}-${n}`;
    case 'number':
      return (n % 7) + 1;
    case 'boolean':
      return n % 2 === 0;
    case 'array':
      return [];
    default:
      return {};
  }
}

/** The conversations, by language: a caller's words, the assistant's, and a summary. */
const CONVERSATIONS = [
  {
    lang: 'en',
    bot: 'Let us book your appointment. Which day suits you?',
    user: 'I need an appointment on Thursday morning for a cleaning.',
    summary: 'The caller booked a cleaning appointment for Thursday.',
  },
  {
    lang: 'ja',
    bot: 'かしこまりました。ご予約番号を教えていただけますか。',
    user: '明日の予約を変更したいです',
    summary: '発信者は明日の予約の変更を希望した。',
  },
  {
    lang: 'zh',
    bot: '好的，请告诉我您的订单号码。',
    user: '我想查询一下我的快递什么时候到',
    summary: '来电者查询了快递的送达时间。',
  },
  {
    lang: 'th',
    bot: 'ได้เลยค่ะ ขอหมายเลขการจองด้วยค่ะ',
    user: 'ฉันต้องการเปลี่ยนเวลานัดหมายของฉัน',
    summary: 'ผู้โทรต้องการเปลี่ยนเวลานัดหมาย',
  },
  {
    lang: 'en',
    bot: 'I can help with your refund. May I have the order number?',
    user: 'Yes, I want a refund for order 4471, the kettle arrived broken.',
    summary: 'The caller asked for a refund of a broken kettle.',
  },
] as const;

/** Whether record `n` calls a tool; its booking reference then is bookingReference(n), only in the tool's arguments and result. */
const callsTool = (n: number) => n % 3 === 0;
const bookingReference = (n: number) => `BK${(7300 + n).toString(36).toUpperCase()}Q`;
/** Whether record `n` sends its money as decimal strings ("0.0018"): `cost` (n % 7 === 6), or the breakdown (n % 7 === 2). */
const decimalCost = (n: number) => n % 7 === 6;
const decimalBreakdown = (n: number) => n % 7 === 2;

export interface PlatformCallSeed {
  /** The record's number (older calls have smaller ones). */
  n: number;
  id: string;
  orgId: string;
  createdAt: number;
  inProgress: boolean;
  noAnswer: boolean;
  assistant: Json;
  number: Json;
  customer: { number: string; name: string };
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/** A Call as the platform sends it, generated from its schema. */
export function platformCall(seed: PlatformCallSeed): Json {
  const { n } = seed;
  const startMs = seed.createdAt + 2000;
  const talk = CONVERSATIONS[n % CONVERSATIONS.length];
  const durationS = seed.noAnswer ? 0 : 45 + ((n * 37) % 300);
  const endMs = startMs + durationS * 1000;
  const ended = !seed.inProgress;

  const messages: Json[] = [];
  const at = (s: number) => ({ time: startMs + s * 1000, secondsFromStart: s });
  messages.push(fromSchema('SystemMessage', n, { role: 'system', message: `You are the ${String(seed.assistant.name)} assistant.`, ...at(0) }));
  const turns: [string, string][] = seed.noAnswer
    ? []
    : [
        ['bot', `Hello, this is the ${String(seed.assistant.name)}. How can I help?`],
        ['user', talk.user],
        ['bot', talk.bot],
      ];
  let s = 1.2;
  const speak = (role: string, text: string, k: number) => {
    const len = 2 + text.length / 15;
    const common = { role, message: text, ...at(s), endTime: startMs + (s + len) * 1000, duration: len * 1000 };
    messages.push(
      role === 'bot'
        ? fromSchema('BotMessage', n + k, { ...common, source: '', assistantName: seed.assistant.name, assistantId: seed.assistant.id })
        : fromSchema('UserMessage', n + k, {
            ...common,
            isFiltered: false,
            detectedThreats: [],
            originalMessage: text,
            metadata: {},
            speakerLabel: 'customer',
          }),
    );
    s += len + 0.8;
  };
  turns.forEach(([role, text], k) => speak(role, text, k));
  if (!seed.noAnswer && callsTool(n)) {
    const toolCallId = `call_${(n * 7919).toString(36)}`;
    const args = JSON.stringify({ reference: bookingReference(n), day: 'Thursday' });
    messages.push(
      fromSchema('ToolCallMessage', n, {
        role: 'tool_calls',
        message: '',
        toolCalls: [
          fromSchema('ToolCall', n, {
            id: toolCallId,
            type: 'function',
            function: fromSchema('ToolCallFunction', n, { name: 'lookup_booking', arguments: args }),
          }),
        ],
        ...at(s),
      }),
    );
    s += 0.9;
    messages.push(
      fromSchema('ToolCallResultMessage', n, {
        role: 'tool_call_result',
        toolCallId,
        name: 'lookup_booking',
        result: JSON.stringify({ status: 'confirmed', reference: bookingReference(n), slot: 'Thursday 10:00' }),
        metadata: {},
        warnings: [],
        ...at(s),
      }),
    );
    s += 0.6;
  }
  if (!seed.noAnswer) speak('user', `Thanks, that settles it. Call ${n} done.`, 3);

  const spoken = messages.filter((m) => m.role === 'bot' || m.role === 'user');
  const transcript = spoken.map((m) => `${m.role === 'bot' ? 'AI' : 'User'}: ${String(m.message)}`).join('\n');
  const total = seed.noAnswer ? 0.01 : round(0.02 + durationS * 0.0011);
  const minutes = round(durationS / 60);
  const money = (x: number) => (decimalBreakdown(n) ? String(round(x)) : round(x));
  const costBreakdown = fromSchema('CostBreakdown', n, {
    transport: money(total * 0.1),
    stt: money(total * 0.2),
    llm: money(total * 0.3),
    tts: money(total * 0.25),
    vapi: money(total * 0.15),
    chat: 0,
    total: money(total),
    llmPromptTokens: 300 + n,
    llmCompletionTokens: 80 + (n % 50),
    llmCachedPromptTokens: n % 40,
    ttsCharacters: transcript.length,
  });
  // Every kind of cost the document lists; `total` always present so the sums stay true.
  costBreakdown.total = money(total);
  const model = { provider: 'openai', model: 'gpt-4o' };
  const costs = [
    fromSchema('TransportCost', n, { type: 'transport', provider: 'twilio', minutes, cost: round(total * 0.1) }),
    fromSchema('TranscriberCost', n, { type: 'transcriber', transcriber: { provider: 'deepgram', model: 'nova-3' }, minutes, cost: round(total * 0.2) }),
    fromSchema('ModelCost', n, {
      type: 'model',
      model,
      promptTokens: 300 + n,
      completionTokens: 80 + (n % 50),
      cachedPromptTokens: n % 40,
      cost: round(total * 0.3),
    }),
    fromSchema('VoiceCost', n, { type: 'voice', voice: { provider: '11labs', voiceId: 'burt' }, characters: transcript.length, cost: round(total * 0.25) }),
    fromSchema('VapiCost', n, { type: 'vapi', subType: 'normal', minutes, cost: round(total * 0.1) }),
    fromSchema('AnalysisCost', n, { type: 'analysis', analysisType: 'summary', model, promptTokens: 200, completionTokens: 40, cost: round(total * 0.05) }),
  ];
  const botTurns = spoken.filter((m) => m.role === 'bot').length;
  const turnLatencies = Array.from({ length: botTurns }, (_, k) =>
    fromSchema('TurnLatency', n + k, {
      modelLatency: 300 + ((n * 13 + k * 29) % 400),
      voiceLatency: 180 + ((n * 7 + k * 11) % 200),
      transcriberLatency: 90 + ((n + k * 5) % 120),
      endpointingLatency: 200 + ((n * 3 + k) % 150),
      turnLatency: 900 + ((n * 17 + k * 31) % 900),
    }),
  );
  const avg = (key: string) => {
    const xs = turnLatencies.map((t) => t[key]).filter((x): x is number => typeof x === 'number');
    return xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : undefined;
  };
  const performanceMetrics = fromSchema('PerformanceMetrics', n, {
    turnLatencies,
    modelLatencyAverage: avg('modelLatency'),
    voiceLatencyAverage: avg('voiceLatency'),
    transcriberLatencyAverage: avg('transcriberLatency'),
    endpointingLatencyAverage: avg('endpointingLatency'),
    turnLatencyAverage: avg('turnLatency'),
    fromTransportLatencyAverage: 20 + (n % 15),
    toTransportLatencyAverage: 25 + (n % 12),
    numUserInterrupted: n % 3,
    numAssistantInterrupted: n % 2,
  });
  const recordingUrl = seed.noAnswer ? undefined : `https://storage.vapi.example/recordings/${seed.id}-mono.wav`;
  const artifact = fromSchema('Artifact', n, {
    messages,
    messagesOpenAIFormatted: spoken.map((m) => ({ role: m.role === 'bot' ? 'assistant' : 'user', content: m.message })),
    recordingUrl,
    stereoRecordingUrl: recordingUrl?.replace('-mono', '-stereo'),
    transcript,
    logUrl: `https://calllogs.vapi.example/${seed.id}.jsonl.gz`,
    performanceMetrics,
    variableValues: { customerName: seed.customer.name },
  });
  const analysis = fromSchema('Analysis', n, {
    summary: seed.noAnswer ? 'The customer did not answer.' : talk.summary,
    structuredData: { intent: talk.lang === 'en' ? 'booking' : 'change', language: talk.lang, ...(callsTool(n) ? { reference: bookingReference(n) } : {}) },
    structuredDataMulti: [],
    successEvaluation: seed.noAnswer ? 'false' : 'true',
  });
  const customer = fromSchema('CreateCustomerDTO', n, { number: seed.customer.number, name: seed.customer.name, email: undefined, externalId: `cus_${n}` });

  return fromSchema('Call', n, {
    id: seed.id,
    orgId: seed.orgId,
    createdAt: new Date(seed.createdAt).toISOString(),
    updatedAt: new Date(seed.inProgress ? startMs + 5000 : endMs + 4000).toISOString(),
    type: ['inboundPhoneCall', 'outboundPhoneCall', 'webCall'][n % 3],
    status: seed.inProgress ? 'in-progress' : 'ended',
    endedReason: ended ? (seed.noAnswer ? 'customer-did-not-answer' : ['customer-ended-call', 'assistant-ended-call', 'silence-timed-out'][n % 3]) : undefined,
    endedMessage: undefined,
    startedAt: new Date(startMs).toISOString(),
    endedAt: ended ? new Date(endMs).toISOString() : undefined,
    cost: ended ? (decimalCost(n) ? total.toFixed(4) : total) : undefined,
    costs: ended ? costs : undefined,
    costBreakdown: ended ? costBreakdown : undefined,
    messages,
    artifact: ended ? artifact : undefined,
    analysis: ended ? analysis : undefined,
    phoneCallProvider: 'twilio',
    phoneCallTransport: 'pstn',
    assistantId: seed.assistant.id,
    phoneNumberId: seed.number.id,
    customer,
    name: undefined,
  });
}

/** The platform's phone numbers (as GET /phone-number lists them): three Twilio numbers and one SIP number. */
export function platformNumbers(seed: { orgId: string; at: string; id: (k: number) => string; assistantIds: string[] }): Json[] {
  const statuses = ['active', 'activating', 'blocked'];
  const dids = ['+14155550100', '+14155550123', '+442038085000'];
  const names = ['Front desk line', 'Billing line', 'London office'];
  const twilio = dids.map((number, k) =>
    fromSchema('TwilioPhoneNumber', k, {
      provider: 'twilio',
      id: seed.id(k + 1),
      orgId: seed.orgId,
      createdAt: seed.at,
      updatedAt: seed.at,
      status: statuses[k],
      name: names[k],
      assistantId: seed.assistantIds[k],
      number,
      twilioAccountSid: `AC${(0x5f3a + k).toString(16)}e2c41`,
      smsEnabled: k === 0,
    }),
  );
  const sip = fromSchema('VapiPhoneNumber', 3, {
    provider: 'vapi',
    id: seed.id(4),
    orgId: seed.orgId,
    createdAt: seed.at,
    updatedAt: seed.at,
    status: 'active',
    number: undefined,
    name: 'Web SIP line',
    assistantId: undefined,
    sipUri: 'sip:frontdesk@sip.vapi.example',
    numberDesiredAreaCode: '415',
  });
  return [...twilio, sip];
}

/** The platform's answer to an outbound call: the call's id and status, nothing else. */
export function platformAccepted(call: Json): { status: number; body: Json } {
  return { status: 202, body: { id: call.id, status: 'queued' } };
}
