// The Voice Agent Service client: one function per endpoint, the only code that knows paths.
// Answers are parsed tolerantly (unknown fields kept) and accepted with or without the
// envelope the spec shows, because the hosted service and the sandbox may differ there.
import type { z } from 'zod';
import {
  AssistantSchema,
  CALL_FILTER_KEYS,
  CallSchema,
  ChatSchema,
  ChatSessionSchema,
  KbFileSchema,
  PaginationSchema,
  PhoneNumberSchema,
  reportNotApplied,
  type CallFilters,
} from './schemas.js';
import type { FilesPage, RequestOptions, VoiceAgentApi } from './contract.js';
import { ApiError, InputError, ResponseShapeError } from './errors.js';
import { createTransport, multipartFromFile, type Method, type TransportOptions } from './http.js';
import { DEFAULT_CALL_DATE_FILTER, limitNamedIn, mergeTraits, type ServiceTraits } from './traits.js';

export type { Timeouts } from './http.js';

/** baseUrl, apiKey, timeouts {connectMs, headersMs, bodyMs}, retries (GET only), retryBaseMs, debug; traits and onLearned. */
export interface ClientOptions extends TransportOptions {
  /** What earlier clients learned about this service (src/config/traits.ts): the page caps, the date filter's names. */
  traits?: ServiceTraits;
  /** Told of each thing this client learns about the service, so its owner can keep it for the next client. */
  onLearned?: (patch: Partial<ServiceTraits>) => void;
}

/** The page size tried once when a 400 is about `limit` but names no number. */
const FALLBACK_PAGE = 100;

