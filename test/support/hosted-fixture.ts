// A second service for the tests: the hosted Voice Agent Service as its public references
// describe it (the callhq API reference, and Vapi's API reference for the records it forwards),
// written from those references and not from our sandbox. Nothing here comes from src/.
// Each choice the references leave open is a switchable variant; the digest of the references,
// with their addresses, is notes/references.md on the helpers' side and the comments below.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { platformAccepted, platformCall, platformNumbers } from './platform-records.js';

/** How a single record comes back. `documented`: as the callhq reference shows where it shows one. */
type SingleEnvelope = 'documented' | 'bare' | 'named' | 'data' | 'messageData' | 'messageNamed';
/** How a list comes back. `documented`: as the callhq reference shows, bare (Vapi's way) where it is silent. */
type ListEnvelope = 'documented' | 'bare' | 'named' | 'data' | 'items' | 'results';
type PageCap = 'none' | 'silent' | 'refuse';
/**
 * vapi: createdAtGt/createdAtLt strict, createdAtGe/createdAtLe inclusive (Vapi's List Calls).
 * inclusive: createdAtGt/createdAtLt inclusive (Ge/Le too).
 * renamed: createdAfter/createdBefore (inclusive); createdAt* ignored.
 * ignored: no date filter at all.
 */
type DateFilters = 'vapi' | 'inclusive' | 'renamed' | 'ignored';
/** nested {error:{message,code}}, string "…", array ["…"], errors {errors:[{message}]}, html page, plain {statusCode,error,message}. */
type ErrorStyle = 'nested' | 'string' | 'array' | 'errors' | 'html' | 'plain';

export interface FixtureVariant {
  /**
   * The records' shapes. callhq: calls as the callhq reference shows Vapi's, numbers in its own
   * shape (did, boolean status, organization). platform: calls and numbers generated from the
   * platform's OpenAPI document (platform-records.ts: every message type, tool calls, costs,
   * analysis, performance metrics, decimal-string money, CJK and Thai words, every optional field
   * missing somewhere), and an outbound call answered 202 {id, status}.
   */
  records: 'callhq' | 'platform';
  single: SingleEnvelope;
  list: ListEnvelope;
  pageCap: PageCap;
  /** The cap for `silent` and `refuse`. */
  pageCapSize: number;
  dateFilters: DateFilters;
  errors: ErrorStyle;
  /** POST /phone-numbers/inbound/setup answers 200 text/plain. */
  textPlainSuccess: boolean;
  /** Session messages (GET /chats/session/{id}) carry no `role`. */
  messagesWithoutRole: boolean;
  /** How many calls are seeded. */
  calls: number;
  /** createdAt of the newest seeded call (ISO). */
  newest: string;
  /** Seconds between consecutive seeded calls. */
  spacingSeconds: number;
  /**
   * A hostile service: every string it sends (names, prompts, transcripts, messages, summaries,
   * file names, DIDs, URLs, error messages, success texts) ends in ESCAPE_CORPUS. Ids, dates and
   * the few enum fields stay plain, because commands address records by the ids the tests pass
   * and parse dates and roles; instead one extra record of each kind has an id that carries the
   * corpus (ID_CORPUS), so ids are shown hostile too.
   */
  hostile: boolean;
  /**
   * What the chat answers instead of its echo, given the session's assistant's system prompt, the
   * input and how many inputs the session had before (a language model that answers differently).
   * Undefined from it: the echo.
   */
  chatReply?: (systemPrompt: string, input: string, before: number) => string | undefined;
  /**
   * How each call record of GET /calls and /calls/details is written (default: JSON.stringify): a
   * service's own key order, escapes, number spellings and spacing. Not with `hostile`.
   */
  callText?: (call: Json) => string;
  /** Every request is answered this many ms after it arrived (a service far away). */
  latencyMs: number;
  /**
   * At most `perSecond` requests in any second (those past it answered 429 with Retry-After);
   * with `headers`, every answer carries X-RateLimit-Limit, -Remaining and -Reset (seconds).
   */
  rateLimit?: { perSecond: number; headers: boolean };
}

const DEFAULT_VARIANT: FixtureVariant = {
  records: 'callhq',
  single: 'documented',
  list: 'documented',
  pageCap: 'none',
  pageCapSize: 100,
  dateFilters: 'vapi',
  errors: 'plain',
  textPlainSuccess: false,
  messagesWithoutRole: false,
  calls: 40,
  newest: '2026-11-20T12:00:00.000Z',
  spacingSeconds: 420,
  hostile: false,
  latencyMs: 0,
};

/**
 * Every kind of text that could drive a terminal, each next to a marker word: ESC alone, SGR, a
 * screen clear, OSC 52 (clipboard write), OSC 8 (hyperlink), OSC 0 (title), DCS, C1 CSI and NEL,
 * the bidi embeddings, overrides and isolates, the line and paragraph separators, CR, BS, BEL.
 */
