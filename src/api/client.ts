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
import type { FilesPage, OutboundCallInput, RequestOptions, UnreadAnswer, VoiceAgentApi, Written } from './contract.js';
import { ApiError, InputError, RequestError, ResponseShapeError } from './errors.js';
import { describeBody, preview, serviceWords, unwrapList, unwrapRecord } from './envelope.js';
import { keepSentTexts } from './sent-text.js';
import { createTransport, multipartFromFile, notJsonProblem, type Method, type TransportOptions } from './http.js';
import { DEFAULT_CALL_DATE_FILTER, limitNamedIn, mergeTraits, type ServiceTraits } from './traits.js';
import { Adaptations, collect, mismatchWords, unreadable } from './adapt.js';

export type { Timeouts } from './http.js';

/** baseUrl, apiKey, timeouts {connectMs, headersMs, bodyMs}, retries (GET only), retryBaseMs, debug; traits and onLearned. */
export interface ClientOptions extends TransportOptions {
  /** What earlier clients learned about this service (src/config/traits.ts): the page caps, the date filter's names. */
  traits?: ServiceTraits;
  /** Told of each thing this client learns about the service, so its owner can keep it for the next client. */
  onLearned?: (patch: Partial<ServiceTraits>) => void;
  /**
   * Told of each record of a list that could not be read at all and was skipped (the rest of the
   * page is kept), one line naming its position; without it, the debug log is.
   */
  onWarning?: (line: string) => void;
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

  // Every field this client met in another type, reported once each (--debug); the records keep them as received.
  const adapted = new Adaptations();
  const warn = (line: string) => (opts.onWarning ? opts.onWarning(line) : opts.debug?.(`warning: ${line}`));
  const endpointOf = (a: Answer) => `${a.method} ${a.path.replace(/\?.*$/, '')}`;
  /** Takes in what one answer's parse met: each new kind of difference to the debug log, once. */
  const report = (a: Answer, met: Adaptations) => {
    for (const m of adapted.merge(met)) opts.debug?.(`${endpointOf(a)}: adapted to ${mismatchWords(m)}`);
  };

  async function call(method: Method, path: string, ro: RequestOptions | undefined, json?: unknown) {
    const res = await http.send({ method, path, json, signal: ro?.signal, ...(ro?.lane ? { lane: ro.lane } : {}) });
    return { ...res, method, path };
  }

  type Answer = Awaited<ReturnType<typeof call>>;
  const shapeError = (a: Answer, problem: string) =>
    new ResponseShapeError(a.status, problem, a.method, a.path, http.baseUrl, a.body === undefined && a.text.trim() !== '');

  /** A single record in any envelope envelope.ts knows (a read: anything else is a shape error). */
  function one<S extends z.ZodType>(a: Answer, name: string, schema: S): z.output<S> {
    const r = readRecord(a, name, schema);
    if ('record' in r) return r.record;
    throw shapeError(a, r.problem);
  }

  /** The record a write's answer holds, or why there is none: never an error, the write succeeded. */
  function readRecord<S extends z.ZodType>(a: Answer, name: string, schema: S): { record: z.output<S>; envelope: string } | { problem: string } {
    if (a.body === undefined) return { problem: notJsonProblem(a) };
    const found = unwrapRecord(a.body, name);
    if (!found) return { problem: `expected a ${name} record, got ${describeBody(a.body)}` };
    const met = new Adaptations();
    const r = collect(met, () => schema.safeParse(found.record));
    report(a, met);
    if (!r.success)
      return {
        problem: summarizeIssues(
          r.error,
          found.envelope === 'bare'
            ? ''
            : found.envelope
                .replace(/^\{(message,)?|\}$/g, '')
                .replace(/[{}]/g, '')
                .replace(/:/g, '.'),
        ),
      };
    return { record: r.data, envelope: found.envelope };
  }

  /** A write's 2xx: its record when readable, else what came back (`recover` may find the record another way). */
  async function written<S extends z.ZodType>(
    a: Answer,
    name: string,
    schema: S,
    recover?: () => Promise<{ record: z.output<S>; from: string } | undefined>,
  ): Promise<Written<z.output<S>>> {
    const r = readRecord(a, name, schema);
    // A bare record's own `message` field is data, not the service's word on the write.
    const said = 'record' in r && r.envelope === 'bare' ? '' : message(a);
    if ('record' in r) return { record: r.record, ...(said ? { message: said } : {}) };
    const unread: UnreadAnswer = { status: a.status, said: serviceWords(a) ?? (a.text.trim() ? preview(a.text) : ''), problem: r.problem };
    const found = recover ? await recover().catch(() => undefined) : undefined;
    return found ? { record: found.record, unread: { ...unread, recordFrom: found.from } } : { unread };
  }