export function createClient(opts: ClientOptions): VoiceAgentApi {
  const http = createTransport(opts);
  // One object, updated in place: a copy of the client made by spreading it sees what is learned later.
  const traits: ServiceTraits = { ...opts.traits };
  const learn = (patch: Partial<ServiceTraits>) => {
    const next = mergeTraits(traits, patch);
    for (const key of Object.keys(traits) as (keyof ServiceTraits)[]) if (!(key in next)) delete traits[key];
    Object.assign(traits, next);
    try {
      opts.onLearned?.(patch);
    } catch {
      // Keeping it for the next client is a nicety; this one knows it already.
    }
  };

  async function call(method: Method, path: string, ro: RequestOptions | undefined, json?: unknown) {
    const res = await http.send({ method, path, json, signal: ro?.signal });
    return { ...res, method, path };
  }

  type Answer = Awaited<ReturnType<typeof call>>;
  const shapeError = (a: Answer, problem: string) => new ResponseShapeError(a.status, problem, a.method, a.path, http.baseUrl);

  /** A single record, bare or under its resource name (`{ assistant: {...} }`). */
  function one<S extends z.ZodType>(a: Answer, name: string, schema: S): z.output<S> {
    const b = a.body;
    const record = isRecord(b) && isRecord(b[name]) ? b[name] : b;
    return parse(a, schema, record, isRecord(b) && isRecord(b[name]) ? name : '');
  }

  /** A list, bare or under its resource name or data/items/results. */
  function many<S extends z.ZodType>(a: Answer, name: string, schema: S): z.output<S>[] {
    const b = a.body;
    if (Array.isArray(b)) return b.map((item, i) => parse(a, schema, item, `[${i}]`));
    if (isRecord(b)) {
      for (const key of [name, 'data', 'items', 'results']) {
        const list = b[key];
        if (Array.isArray(list)) return list.map((item, i) => parse(a, schema, item, `${key}[${i}]`));
      }
    }
    throw shapeError(a, `expected a list of ${name} (a JSON array or { ${name}: [...] }), got ${describe(b)}`);
  }

  function parse<S extends z.ZodType>(a: Answer, schema: S, value: unknown, at: string): z.output<S> {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    throw shapeError(a, summarizeIssues(r.error, at));
  }

  function message(a: Answer): string {
    return isRecord(a.body) && typeof a.body.message === 'string' ? a.body.message : '';
  }

  /**
   * A GET whose `limit` the service may cap: never above the cap learned, and a 400 about the
   * limit is asked again once at the limit it names (or FALLBACK_PAGE), which is then learned.
   */
  async function capped(path: (limit: number | undefined) => string, limit: number | undefined, cap: 'callPageCap' | 'filesPageCap', ro: RequestOptions | undefined) {
    const known = traits[cap];
    const asked = limit !== undefined && known !== undefined && limit > known ? known : limit;
    try {
      return { answer: await call('GET', path(asked), ro), limit: asked };
    } catch (err) {
      const named = refusedLimit(err, asked);
      if (named === undefined) throw err;
      const answer = await call('GET', path(named), ro);
      learn({ [cap]: named });
      return { answer, limit: named };
    }
  }

  async function callList(path: string, filters: CallFilters | undefined, ro: RequestOptions | undefined) {
    const { answer } = await capped((limit) => `${path}${callQuery(filters && { ...filters, limit }, traits)}`, filters?.limit, 'callPageCap', ro);
    return many(answer, 'calls', CallSchema);
  }

  return {
    baseUrl: http.baseUrl,
    get connectionState() {
      return http.connection.state;
    },
    onConnectionState: (listener) => http.connection.subscribe(listener),
    traits,
    learn,

    async listCalls(filters, ro) {
      return callList('/calls', filters, ro);
    },
    async callDetails(filters, ro) {
      return callList('/calls/details', filters, ro);
    },
    async getCall(id, ro) {
      const path = `/calls/details${callQuery({ id: need(id, 'call id') }, traits)}`;
      const calls = many(await call('GET', path, ro), 'calls', CallSchema);
      const found = calls.find((c) => c.id === id);
      if (!found) throw new ApiError(404, `no call with id ${id}`, 'GET', path, http.baseUrl, 'Not Found');
      return found;
    },
    async placeOutboundCall(input, ro) {
      return one(await call('POST', '/calls/outbound', ro, input), 'call', CallSchema);
    },

    async createSession(input, ro) {
      return one(await call('POST', '/sessions', ro, input), 'session', ChatSessionSchema);
    },
    async getSession(sessionId, ro) {
      return one(await call('GET', `/chats/session/${seg(sessionId, 'session id')}`, ro), 'session', ChatSessionSchema);
    },
    async sendChat({ sessionId, input, variableValues }, ro) {
      const body = { sessionId, input, ...(variableValues ? { assistantOverrides: { variableValues } } : {}) };
      return one(await call('POST', '/chats', ro, body), 'chat', ChatSchema);
    },

    async listAssistants(ro) {
      return many(await call('GET', '/assistants', ro), 'assistants', AssistantSchema);
    },
    async getAssistant(id, ro) {
      return one(await call('GET', `/assistants/${seg(id, 'assistant id')}`, ro), 'assistant', AssistantSchema);
    },
    async createAssistant(input, ro) {
      return one(await call('POST', '/assistants', ro, input), 'assistant', AssistantSchema);
    },
    async updateAssistant(id, patch, ro) {
      const path = `/assistants/${seg(id, 'assistant id')}`;
      const answered = one(await call('PATCH', path, ro, patch), 'assistant', AssistantSchema);
      // A service may answer with the patch while keeping only some fields: what it stored is what
      // a re-read shows. If the re-read fails, the write still happened: report against its answer.
      const stored = await call('GET', path, ro).then(
        (a) => one(a, 'assistant', AssistantSchema),
        () => answered,
      );
      return reportNotApplied(stored, patch);
    },

    async listPhoneNumbers(ro) {
      return many(await call('GET', '/phone-numbers', ro), 'phoneNumbers', PhoneNumberSchema);
    },
    async linkNumber(input, ro) {
      const a = await call('POST', '/phone-numbers/inbound/setup', ro, input);
      const b = a.body;
      const phoneNumber = isRecord(b) && isRecord(b.phoneNumber) ? parse(a, PhoneNumberSchema, b.phoneNumber, 'phoneNumber') : undefined;
      return { message: message(a), ...(phoneNumber ? { phoneNumber } : {}) };
    },

    async listFiles(query, ro) {
      const path = (limit: number | undefined) => {
        const params = new URLSearchParams();
        if (query?.page !== undefined) params.set('page', String(query.page));
        if (limit !== undefined) params.set('limit', String(limit));
        return `/files${qs(params)}`;
      };
      const { answer: a, limit } = await capped(path, query?.limit, 'filesPageCap', ro);
      const files = many(a, 'files', KbFileSchema);
      const b = a.body;
      if (isRecord(b) && b.pagination !== undefined) {
        const pagination = parse(a, PaginationSchema, b.pagination, 'pagination');
        // A page cut short of what was asked while more pages follow: the service caps pages there.
        const cut = pagination.limit < (limit ?? 0) ? pagination.limit : files.length > 0 && files.length < (limit ?? 0) && pagination.page < pagination.totalPages ? files.length : undefined;
        if (cut !== undefined && cut >= 1 && cut !== traits.filesPageCap) learn({ filesPageCap: cut });
        return { files, pagination } satisfies FilesPage;
      }
      // No pagination block: taken as one page holding everything (walks ask for the next page anyway: src/api/pager.ts).
      const page = query?.page ?? 1;
      return { files, pagination: { total: files.length, page, limit: limit ?? files.length, totalPages: 1 }, guessed: true };
    },
    async getFile(id, ro) {
      return one(await call('GET', `/files/${seg(id, 'file id')}`, ro), 'file', KbFileSchema);
    },
    async uploadFile(path, opts) {
      const stream = await multipartFromFile(path, { name: opts?.name, onProgress: opts?.onProgress });
      const res = await http.send({ method: 'POST', path: '/files', stream, signal: opts?.signal });
      return one({ ...res, method: 'POST', path: '/files' }, 'file', KbFileSchema);
    },
    async deleteFile(id, ro) {
      return { message: message(await call('DELETE', `/files/${seg(id, 'file id')}`, ro)) };
    },

    close: () => http.close(),
  };
}