const ESCAPE_PIECES: readonly string[] = [
  '\u001b7SAVE',
  '\u001b[35;7mSGR',
  '\u001b[2JCLR',
  '\u001b]52;c;Q0xJUEJPQVJE\u0007',
  '\u001b]8;;http://x.test/\u001b\\LINK\u001b]8;;\u001b\\',
  '\u001b]0;TITLE\u0007',
  '\u001bP1$qmDCS\u001b\\',
  '\u009b2JCSI1',
  'N\u0085EL',
  '\u202aLRE\u202bRLE\u202cPDF\u202dLRO\u202eRLO',
  '\u2066LRI\u2067RLI\u2068FSI\u2069PDI',
  'LS\u2028SEP',
  'PS\u2029SEP',
  'C\rRET',
  'B\bBS',
  'BEL\u0007L',
];
export const ESCAPE_CORPUS = ESCAPE_PIECES.join('');
/** The corpus as an id may carry it: no slash, so a record's id stays one path segment. */
export const ID_CORPUS = ESCAPE_CORPUS.replace(/\//g, '');

// Fields that stay plain on a hostile service: ids (addressed by commands), dates (parsed),
// and roles and statuses and kinds (the client's shapes switch on them).
const PLAIN_KEY = /^(id|\w*Id|\w*At|role|status|type|object|purpose|mimetype|time)$/;

/** `value` with the corpus appended to every string not under a PLAIN_KEY. */
function poison(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return PLAIN_KEY.test(key) ? value : `${value}${ESCAPE_CORPUS}`;
  if (Array.isArray(value)) return value.map((v) => poison(v, key));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  return value;
}

/** Vapi's default `limit` for List Calls. */
const VAPI_DEFAULT_CALL_LIMIT = 100;
/** callhq's GET /files defaults. */
const FILES_DEFAULT_PAGE = 1;
const FILES_DEFAULT_LIMIT = 10;

interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

/** An answer forced on the next matching requests (a test's way to make the service fail). */
interface Fault {
  method?: string;
  /** The path (without query) or a pattern it must match. */
  path: string | RegExp;
  status: number;
  message: string;
  /** How many requests it answers (default: all). */
  times?: number;
}

type Json = Record<string, unknown>;
/** Where the records' own texts go in a list written with `callText`. */
const RECORDS = '\u0000records';

export interface HostedFixture {
  url: string;
  apiKey: string;
  /** The options in force; change fields to switch variants on a running fixture. */
  variant: FixtureVariant;
  requests: LoggedRequest[];
  /** Every call record held, newest first (Vapi's Call object). */
  calls: Json[];
  assistants: Json[];
  phoneNumbers: Json[];
  files: Json[];
  sessions: Json[];
  chats: Json[];
  /** Each successful inbound setup, in order. */
  links: { assistantId: string; phoneNumberId: string }[];
  /** Each PATCH /assistants/{id} body as sent (only name, status, description are applied). */
  patches: { id: string; body: Json }[];
  faults: Fault[];
  /** GET /calls and /calls/details answered: the query as sent and the status, in the order answered. */
  callPages: { query: string; status: number }[];
  /** The most requests the fixture held at once (in its latency or answering). */
  inFlightMax: number;
  /** The call with this id, as held. */
  call(id: string): Json | undefined;
  /** Requests whose path is `path` (the query ignored). */
  requestsTo(path: string, method?: string): LoggedRequest[];
  close(): Promise<void>;
}

const ORG = { id: 'org_7f3a9c21', name: 'Acme Front Desk' };
const ORG_ID = ORG.id;
const ALWAYS_SEEN_AT = '2026-09-01T08:00:00.000Z';

const TOPICS = [
  { word: 'refund', bot: 'I can help with your refund. May I have the order number?', user: 'Yes, I want a refund for order 4471, the kettle arrived broken.' },
  { word: 'appointment', bot: 'Let us book your appointment. Which day suits you?', user: 'I need an appointment on Thursday morning for a cleaning.' },
  { word: 'invoice', bot: 'I see your invoice from last month. What looks wrong?', user: 'The invoice charges me twice for the same delivery.' },
  { word: 'delivery', bot: 'Your delivery is on the van today.', user: 'When will my delivery arrive? I am out after five.' },
  { word: 'password', bot: 'I can send a password reset link to your email.', user: 'I forgot my password and the account is locked.' },
  { word: 'cancellation', bot: 'I have noted the cancellation of your subscription.', user: 'Please process a cancellation, I am moving abroad.' },
];
const ENDED_REASONS = ['customer-ended-call', 'assistant-ended-call', 'customer-did-not-answer', 'silence-timed-out', 'customer-busy'];
const TYPES = ['inboundPhoneCall', 'outboundPhoneCall', 'webCall'];
const CUSTOMERS = [
  { number: '+14155550101', name: 'Dana Whitfield' },
  { number: '+442071838750', name: 'Olu Adeyemi' },
  { number: '+919812345678', name: 'Priya Raman' },
  { number: '+14155550199', name: 'Marco Ruiz' },
  { number: '+61291234567', name: 'Kim Tran' },
];

function uuid(prefix: string, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${prefix}-4c1e-4a7b-9d2f-${hex}`;
}

function seedAssistants(): Json[] {
  const names = ['Front Desk', 'Billing Line', 'Courier Desk', 'After Hours'];
  return names.map((name, i) => ({
    id: uuid('a5515a27', i + 1),
    orgId: ORG_ID,
    name,
    status: i !== 3,
    description: `${name} assistant`,
    voice:
      i % 2 === 0
        ? { provider: '11labs', voiceId: 'burt', speed: 1 }
        : { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en', speed: 1 },
    transcriber: { provider: 'deepgram', model: 'nova-3', language: 'en' },
    model: {
      provider: 'openai',
      model: ['gpt-4o', 'gpt-4.1-mini', 'gpt-4o-mini', 'gpt-4.1'][i],
      temperature: 0.5,
      maxTokens: 250,
      emotionRecognitionEnabled: false,
      messages: [{ role: 'system', content: `You are the ${name} assistant of Acme.` }],
    },
    firstMessage: `Hello, this is the ${name}. How can I help?`,
    firstMessageMode: 'assistant-speaks-first',
    backgroundSound: 'office',
    silenceTimeoutSeconds: 10,
    backgroundDenoisingEnabled: true,
    firstMessageInterruptionsEnabled: false,
    maxDurationSeconds: 3600,
    createdAt: ALWAYS_SEEN_AT,
    updatedAt: ALWAYS_SEEN_AT,
  }));
}

function seedNumbers(): Json[] {
  const dids = ['+14155550100', '+14155550123', '+442038085000'];
  return dids.map((did, i) => ({
    id: uuid('9e0b7c11', i + 1),
    accountId: 'acct_55d1',
    did,
    domain: 'sip.acme-voice.example',
    provider: i === 2 ? 'plivo' : 'twilio',
    externalId: `PN${(4000 + i).toString(16)}e2`,
    status: true,
    createdAt: ALWAYS_SEEN_AT,
    updatedAt: ALWAYS_SEEN_AT,
    organization: ORG,
  }));
}

function fileRecord(n: number, name: string, bytes: number, mimetype: string, createdAt: string): Json {
  const id = uuid('f11e0000', n);
  return {
    id,
    externalId: uuid('0bf1e5a0', n),
    name,
    originalName: name,
    integrationId: 'int_s3_01',
    url: `https://storage.acme-voice.example/files/${id}/${encodeURIComponent(name)}`,
    bytes,
    object: 'file',
    purpose: 'assistant',
    mimetype,
    bucket: 'acme-kb',
    path: `kb/${id}`,
    status: 'done',
    parsedTextUrl: `https://storage.acme-voice.example/files/${id}/parsed.txt`,
    parsedTextBytes: String(Math.round(bytes * 0.8)),
    organizationId: ORG_ID,
    createdAt,
    updatedAt: createdAt,
    organization: ORG,
    integration: {},
  };
}