  /**
   * A list, bare or under its resource name or data/items/results; with `sent`, each record keeps
   * its text in the answer (sent-text.ts: the archive stores the service's own text).
   */
  function many<S extends z.ZodType>(a: Answer, name: string, schema: S, sent = false): z.output<S>[] {
    const found = unwrapList(a.body, name);
    if (!found)
      throw shapeError(
        a,
        a.body === undefined ? notJsonProblem(a) : `expected a list of ${name} (a JSON array or { ${name}: [...] }), got ${describeBody(a.body)}`,
      );
    const at = found.envelope === 'bare' ? '' : found.envelope.replace(/[{}]/g, '').replace(/:/g, '.');
    // One record at a time: one that cannot be read is skipped (and said), never the page.
    const met = new Adaptations();
    const records: z.output<S>[] = [];
    const kept: number[] = [];
    collect(met, () => {
      found.list.forEach((item, i) => {
        const why = unreadable(item);
        const r = why ? undefined : schema.safeParse(item);
        if (r?.success) {
          records.push(r.data);
          kept.push(i);
          return;
        }
        const position = `${at || name}[${i}]`;
        const reason = why ?? (r ? summarizeIssues(r.error, '') : 'unreadable');
        met.skipped.push({ at: position, why: reason });
        warn(`${endpointOf(a)}: ${position} skipped, it cannot be read (${reason}); the rest of the page is kept`);
      });
    });
    report(a, met);
    if (sent) keepSentTexts(records as object[], a.text, found.path, kept.length === found.list.length ? undefined : kept);
    return records;
  }

  function parse<S extends z.ZodType>(a: Answer, schema: S, value: unknown, at: string): z.output<S> {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    throw shapeError(a, summarizeIssues(r.error, at));
  }

  /** The service's message on a success: `{ message }` beside a record, or a text/plain body. */
  function message(a: Answer): string {
    if (isRecord(a.body)) return typeof a.body.message === 'string' ? a.body.message : '';
    if (a.body === undefined) return serviceWords(a) ?? '';
    return '';
  }

  /** Sends a write that must not happen twice; if its fate is unknown, the error says how to check. */
  async function writeOnce(method: Method, path: string, ro: RequestOptions | undefined, json: unknown, check: () => string): Promise<Answer> {
    try {
      return await call(method, path, ro, json);
    } catch (err) {
      if (err instanceof RequestError && err.mayHaveActed) err.check = check();
      throw err;
    }
  }

  /**
   * A GET whose `limit` the service may cap: never above the cap learned, and a 400 about the
   * limit is asked again once at the limit it names (or FALLBACK_PAGE), which is then learned.
   */
  async function capped(
    path: (limit: number | undefined) => string,
    limit: number | undefined,
    cap: 'callPageCap' | 'filesPageCap',
    ro: RequestOptions | undefined,
  ) {
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
    return many(answer, 'calls', CallSchema, true);
  }