/**
 * The call-log query string: CALL_FILTER_KEYS, nothing else, the created-at bounds under the names
 * the filters or the traits give (none when the service ignores them all).
 */
function callQuery(filters: CallFilters | undefined, traits: ServiceTraits): string {
  const params = new URLSearchParams();
  const dates = filters?.dateFilter ?? traits.callDateFilter ?? DEFAULT_CALL_DATE_FILTER;
  for (const key of CALL_FILTER_KEYS) {
    const value = filters?.[key];
    if (value === undefined || value === '') continue;
    if (key === 'createdAtGt' || key === 'createdAtLt') {
      if (dates !== 'none') params.set(key === 'createdAtGt' ? dates.after : dates.before, String(value));
    } else params.set(key, String(value));
  }
  return qs(params);
}

/** The limit to ask again at when `err` is a 400 refusing the `asked` one; undefined for any other failure. */
function refusedLimit(err: unknown, asked: number | undefined): number | undefined {
  if (asked === undefined || !(err instanceof ApiError) || err instanceof ResponseShapeError || err.status !== 400) return undefined;
  const text = err.detail;
  if (!/\blimit\b/i.test(text)) return undefined;
  const named = limitNamedIn(text) ?? FALLBACK_PAGE;
  return named < asked ? named : undefined;
}

function qs(params: URLSearchParams): string {
  const s = params.toString();
  return s ? `?${s}` : '';
}

function need(value: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError(`a ${what} is needed`);
  return value;
}

/** An id as one path segment: '/' or '?' in an id cannot reach another route. */
function seg(value: string, what: string): string {
  return encodeURIComponent(need(value, what));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'an empty body';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isRecord(v)) {
    const keys = Object.keys(v);
    return keys.length ? `an object with ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : 'an empty object';
  }
  return `a ${typeof v}`;
}

/** The first few zod issues as `where: what` — readable, unlike a raw zod dump. */
function summarizeIssues(error: z.ZodError, at: string): string {
  const lines = error.issues.slice(0, 3).map((issue) => {
    const path = [at, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/^\./, '');
    return `${path || 'the body'}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return lines.join('; ') + more;
}