function seedFiles(): Json[] {
  const out: Json[] = [];
  const base = Date.parse('2026-10-01T09:00:00.000Z');
  for (let i = 23; i >= 1; i--) {
    out.push(fileRecord(i, `kb-${String(i).padStart(2, '0')}.md`, 1000 + i * 37, 'text/markdown', new Date(base + i * 3600_000).toISOString()));
  }
  return out;
}

/** Indexes (newest first) that share one createdAt: three around each boundary of 100, and 19-21 for small seeds. */
function tieGroups(n: number): number[][] {
  const groups: number[][] = [];
  if (n >= 22) groups.push([19, 20, 21]);
  for (let b = 100; b + 1 < n; b += 100) groups.push([b - 1, b, b + 1]);
  return groups;
}

function seedCalls(v: FixtureVariant, assistants: Json[], numbers: Json[]): Json[] {
  const newest = Date.parse(v.newest);
  const created: number[] = [];
  for (let i = 0; i < v.calls; i++) created.push(newest - i * v.spacingSeconds * 1000);
  for (const g of tieGroups(v.calls)) for (const i of g) created[i] = created[g[0]];
  const calls: Json[] = [];
  for (let i = 0; i < v.calls; i++) {
    const n = v.calls - i; // older calls have smaller numbers
    const topic = TOPICS[n % TOPICS.length];
    const customer = CUSTOMERS[n % CUSTOMERS.length];
    const assistant = assistants[n % 3];
    const number = numbers[n % numbers.length];
    const createdAt = new Date(created[i]).toISOString();
    const startMs = created[i] + 2000;
    const inProgress = i === 0;
    const noAnswer = !inProgress && n % 9 === 0;
    if (v.records === 'platform') {
      const seed = { n, id: uuid('ca11da7a', n), orgId: ORG_ID, createdAt: created[i], inProgress, noAnswer, assistant, number, customer };
      calls.push(platformCall(seed));
      continue;
    }
    const durationS = noAnswer ? 0 : 45 + ((n * 37) % 300);
    const endMs = startMs + durationS * 1000;
    const messages: Json[] = [{ role: 'system', message: `You are the ${String(assistant.name)} assistant of Acme.`, time: startMs, secondsFromStart: 0 }];
    const lines: [string, string][] = noAnswer
      ? []
      : [
          ['bot', `Hello, this is the ${String(assistant.name)}. How can I help?`],
          ['user', topic.user],
          ['bot', topic.bot],
          ['user', `Thanks, that settles the ${topic.word}. Call ${n} done.`],
        ];
    let at = 1.2;
    for (const [role, text] of lines) {
      const len = 2 + text.length / 15;
      messages.push({
        role,
        message: text,
        time: startMs + at * 1000,
        endTime: startMs + (at + len) * 1000,
        secondsFromStart: at,
        duration: len * 1000,
        ...(role === 'bot' ? { source: '' } : {}),
      });
      at += len + 0.8;
    }
    const transcript = lines.map(([role, text]) => `${role === 'bot' ? 'AI' : 'User'}: ${text}`).join('\n');
    const total = noAnswer ? 0.01 : Math.round((0.02 + durationS * 0.0011) * 10000) / 10000;
    const costBreakdown = {
      transport: Math.round(total * 0.1 * 10000) / 10000,
      stt: Math.round(total * 0.2 * 10000) / 10000,
      llm: Math.round(total * 0.3 * 10000) / 10000,
      tts: Math.round(total * 0.25 * 10000) / 10000,
      vapi: Math.round(total * 0.15 * 10000) / 10000,
      total,
      llmPromptTokens: 300 + n,
      llmCompletionTokens: 80 + (n % 50),
      ttsCharacters: transcript.length,
    };
    const id = uuid('ca11da7a', n);
    const recordingUrl = noAnswer ? undefined : `https://storage.acme-voice.example/recordings/${id}-mono.wav`;
    const summary = noAnswer
      ? 'The customer did not answer.'
      : `The caller asked about a ${topic.word}; ${n % 4 === 0 ? 'escalated to a supervisor' : 'resolved on the call'}.`;
    const call: Json = {
      id,
      orgId: ORG_ID,
      createdAt,
      updatedAt: new Date(inProgress ? startMs + 5000 : endMs + 4000).toISOString(),
      type: TYPES[n % TYPES.length],
      status: inProgress ? 'in-progress' : 'ended',
      ...(inProgress ? {} : { endedReason: noAnswer ? 'customer-did-not-answer' : ENDED_REASONS[n % 2] }),
      startedAt: new Date(startMs).toISOString(),
      ...(inProgress ? {} : { endedAt: new Date(endMs).toISOString() }),
      // Some records carry only the breakdown's total, as some of Vapi's do.
      ...(n % 5 === 0 || inProgress ? {} : { cost: total }),
      ...(inProgress ? {} : { costBreakdown }),
      messages,
      ...(inProgress ? {} : { transcript }),
      ...(recordingUrl && !inProgress ? { recordingUrl, stereoRecordingUrl: recordingUrl.replace('-mono', '-stereo') } : {}),
      ...(inProgress
        ? {}
        : {
            artifact: {
              messages,
              messagesOpenAIFormatted: lines.map(([role, text]) => ({ role: role === 'bot' ? 'assistant' : 'user', content: text })),
              transcript,
              ...(recordingUrl ? { recordingUrl } : {}),
            },
            analysis: { summary, successEvaluation: noAnswer ? 'false' : 'true' },
          }),
      phoneCallProvider: 'twilio',
      phoneCallTransport: 'pstn',
      assistantId: assistant.id,
      phoneNumberId: number.id,
      customer,
    };
    calls.push(call);
  }
  return calls;
}