  return {
    baseUrl: http.baseUrl,
    get connectionState() {
      return http.connection.state;
    },
    onConnectionState: (listener) => http.connection.subscribe(listener),
    traits,
    learn,
    adapted,

    async listCalls(filters, ro) {
      return callList('/calls', filters, ro);
    },
    async callDetails(filters, ro) {
      return callList('/calls/details', filters, ro);
    },
    async getCall(id, ro) {
      const path = `/calls/details${callQuery({ id: need(id, 'call id') }, traits)}`;
      const calls = many(await call('GET', path, ro), 'calls', CallSchema, true);
      const found = calls.find((c) => c.id === id);
      if (!found) throw new ApiError(404, `no call with id ${id}`, 'GET', path, http.baseUrl, 'Not Found');
      return found;
    },
    async placeOutboundCall(input, ro) {
      const sent = new Date(Date.now() - 60_000).toISOString();
      const a = await writeOnce('POST', '/calls/outbound', ro, input, () => outboundCheck(input, sent));
      return written(a, 'call', CallSchema);
    },

    async createSession(input, ro) {
      const a = await writeOnce('POST', '/sessions', ro, input, () => 'an unused session may exist, which does no harm: starting another is safe');
      return written(a, 'session', ChatSessionSchema);
    },
    async getSession(sessionId, ro) {
      return one(await call('GET', `/chats/session/${seg(sessionId, 'session id')}`, ro), 'session', ChatSessionSchema);
    },
    async sendChat({ sessionId, input, variableValues }, ro) {
      const body = { sessionId, input, ...(variableValues ? { assistantOverrides: { variableValues } } : {}) };
      const a = await writeOnce(
        'POST',
        '/chats',
        ro,
        body,
        () => `read the session again (\`switchboard sessions get ${sessionId}\`) to see whether the message arrived`,
      );
      return written(a, 'chat', ChatSchema);
    },

    async listAssistants(ro) {
      return many(await call('GET', '/assistants', ro), 'assistants', AssistantSchema);
    },
    async getAssistant(id, ro) {
      return one(await call('GET', `/assistants/${seg(id, 'assistant id')}`, ro), 'assistant', AssistantSchema);
    },
    async createAssistant(input, ro) {
      const name = typeof input.name === 'string' && input.name ? input.name : undefined;
      const a = await writeOnce('POST', '/assistants', ro, input, () =>
        name ? `look for "${name}" in \`switchboard assistants list\`` : 'look for it in `switchboard assistants list`',
      );
      // No readable record: the newest assistant with the name we gave is the one just made.
      return written(a, 'assistant', AssistantSchema, async () => {
        if (!name) return undefined;
        const mine = many(await call('GET', '/assistants', ro), 'assistants', AssistantSchema).filter((x) => x.name === name);
        const newest = mine.reduce<(typeof mine)[number] | undefined>(
          (best, x) => (!best || String(x.createdAt ?? '') > String(best.createdAt ?? '') ? x : best),
          undefined,
        );
        return newest ? { record: newest, from: `the newest assistant named "${name}"` } : undefined;
      });
    },
    async updateAssistant(id, patch, ro) {
      const path = `/assistants/${seg(id, 'assistant id')}`;
      const answered = await written(await call('PATCH', path, ro, patch), 'assistant', AssistantSchema);
      // A service may answer with the patch while keeping only some fields: what it stored is what
      // a re-read shows. If the re-read fails, the write still happened: report against its answer.
      const stored = await call('GET', path, ro).then(
        (a) => one(a, 'assistant', AssistantSchema),
        () => answered.record,
      );
      const unread = answered.unread && { ...answered.unread, ...(stored ? { recordFrom: 'a re-read of the assistant' } : {}) };
      return {
        ...(stored ? { record: reportNotApplied(stored, patch) } : {}),
        ...(unread ? { unread } : {}),
        ...(answered.message ? { message: answered.message } : {}),
      };
    },

    async listPhoneNumbers(ro) {
      return many(await call('GET', '/phone-numbers', ro), 'phoneNumbers', PhoneNumberSchema);
    },
    async linkNumber(input, ro) {
      const a = await call('POST', '/phone-numbers/inbound/setup', ro, input);
      // The link is made whatever the body: a number in it is a bonus, an unreadable one is ignored.
      const found = readRecord(a, 'phoneNumber', PhoneNumberSchema);
      // Only the number asked about: a bare answer could be some other record (the assistant).
      const phoneNumber = 'record' in found && found.record.id === input.phoneNumberId ? found.record : undefined;
      return { message: message(a), ...(phoneNumber ? { phoneNumber } : {}) };
    },

    async ringSandbox(did, ro) {
      const a = await writeOnce('POST', '/sandbox/ring', ro, did === undefined ? {} : { did }, () => 'the call log shows whether the call rang');
      const found = await written(a, 'call', CallSchema);
      return { message: message(a), ...(found.record ? { call: found.record } : {}) };
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
        const cut =
          pagination.limit < (limit ?? 0)
            ? pagination.limit
            : files.length > 0 && files.length < (limit ?? 0) && pagination.page < pagination.totalPages
              ? files.length
              : undefined;
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
      let res;
      try {
        res = await http.send({ method: 'POST', path: '/files', stream, signal: opts?.signal });
      } catch (err) {
        if (err instanceof RequestError && err.mayHaveActed) err.check = 'look for it in `switchboard files list`';
        throw err;
      }
      return written({ ...res, method: 'POST', path: '/files' }, 'file', KbFileSchema);
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

/** Where an outbound call that may have been placed would show: the call log, filtered to it. */
function outboundCheck(input: OutboundCallInput, since: string): string {
  const to = input.customer?.number;
  return (
    `look in the call log for a call${to ? ` to ${to}` : ''} (\`switchboard calls list --assistant ${input.assistantId} --number ${input.phoneNumberId} ` +
    `--after ${since}\`)`
  );
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

/**
 * An id as one path segment: '/' or '?' in an id cannot reach another route, and an id of '.' or
 * '..' is sent percent-encoded, never as a dot segment that a proxy would resolve (DELETE /files/..
 * would become DELETE /).
 */
function seg(value: string, what: string): string {
  const encoded = encodeURIComponent(need(value, what));
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