function seedSession(assistants: Json[]): Json {
  const at = '2026-11-19T10:00:00.000Z';
  return {
    id: uuid('5e55e55e', 1),
    name: 'Opening hours question',
    assistantId: assistants[0].id,
    status: 'active',
    messages: [
      { role: 'user', content: 'What are your opening hours on Sunday?' },
      { role: 'assistant', content: 'On Sunday we are open from ten until four.' },
    ],
    createdAt: at,
    updatedAt: at,
  };
}

export async function startHostedFixture(opts: Partial<FixtureVariant> = {}): Promise<HostedFixture> {
  const variant: FixtureVariant = { ...DEFAULT_VARIANT, ...opts };
  const apiKey = `hq_test_${Math.random().toString(36).slice(2, 14)}`;
  const assistants = seedAssistants();
  const phoneNumbers =
    variant.records === 'platform'
      ? platformNumbers({ orgId: ORG_ID, at: ALWAYS_SEEN_AT, id: (k) => uuid('9e0b7c11', k), assistantIds: assistants.slice(0, 2).map((a) => String(a.id)) })
      : seedNumbers();
  const state = {
    calls: seedCalls(variant, assistants, phoneNumbers),
    assistants,
    phoneNumbers,
    files: seedFiles(),
    sessions: [seedSession(assistants)],
    chats: [] as Json[],
  };
  if (variant.hostile) {
    // One record of each kind whose id carries the corpus (see FixtureVariant.hostile).
    const hostileId = (r: Json) => ({ ...structuredClone(r), id: `${String(r.id)}-${ID_CORPUS}` });
    state.assistants.push(hostileId(state.assistants[0]));
    state.phoneNumbers.push(hostileId(state.phoneNumbers[0]));
    state.files.push(hostileId(state.files[0]));
    if (state.calls.length > 1) state.calls.push(hostileId(state.calls[state.calls.length - 1]));
  }
  const requests: LoggedRequest[] = [];
  const links: { assistantId: string; phoneNumberId: string }[] = [];
  const patches: { id: string; body: Json }[] = [];
  const faults: Fault[] = [];
  const callPages: { query: string; status: number }[] = [];
  // Each record's creation time parsed once (a page of a large log scans every record), and
  // whether the calls are newest first. Tests rewrite times and add calls in place: each request
  // checks the index against the array (one cheap pass) and rebuilds it where they differ.
  let index: { calls: Json[]; texts: unknown[]; times: Float64Array; sorted: boolean } | undefined;
  const timesIndex = () => {
    const calls = state.calls;
    if (index && index.calls.length === calls.length) {
      let same = true;
      for (let i = 0; i < calls.length && same; i++) same = calls[i] === index.calls[i] && calls[i].createdAt === index.texts[i];
      if (same) return index;
    }
    const times = new Float64Array(calls.length);
    let sorted = true;
    for (let i = 0; i < calls.length; i++) {
      times[i] = Date.parse(calls[i].createdAt as string);
      if (Number.isNaN(times[i]) || (i > 0 && times[i] > times[i - 1])) sorted = false;
    }
    index = { calls: [...calls], texts: calls.map((c) => c.createdAt), times, sorted };
    return index;
  };
  let inFlight = 0;
  let inFlightMax = 0;
  /** When the requests of the last second were let through (the rate limit's sliding window). */
  const admitted: number[] = [];
  let counter = 1000;
  const nextId = (prefix: string) => uuid(prefix, ++counter);

  const server = createServer((req, res) => {
    inFlight++;
    inFlightMax = Math.max(inFlightMax, inFlight);
    res.once('close', () => inFlight--);
    const answer = async () => {
      if (!limited(req, res)) await handle(req, res);
    };
    const run = () =>
      Promise.resolve()
        .then(answer)
        .catch((err: unknown) => {
          if (!res.headersSent) sendError(res, 500, `fixture failure: ${err instanceof Error ? err.message : String(err)}`);
          else res.destroy();
        });
    if (variant.latencyMs > 0) setTimeout(run, variant.latencyMs);
    else void run();
  });

  /** The rate limit: true when this request was answered 429; the headers set on every answer where the variant sends them. */
  function limited(req: IncomingMessage, res: ServerResponse): boolean {
    const rl = variant.rateLimit;
    if (!rl) return false;
    const now = Date.now();
    while (admitted.length > 0 && admitted[0] <= now - 1000) admitted.shift();
    const full = admitted.length >= rl.perSecond;
    if (!full) admitted.push(now);
    const resetS = admitted.length > 0 ? Math.max(1, Math.ceil((admitted[0] + 1000 - now) / 1000)) : 1;
    if (rl.headers) {
      res.setHeader('x-ratelimit-limit', String(rl.perSecond));
      res.setHeader('x-ratelimit-remaining', String(Math.max(0, rl.perSecond - admitted.length)));
      res.setHeader('x-ratelimit-reset', String(resetS));
    }
    if (!full) return false;
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/calls' || path === '/calls/details') callPages.push({ query: url.search, status: 429 });
    requests.push({ method: (req.method ?? 'GET').toUpperCase(), path, query: Object.fromEntries(url.searchParams) });
    req.resume();
    res.setHeader('retry-after', String(resetS));
    sendError(res, 429, 'Too many requests, slow down');
    return true;
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(variant.hostile ? poison(body) : body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function sendError(res: ServerResponse, status: number, message: string) {
    const reason = STATUS_TEXT[status] ?? 'Error';
    const code = reason.toUpperCase().replace(/ /g, '_');
    switch (variant.errors) {
      case 'nested':
        return send(res, status, { error: { message, code } });
      case 'string':
        return send(res, status, message);
      case 'array':
        return send(res, status, [message]);
      case 'errors':
        return send(res, status, { errors: [{ message }] });
      case 'html': {
        const page =
          `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${status} ${reason}</title></head>\n<body>\n<h1>${reason}</h1>\n` +
          `<p>${escapeHtml(message)}</p>\n</body>\n</html>\n`;
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page) });
        return res.end(page);
      }
      case 'plain':
      default:
        return send(res, status, { statusCode: status, error: reason, message });
    }
  }

  /** A single record in the variant's envelope; `documented` is what the reference shows for that endpoint. */
  function single(name: string, record: Json, message: string, documented: SingleEnvelope): unknown {
    const style = variant.single === 'documented' ? documented : variant.single;
    switch (style) {
      case 'bare':
        return record;
      case 'named':
        return { [name]: record };
      case 'data':
        return { data: record };
      case 'messageData':
        return { message, data: record };
      case 'messageNamed':
      default:
        return { message, [name]: record };
    }
  }

  function list(plural: string, records: Json[], message: string | undefined, documented: ListEnvelope, extra: Json = {}): unknown {
    const style = variant.list === 'documented' ? documented : variant.list;
    const withMessage = message === undefined ? {} : { message };
    switch (style) {
      case 'bare':
        return records;
      case 'named':
        return { ...withMessage, [plural]: records, ...extra };
      case 'data':
        return { ...withMessage, data: records, ...extra };
      case 'items':
        return { ...withMessage, items: records, ...extra };
      case 'results':
      default:
        return { ...withMessage, results: records, ...extra };
    }
  }

  function callsQuery(q: Record<string, string>, res: ServerResponse): Json[] | undefined {
    let limit = VAPI_DEFAULT_CALL_LIMIT;
    if (q.limit !== undefined) {
      const n = Number(q.limit);
      if (!Number.isFinite(n) || n < 1) {
        sendError(res, 400, 'limit must be a positive number');
        return undefined;
      }
      limit = Math.floor(n);
    }
    if (variant.pageCap === 'refuse' && limit > variant.pageCapSize) {
      sendError(res, 400, `limit must not be greater than ${variant.pageCapSize}`);
      return undefined;
    }
    if (variant.pageCap === 'silent') limit = Math.min(limit, variant.pageCapSize);
    const bounds: { key: string; cmp: (t: number, b: number) => boolean; upper: boolean }[] = [];
    const gt = (t: number, b: number) => t > b;
    const ge = (t: number, b: number) => t >= b;
    const lt = (t: number, b: number) => t < b;
    const le = (t: number, b: number) => t <= b;
    const lower = (key: string, cmp: (t: number, b: number) => boolean) => ({ key, cmp, upper: false });
    const upper = (key: string, cmp: (t: number, b: number) => boolean) => ({ key, cmp, upper: true });
    if (variant.dateFilters === 'vapi') bounds.push(lower('createdAtGt', gt), upper('createdAtLt', lt), lower('createdAtGe', ge), upper('createdAtLe', le));
    if (variant.dateFilters === 'inclusive')
      bounds.push(lower('createdAtGt', ge), upper('createdAtLt', le), lower('createdAtGe', ge), upper('createdAtLe', le));
    if (variant.dateFilters === 'renamed') bounds.push(lower('createdAfter', ge), upper('createdBefore', le));
    const active: { at: number; cmp: (t: number, b: number) => boolean; upper: boolean }[] = [];
    for (const b of bounds) {
      const raw = q[b.key];
      if (raw === undefined || raw === '') continue;
      const at = Date.parse(raw);
      if (Number.isNaN(at)) {
        sendError(res, 400, `${b.key} must be a valid ISO 8601 date string`);
        return undefined;
      }
      active.push({ at, cmp: b.cmp, upper: b.upper });
    }
    const { times, sorted } = timesIndex();
    const calls = state.calls;
    // Newest first: the calls the upper bounds let in start at one index (found by bisection), and
    // the first call below a lower bound ends the scan. A service answers from an index too: a
    // scan of every newer call for each page would cost the bench's machine more than the client.
    let from = 0;
    const uppers = active.filter((b) => b.upper);
    if (sorted && uppers.length > 0) {
      let hi = calls.length;
      while (from < hi) {
        const mid = (from + hi) >>> 1;
        if (uppers.every((b) => b.cmp(times[mid], b.at))) hi = mid;
        else from = mid + 1;
      }
    }
    const out: Json[] = [];
    for (let i = from; i < calls.length; i++) {
      const c = calls[i];
      const t = times[i];
      if (!active.every((b) => b.cmp(t, b.at))) {
        if (sorted && active.some((b) => !b.upper && !b.cmp(t, b.at))) break;
        continue;
      }
      if (q.id && c.id !== q.id) continue;
      if (q.assistantId && c.assistantId !== q.assistantId) continue;
      if (q.phoneNumberId && c.phoneNumberId !== q.phoneNumberId) continue;
      out.push(c);
      if (out.length >= limit) break;
    }
    return out;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    const contentType = String(req.headers['content-type'] ?? '');
    let body: unknown;
    if (raw.length > 0 && contentType.includes('application/json')) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        requests.push({ method, path, query });
        return sendError(res, 400, 'Unexpected token in JSON body');
      }
    }
    requests.push({ method, path, query, ...(body !== undefined ? { body } : {}) });

    if (req.headers['x-api-key'] !== apiKey) return sendError(res, 401, 'Invalid or missing API key');

    const fault = faults.find((f) => (!f.method || f.method === method) && (typeof f.path === 'string' ? f.path === path : f.path.test(path)));
    if (fault) {
      if (fault.times !== undefined && --fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
      if (path === '/calls' || path === '/calls/details') callPages.push({ query: url.search, status: fault.status });
      return sendError(res, fault.status, fault.message);
    }

    const b = isRecord(body) ? body : {};
    let m: RegExpMatchArray | null;

    // Calls. The callhq reference shows { message, calls }; the records are Vapi's Call objects.
    if (method === 'GET' && (path === '/calls' || path === '/calls/details')) {
      const found = callsQuery(query, res);
      callPages.push({ query: url.search, status: found ? 200 : 400 });
      if (!found) return;
      const write = variant.hostile ? undefined : variant.callText;
      if (!write) return send(res, 200, list('calls', found, 'Calls fetched successfully', 'named'));
      const body = list('calls', [RECORDS as unknown as Json], 'Calls fetched successfully', 'named');
      const text = JSON.stringify(body).replace(JSON.stringify([RECORDS]), () => `[${found.map(write).join(',')}]`);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      return res.end(text);
    }
    if (method === 'POST' && path === '/calls/outbound') {
      const customer = isRecord(b.customer) ? b.customer : undefined;
      if (typeof b.assistantId !== 'string' || typeof b.phoneNumberId !== 'string' || !customer || typeof customer.number !== 'string') {
        return sendError(res, 400, 'assistantId, phoneNumberId and customer.number are required');
      }
      if (!/^\+[1-9]\d{6,14}$/.test(customer.number)) return sendError(res, 400, 'customer.number must be a valid phone number in the E.164 format');
      if (!state.assistants.some((a) => a.id === b.assistantId)) return sendError(res, 404, 'Assistant not found');
      if (!state.phoneNumbers.some((p) => p.id === b.phoneNumberId)) return sendError(res, 404, 'Phone number not found');
      const now = new Date().toISOString();
      const call: Json = {
        id: nextId('ca11da7a'),
        orgId: ORG_ID,
        createdAt: now,
        updatedAt: now,
        type: 'outboundPhoneCall',
        status: 'queued',
        messages: [],
        phoneCallProvider: 'twilio',
        phoneCallTransport: 'pstn',
        assistantId: b.assistantId,
        phoneNumberId: b.phoneNumberId,
        customer,
      };
      state.calls.unshift(call);
      if (variant.records === 'platform') {
        const accepted = platformAccepted(call);
        return send(res, accepted.status, accepted.body);
      }
      return send(res, 201, single('call', call, 'Outbound call initiated successfully', 'messageData'));
    }

    // Chat.
    if (method === 'POST' && path === '/sessions') {
      if (typeof b.assistantId !== 'string') return sendError(res, 400, 'assistantId is required');
      if (!state.assistants.some((a) => a.id === b.assistantId)) return sendError(res, 404, 'Assistant not found');
      const now = new Date().toISOString();
      const session: Json = {
        id: nextId('5e55e55e'),
        name: typeof b.name === 'string' ? b.name : 'New session',
        assistantId: b.assistantId,
        status: 'active',
        messages: [],
        createdAt: now,
        updatedAt: now,
      };
      state.sessions.push(session);
      return send(res, 201, single('session', sessionView(session), 'Session created successfully', 'messageNamed'));
    }
    if (method === 'GET' && (m = path.match(/^\/chats\/session\/([^/]+)$/))) {
      const session = state.sessions.find((s) => s.id === decodeURIComponent(m![1]));
      if (!session) return sendError(res, 404, 'Session not found');
      const { createdAt: _c, ...shown } = sessionView(session);
      return send(res, 200, single('session', shown, 'Session fetched successfully', 'messageNamed'));
    }
    if (method === 'POST' && path === '/chats') {
      if (typeof b.sessionId !== 'string' || typeof b.input !== 'string') return sendError(res, 400, 'sessionId and input are required');
      const session = state.sessions.find((s) => s.id === b.sessionId);
      if (!session) return sendError(res, 404, 'Session not found');
      const now = new Date().toISOString();
      const owner = state.assistants.find((x) => x.id === session.assistantId);
      const prompt = ((owner?.model as Json | undefined)?.messages as Json[] | undefined)?.find((x) => x.role === 'system')?.content;
      const before = (session.messages as Json[]).filter((x) => x.role === 'user').length;
      const reply = variant.chatReply?.(typeof prompt === 'string' ? prompt : '', b.input, before) ?? `You said: ${b.input}. Our team will follow up today.`;
      (session.messages as Json[]).push({ role: 'user', content: b.input }, { role: 'assistant', content: reply });
      session.updatedAt = now;
      const chat: Json = {
        id: nextId('c4a7c4a7'),
        externalChatId: nextId('e7c4a7e7'),
        sessionId: session.id,
        input: b.input,
        output: [{ role: 'assistant', content: reply }],
        assistantId: session.assistantId,
        status: 'completed',
        cost: 0.0021,
        createdAt: now,
        updatedAt: now,
        assistantOverrides: isRecord(b.assistantOverrides) ? b.assistantOverrides : { variableValues: {} },
      };
      state.chats.push(chat);
      return send(res, 201, single('chat', chat, 'Chat created successfully', 'messageNamed'));
    }

    // Assistants: the reference shows no bodies; records as Vapi forwards them.
    if (path === '/assistants' && method === 'GET') return send(res, 200, list('assistants', state.assistants, undefined, 'bare'));
    if (path === '/assistants' && method === 'POST') {
      const missing = ['name', 'voice', 'transcriber', 'model'].filter((k) => b[k] === undefined);
      if (missing.length) return sendError(res, 400, `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`);
      if (typeof b.name !== 'string' || b.name.trim() === '') return sendError(res, 400, 'name must be a non-empty string');
      const voice = isRecord(b.voice) ? b.voice : {};
      if (String(voice.provider).toLowerCase() === 'sarvam' && ['voiceId', 'model', 'language'].some((k) => typeof voice[k] !== 'string')) {
        return sendError(res, 400, 'For Sarvam, voiceId, model, and language are required');
      }
      const now = new Date().toISOString();
      const assistant: Json = { ...b, id: nextId('a5515a27'), orgId: ORG_ID, status: b.status ?? true, createdAt: now, updatedAt: now };
      state.assistants.push(assistant);
      return send(res, 201, single('assistant', assistant, 'Assistant created successfully', 'messageData'));
    }
    if ((m = path.match(/^\/assistants\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]);
      const assistant = state.assistants.find((a) => a.id === id);
      if (method === 'GET') {
        if (!assistant) return sendError(res, 404, 'Assistant not found');
        return send(res, 200, single('assistant', assistant, 'Assistant fetched successfully', 'bare'));
      }
      if (method === 'PATCH') {
        if (!assistant) return sendError(res, 404, 'Assistant not found');
        patches.push({ id, body: b });
        // "Only name, status, and description will be updated locally."
        for (const k of ['name', 'status', 'description']) if (b[k] !== undefined) assistant[k] = b[k];
        assistant.updatedAt = new Date().toISOString();
        return send(res, 200, single('assistant', assistant, 'Assistant updated successfully', 'messageData'));
      }
    }

    // Phone numbers.
    if (method === 'POST' && path === '/phone-numbers/inbound/setup') {
      if (typeof b.assistantId !== 'string' || typeof b.phoneNumberId !== 'string' || !b.assistantId || !b.phoneNumberId)
        return sendError(res, 400, 'Missing required fields');
      if (!state.assistants.some((a) => a.id === b.assistantId) || !state.phoneNumbers.some((p) => p.id === b.phoneNumberId)) {
        return sendError(res, 404, 'Assistant or phone number not found');
      }
      links.push({ assistantId: b.assistantId, phoneNumberId: b.phoneNumberId });
      // The platform's numbers name their assistant.
      if (variant.records === 'platform') state.phoneNumbers.find((p) => p.id === b.phoneNumberId)!.assistantId = b.assistantId;
      const text = `Inbound agent configured successfully${variant.hostile ? ESCAPE_CORPUS : ''}`;
      if (variant.textPlainSuccess) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        return res.end(text);
      }
      return send(res, 200, { message: text });
    }
    if (method === 'GET' && path === '/phone-numbers') return send(res, 200, list('phoneNumbers', state.phoneNumbers, undefined, 'named'));

    // Files: callhq's { files, pagination } with page (default 1) and limit (default 10).
    if (path === '/files' && method === 'GET') {
      const page = query.page === undefined ? FILES_DEFAULT_PAGE : Number(query.page);
      const limit = query.limit === undefined ? FILES_DEFAULT_LIMIT : Number(query.limit);
      if (!Number.isInteger(page) || page < 1) return sendError(res, 400, 'page must be a positive integer');
      if (!Number.isInteger(limit) || limit < 1) return sendError(res, 400, 'limit must be a positive integer');
      const total = state.files.length;
      const shown = state.files.slice((page - 1) * limit, page * limit);
      const pagination = { total, page, limit, totalPages: Math.ceil(total / limit) };
      return send(res, 200, list('files', shown, undefined, 'named', { pagination }));
    }
    if (path === '/files' && method === 'POST') {
      const part = multipartFile(contentType, raw);
      if (!part) return sendError(res, 400, 'A multipart/form-data body with one part named file is required');
      const now = new Date().toISOString();
      const file = fileRecord(++counter, part.filename, part.data.length, part.type, now);
      file.status = 'processing';
      state.files.unshift(file);
      return send(res, 201, single('file', file, 'File uploaded successfully', 'messageNamed'));
    }
    if ((m = path.match(/^\/files\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]);
      const at = state.files.findIndex((f) => f.id === id);
      if (method === 'GET') {
        if (at < 0) return sendError(res, 404, 'File not found');
        return send(res, 200, single('file', state.files[at], 'File fetched successfully', 'named'));
      }
      if (method === 'DELETE') {
        if (at < 0) return sendError(res, 404, 'File not found');
        state.files.splice(at, 1);
        return send(res, 200, { message: 'File deleted successfully' });
      }
    }

    return sendError(res, 404, `Cannot ${method} ${path}`);
  }

  function sessionView(session: Json): Json {
    if (!variant.messagesWithoutRole) return session;
    return { ...session, messages: (session.messages as Json[]).map(({ role: _r, ...rest }) => rest) };
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    variant,
    requests,
    calls: state.calls,
    assistants: state.assistants,
    phoneNumbers: state.phoneNumbers,
    files: state.files,
    sessions: state.sessions,
    chats: state.chats,
    links,
    patches,
    faults,
    callPages,
    get inFlightMax() {
      return inFlightMax;
    },
    call: (id) => state.calls.find((c) => c.id === id),
    requestsTo: (p, method) => requests.filter((r) => r.path === p && (!method || r.method === method)),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/** The part named `file` of a multipart/form-data body. */
function multipartFile(contentType: string, raw: Buffer): { filename: string; type: string; data: Buffer } | undefined {
  const bm = contentType.match(/boundary=(?:"([^"]+)"|([^;]+))/i);
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !bm) return undefined;
  const delimiter = Buffer.from(`--${bm[1] ?? bm[2]}`);
  let at = raw.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    const next = raw.indexOf(delimiter, start);
    if (next < 0) break;
    const part = raw.subarray(start, next);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString('utf8');
      const name = head.match(/name="([^"]*)"/i)?.[1];
      if (name === 'file') {
        const filename = head.match(/filename="([^"]*)"/i)?.[1] ?? 'upload.bin';
        const type = head.match(/content-type:\s*([^\r\n]+)/i)?.[1].trim() ?? 'application/octet-stream';
        let data = part.subarray(headEnd + 4);
        if (data.subarray(-2).toString() === '\r\n') data = data.subarray(0, -2);
        return { filename, type, data: Buffer.from(data) };
      }
    }
    at = next;
  }
  return undefined;
}

/** For a test file: starts fixtures on demand (each its own variant) and closes them all after the file's tests. */
export function fixturesForFile(): (opts?: Partial<FixtureVariant>) => Promise<HostedFixture> {
  const open: HostedFixture[] = [];
  after(async () => {
    for (const f of open) await f.close();
  });
  return async (opts = {}) => {
    const f = await startHostedFixture(opts);
    open.push(f);
    return f;
  };
}
