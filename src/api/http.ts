// The transport under the client: one keep-alive undici Pool per base URL, the x-api-key
// header, timeouts, retries, error translation and the streamed multipart body.
// client.ts decides paths and shapes; this file decides how bytes travel.
import { Pool } from 'undici';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { constants as fsConstants } from 'node:fs';
import { basename, extname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { looksLikeHtml, preview, serviceWords } from './envelope.js';
import { AbortedError, ApiError, InputError, NetworkError, ReadOnlyError, RequestError, ResponseTooLargeError, TimeoutError, stripQuery } from './errors.js';
import { ConnectionStateFeed, stateAfter } from './connection-state.js';

// node:http's status texts from its CommonJS module: an ESM import of node:http makes Node build
// its ESM facade, which reads every export, the lazy ones too, and so loads Node's own bundled
// undici on the console's thread. The lint config forbids the import.
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export interface Timeouts {
  /** Establishing the TCP/TLS connection. */
  connectMs: number;
  /** From sending the request to the response headers. */
  headersMs: number;
  /** The longest silence while the response body arrives. */
  bodyMs: number;
  /**
   * The whole request, from sending to the last byte of the answer: a service that trickles its
   * answer a byte at a time is never silent for bodyMs. Uploads are timed by their progress instead.
   */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 30_000, totalMs: 120_000 };

/**
 * The largest answer read (SWITCHBOARD_MAX_RESPONSE_MB, default 64): far above a page of full
 * call records, and low enough that a service sending without end cannot take the machine's memory.
 */
function maxResponseBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.SWITCHBOARD_MAX_RESPONSE_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 64) * 1024 * 1024;
}
const DEFAULT_RETRIES = 2;
const DEFAULT_RETRY_BASE_MS = 250;

/**
 * Retried: GET only. HTTP calls DELETE idempotent too, but a DELETE whose answer was lost would
 * be retried into a confusing 404, and POST/PATCH could act twice; those fail at once instead.
 */
const RETRY_METHODS = new Set(['GET']);
/** Gateway answers that usually mean "try again shortly"; a 500 is a real failure and is not retried. */
const RETRY_STATUSES = new Set([502, 503, 504]);
/** Connection failures worth a second try (not DNS "no such host" or TLS problems, which will not heal). */
const RETRY_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** How many 429s a GET waits out, counted apart from the failures above: a rate limit is the service working. */
export const RATE_LIMIT_RETRIES = 5;
/** The longest one wait for a rate limit; a Retry-After beyond it fails at once, saying when to try again. */
const RATE_LIMIT_MAX_WAIT_MS = 30_000;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeouts?: Partial<Timeouts>;
  /** How many times a failed GET is tried again (default 2). */
  retries?: number;
  /** First backoff delay; each retry doubles it, with jitter (default 250 ms). */
  retryBaseMs?: number;
  /** One line per request and response; never contains the key. */
  debug?: (line: string) => void;
  /** Told before each wait on a 429, so a person can be shown why nothing happens meanwhile. */
  onRateLimited?: (wait: RateLimitWait) => void;
  /** The largest answer read (default: maxResponseBytes()); a larger one ends the request with ResponseTooLargeError. */
  maxResponseBytes?: number;
  /** Every request but a GET is refused before it is sent (ReadOnlyError): the one gate all the service's writes pass. */
  readOnly?: boolean;
}

export interface RateLimitWait {
  method: Method;
  path: string;
  waitMs: number;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What one answer said about the service's load: its status, a Retry-After, and the
 * X-RateLimit-* headers where it sends them (reset as ms from now).
 */
export interface LoadSignal {
  status: number;
  retryAfterMs?: number;
  rateLimit?: { limit?: number; remaining?: number; resetMs?: number };
}

/**
 * Requests sent in the background at a pace their owner sets (the archive's sync): over a pool
 * of their own, so the console's own requests never queue behind them, with each answer's load
 * signal handed to `onAnswer` and no 429 waited out here (the owner slows down and sends again).
 */
export interface Lane {
  /** Connections of the lane's own pool. */
  connections: number;
  onAnswer?: (signal: LoadSignal) => void;
}

export interface StreamBody {
  contentType: string;
  length: number;
  /** A fresh iterable per attempt (only GETs are retried, so in practice one). */
  open: () => AsyncIterable<Uint8Array>;
}

interface WireRequest {
  method: Method;
  /** Path under the base URL, starting with '/', query included. */
  path: string;
  json?: unknown;
  stream?: StreamBody;
  signal?: AbortSignal;
  lane?: Lane;
}

export interface WireResponse {
  status: number;
  /** Parsed JSON body; undefined when the body was empty or not JSON (a 2xx in text/plain is a success). */
  body: unknown;
  /** The body as text, '' when empty: what a text/plain success said, or what an unreadable answer held. */
  text: string;
  /** The content type without parameters, '' when none was given. */
  contentType: string;
}

interface SharedPool {
  pool: Pool;
  users: number;
}
/** Pools shared by clients of the same base URL and timeouts; destroyed when the last client closes. */
const pools = new Map<string, SharedPool>();

export interface Transport {
  readonly baseUrl: string;
  /** Set from how each request ended (answered, refused the key, unreachable). */
  readonly connection: ConnectionStateFeed;
  send(req: WireRequest): Promise<WireResponse>;
  close(): Promise<void>;
}

export function createTransport(opts: TransportOptions): Transport {
  const base = parseBaseUrl(opts.baseUrl);
  const baseUrl = base.href.replace(/\/$/, '');
  const basePath = base.pathname.replace(/\/$/, '');
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const retries = Math.max(0, opts.retries ?? DEFAULT_RETRIES);
  const retryBaseMs = opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const debug = opts.debug;
  const maxBytes = opts.maxResponseBytes ?? maxResponseBytes();
  const poolKey = `${base.origin}|${timeouts.connectMs}|${timeouts.headersMs}|${timeouts.bodyMs}`;
  const shared = acquirePool(poolKey, base.origin, timeouts);
  // A lane's own pool, opened by its first request (most transports never have one).
  let laneKey: string | undefined;
  const lanePool = (lane: Lane): SharedPool => {
    laneKey ??= `${poolKey}|lane|${lane.connections}`;
    return pools.get(laneKey) ?? acquirePool(laneKey, base.origin, timeouts, lane.connections);
  };
  const connection = new ConnectionStateFeed();
  let closed = false;
  // Ends the waits between retries when the client closes, so a quit never sleeps out a backoff.
  const closing = new AbortController();

  async function once(req: WireRequest): Promise<Answer> {
    const headers: Record<string, string> = { 'x-api-key': opts.apiKey, accept: 'application/json' };
    let body: string | Readable | undefined;
    let signal: AbortSignal;
    let watch: UploadWatch | undefined;
    let deadline: AbortSignal | undefined;
    if (req.stream) {
      headers['content-type'] = req.stream.contentType;
      headers['content-length'] = String(req.stream.length);
      watch = watchUpload(req.stream.open(), timeouts);
      body = Readable.from(watch.chunks, { objectMode: false });
      signal = req.signal ? AbortSignal.any([req.signal, watch.signal]) : watch.signal;
    } else {
      deadline = AbortSignal.timeout(timeouts.totalMs);
      signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
      if (req.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.json);
      }
    }
    try {
      const res = await (req.lane ? lanePool(req.lane) : shared).pool.request({
        method: req.method,
        path: basePath + req.path,
        headers,
        body,
        signal,
        // undici counts a long upload against headersTimeout; uploads time their own phases instead.
        ...(watch ? { headersTimeout: 0 } : {}),
      });
      watch?.stop();
      // Read whole, even for errors, so the connection goes back to the pool; but never more than maxBytes.
      const text = await readBounded(res.body, maxBytes, () => new ResponseTooLargeError(maxBytes, req.method, req.path, baseUrl));
      const ct = res.headers['content-type'];
      const ra = res.headers['retry-after'];
      const answer: Answer = { status: res.statusCode, contentType: Array.isArray(ct) ? ct[0] : (ct ?? ''), text, retryAfter: Array.isArray(ra) ? ra[0] : ra };
      req.lane?.onAnswer?.(loadSignal(answer, res.headers));
      return answer;
    } catch (err) {
      const phase = watch?.firedPhase();
      if (phase) throw new TimeoutError(phase, phase === 'upload' ? timeouts.bodyMs : uploadAnswerMs(timeouts), req.method, req.path, baseUrl);
      if (deadline?.aborted && !req.signal?.aborted) throw new TimeoutError('total', timeouts.totalMs, req.method, req.path, baseUrl);
      throw err;
    } finally {
      watch?.stop();
    }
  }

  async function send(req: WireRequest): Promise<WireResponse> {
    const where = { method: req.method, path: req.path, baseUrl };
    if (closed) throw new NetworkError(`the connection to ${baseUrl} was already closed`, undefined, req.method, req.path, baseUrl);
    if (opts.readOnly && req.method !== 'GET') {
      debug?.(`${req.method} ${stripQuery(req.path)} refused: read-only`);
      throw new ReadOnlyError(`${req.method} ${stripQuery(req.path)}`);
    }
    const mayRetry = RETRY_METHODS.has(req.method);
    let limited = 0;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const took = () => `${Math.round(performance.now() - started)} ms`;
      let answer: Answer;
      try {
        if (req.signal?.aborted) throw req.signal.reason;
        answer = await once(req);
      } catch (raw) {
        const err = req.signal?.aborted ? new AbortedError(req.method, req.path, baseUrl) : translateFailure(raw, where, timeouts);
        if (mayRetry && attempt < retries && isRetryable(err)) {
          const wait = backoff(retryBaseMs, attempt);
          debug?.(`${req.method} ${req.path} → ${describeFailure(err)} (${took()}), retrying in ${wait} ms`);
          await pause(wait, req, baseUrl, closing.signal);
          continue;
        }
        debug?.(`${req.method} ${req.path} → ${describeFailure(err)} (${took()})`);
        connection.set(stateAfter(err));
        throw err;
      }
      if (mayRetry && attempt < retries && RETRY_STATUSES.has(answer.status)) {
        const wait = backoff(retryBaseMs, attempt);
        debug?.(`${req.method} ${req.path} → ${answer.status} (${took()}), retrying in ${wait} ms`);
        await pause(wait, req, baseUrl, closing.signal);
        continue;
      }
      if (mayRetry && answer.status === 429 && limited < RATE_LIMIT_RETRIES && !req.lane) {
        // A rate limit starts a little slower than a failure: the service asked for less traffic.
        const wait = retryAfterMs(answer.retryAfter) ?? backoff(retryBaseMs * 4, limited);
        if (wait <= RATE_LIMIT_MAX_WAIT_MS) {
          limited++;
          attempt--; // a rate limit does not use up the budget for failures
          debug?.(`${req.method} ${req.path} → 429 (${took()}), rate limited, retrying in ${wait} ms`);
          opts.onRateLimited?.({ method: req.method, path: req.path, waitMs: wait });
          await pause(wait, req, baseUrl, closing.signal);
          continue;
        }
      }
      if (answer.status === 429 && req.lane) {
        // The lane's owner slows down and sends again; the person is still told why it waits.
        const wait = retryAfterMs(answer.retryAfter);
        debug?.(`${req.method} ${req.path} → 429 (${took()}), rate limited, the sync slows down${wait === undefined ? '' : ` for ${wait} ms`}`);
        opts.onRateLimited?.({ method: req.method, path: req.path, waitMs: wait ?? 0 });
      } else debug?.(`${req.method} ${req.path} → ${answer.status} (${took()})`);
      connection.set(stateAfter(answer));
      return interpret(answer, where);
    }
  }

  return {
    baseUrl,
    connection,
    send,
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      await releasePool(poolKey);
      if (laneKey && pools.has(laneKey)) await releasePool(laneKey);
    },
  };
}

/** The body as text, or `tooLarge()` thrown (and the rest of the body dropped) once it passes `max` bytes. */
async function readBounded(body: AsyncIterable<Uint8Array> & { destroy(err?: Error): void }, max: number, tooLarge: () => Error): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      const err = tooLarge();
      body.destroy(err);
      throw err;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

interface UploadWatch {
  chunks: AsyncIterable<Uint8Array>;
  /** Aborts the request when a phase overruns. */
  signal: AbortSignal;
  firedPhase(): 'upload' | 'headers' | undefined;
  stop(): void;
}

/**
 * Times an upload the way a person would, however long the whole upload takes: the service must
 * keep taking bytes (no silence longer than bodyMs), then answer. "Last byte handed to the socket"
 * is not "last byte received" (kernel buffers hold megabytes), so the answer may take bodyMs (for
 * the buffered tail to drain) plus headersMs.
 */
function watchUpload(source: AsyncIterable<Uint8Array>, t: Timeouts): UploadWatch {
  const controller = new AbortController();
  let fired: 'upload' | 'headers' | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (phase: 'upload' | 'headers', ms: number) => {
    clearTimeout(timer);
    // Once the answer is in, the watch is over even if undici still pulls the body.
    if (stopped) return;
    timer = setTimeout(() => {
      fired = phase;
      controller.abort();
    }, ms);
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    arm('upload', t.bodyMs);
    for await (const chunk of source) {
      yield chunk;
      arm('upload', t.bodyMs);
    }
    arm('headers', uploadAnswerMs(t));
  }
  return {
    chunks: chunks(),
    signal: controller.signal,
    firedPhase: () => fired,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function uploadAnswerMs(t: Timeouts): number {
  return t.bodyMs + t.headersMs;
}

function acquirePool(key: string, origin: string, t: Timeouts, connections = 8): SharedPool {
  let shared = pools.get(key);
  if (!shared) {
    const pool = new Pool(origin, {
      connect: { timeout: t.connectMs },
      headersTimeout: t.headersMs,
      bodyTimeout: t.bodyMs,
      // A handful of parallel requests (the console refreshes several lists) without flooding a remote service.
      connections,
    });
    shared = { pool, users: 0 };
    pools.set(key, shared);
  }
  shared.users++;
  return shared;
}

async function releasePool(key: string): Promise<void> {
  const shared = pools.get(key);
  if (!shared) return;
  shared.users--;
  if (shared.users > 0) return;
  pools.delete(key);
  // Destroyed, not closed: close() waits for requests in flight, and a service that never answers
  // would hold a quit for a whole headers timeout. Nobody is left to read those answers.
  await shared.pool.destroy();
}

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`"${text}" is not a valid base URL; expected something like https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(`the base URL must start with http:// or https:// (got "${url.protocol}")`);
  }
  if (url.username || url.password) {
    // Credentials in the URL would end up in messages and logs; the key travels in x-api-key.
    throw new InputError('the base URL must not contain a user name or password; the API key is sent separately');
  }
  return url;
}

/** Full jitter between half and all of base·2^attempt, so retrying clients do not stampede together. */
function backoff(baseMs: number, attempt: number): number {
  const ceiling = baseMs * 2 ** attempt;
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

async function pause(ms: number, req: WireRequest, baseUrl: string, closing: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal: req.signal ? AbortSignal.any([req.signal, closing]) : closing });
  } catch {
    if (closing.aborted && !req.signal?.aborted)
      throw new NetworkError(`the connection to ${baseUrl} was closed while waiting to retry`, undefined, req.method, req.path, baseUrl);
    throw new AbortedError(req.method, req.path, baseUrl);
  }
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): number | undefined => {
  const v = headers[name];
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v === undefined || !Number.isFinite(n) ? undefined : n;
};

/** An answer's load signal; X-RateLimit-Reset as seconds from now, or as a Unix time in seconds when it reads like one. */
function loadSignal(answer: Answer, headers: Record<string, string | string[] | undefined>, now = Date.now()): LoadSignal {
  const out: LoadSignal = { status: answer.status };
  const ra = retryAfterMs(answer.retryAfter, now);
  if (ra !== undefined) out.retryAfterMs = ra;
  const limit = header(headers, 'x-ratelimit-limit');
  const remaining = header(headers, 'x-ratelimit-remaining');
  const reset = header(headers, 'x-ratelimit-reset');
  if (limit !== undefined || remaining !== undefined || reset !== undefined)
    out.rateLimit = {
      ...(limit !== undefined ? { limit } : {}),
      ...(remaining !== undefined ? { remaining } : {}),
      ...(reset !== undefined ? { resetMs: Math.max(0, reset > 1e9 ? reset * 1000 - now : reset * 1000) } : {}),
    };
  return out;
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isRetryable(err: RequestError): boolean {
  if (err instanceof TimeoutError) return err.phase === 'connect';
  return err instanceof NetworkError && err.code !== undefined && RETRY_CODES.has(err.code);
}

function describeFailure(err: RequestError): string {
  if (err instanceof TimeoutError) return `${err.phase} timeout`;
  if (err instanceof ResponseTooLargeError) return 'answer too large';
  if (err instanceof NetworkError) return `network error ${err.code ?? ''}`.trim();
  if (err instanceof AbortedError) return 'cancelled';
  return err.name;
}

/** The code of a socket/undici error, looking inside the wrappers Node uses (cause, AggregateError). */
function errorCode(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  return errorCode(e.cause);
}

function translateFailure(err: unknown, where: { method: string; path: string; baseUrl: string }, t: Timeouts): RequestError {
  if (err instanceof RequestError) return err;
  const { method, path, baseUrl } = where;
  const code = errorCode(err);
  const host = new URL(baseUrl).host;
  const net = (message: string) => new NetworkError(message, code, method, path, baseUrl);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return new TimeoutError('connect', t.connectMs, method, path, baseUrl);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TimeoutError('headers', t.headersMs, method, path, baseUrl);
    case 'UND_ERR_BODY_TIMEOUT':
      return new TimeoutError('body', t.bodyMs, method, path, baseUrl);
    case 'ECONNREFUSED':
      return net(`nothing is answering at ${baseUrl} (connection refused)`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return net(`the connection to ${baseUrl} was closed before the service answered ${method} ${stripQuery(path)}`);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return net(`the answer from ${baseUrl} to ${method} ${stripQuery(path)} was cut short`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return net(`cannot find the host ${host} (DNS lookup failed)`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return net(`no network route to ${host}`);
  }
  const detail = err instanceof Error ? err.message : String(err);
  if (code && /CERT|TLS|SSL/.test(code)) return net(`the secure connection to ${baseUrl} failed: ${detail}`);
  return net(`cannot reach ${baseUrl}: ${detail}`);
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  retryAfter?: string;
}

/**
 * A 2xx is returned whatever its body (JSON, text/plain, empty, even HTML): the request succeeded,
 * and only the client, which knows what it asked for, can say whether the body is what it needed.
 * Anything else is an ApiError holding the service's own words.
 */
function interpret(answer: Answer, where: { method: string; path: string; baseUrl: string }): WireResponse {
  const { method, path, baseUrl } = where;
  const contentType = answer.contentType.split(';')[0].trim().toLowerCase();
  let body: unknown;
  if (answer.text.trim() !== '') {
    try {
      body = JSON.parse(answer.text);
    } catch {
      // not JSON: text/plain, a proxy's HTML page, or JSON cut short; the text is kept
    }
  }
  const res: WireResponse = { status: answer.status, body, text: answer.text, contentType };
  if (answer.status >= 200 && answer.status < 300) return res;
  const statusText = STATUS_CODES[answer.status] ?? '';
  const page = body === undefined && looksLikeHtml(contentType, answer.text);
  throw new ApiError(answer.status, errorWords(res, statusText), method, path, baseUrl, statusText, page);
}

/**
 * The service's words in an error. A `message` string or list is kept as sent (a command cuts a
 * long one to a few lines, --debug prints it whole); any other form is serviceWords' one line, and
 * a page that only repeats the status says nothing.
 */
function errorWords(res: WireResponse, statusText: string): string | string[] | undefined {
  const b = res.body;
  if (typeof b === 'object' && b !== null && !Array.isArray(b) && 'message' in b) {
    const m = b.message;
    if (typeof m === 'string' && m.trim()) return m;
    if (Array.isArray(m) && m.length > 0 && m.every((x) => typeof x === 'string')) return m as string[];
  }
  const said = serviceWords(res);
  if (said === undefined) return undefined;
  const bare = said.replace(new RegExp(`^${res.status}\\b\\s*[-:]?\\s*`), '').trim();
  return bare === '' || bare.toLowerCase() === statusText.toLowerCase() ? undefined : said;
}

/** Why a 2xx body is not JSON, with its start: for a shape error's message. */
export function notJsonProblem(res: WireResponse): string {
  const what = res.contentType || 'no content type';
  if (res.text.trim() === '') return 'the body was empty';
  const problem = /json/i.test(what) ? 'its JSON is malformed' : `expected JSON, got ${what}`;
  return `${problem} starting "${preview(res.text, 60)}"`;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * A multipart/form-data body with one part `file`, read from disk as it is sent: the preamble,
 * the file's bytes in 64 KiB chunks, the closing boundary. Its length is known up front, so the
 * request carries a Content-Length and memory stays flat whatever the file size.
 */
export async function multipartFromFile(path: string, opts: { name?: string; onProgress?: (sent: number, total: number) => void }): Promise<StreamBody> {
  // node:fs/promises (like node:crypto below) is loaded by an upload, not by every client.
  const { access, stat } = process.getBuiltinModule('node:fs/promises');
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path} is not a regular file; give the path of a file to upload`);
    await access(path, fsConstants.R_OK);
    size = info.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = errorCode(err);
    if (code === 'ENOENT') throw new InputError(`there is no file at ${path}`);
    if (code === 'EACCES' || code === 'EPERM') throw new InputError(`cannot read ${path}: permission denied`);
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const name = opts.name ?? basename(path);
  const mime = MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
  const boundary = `----switchboard${process.getBuiltinModule('node:crypto').randomBytes(12).toString('hex')}`;
  // Quotes and line breaks cannot appear inside the quoted filename; browsers percent-encode them the same way.
  const safeName = name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\nContent-Type: ${mime}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const onProgress = opts.onProgress;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    async *open() {
      yield head;
      let sent = 0;
      onProgress?.(0, size);
      if (size > 0) {
        // `end` pins the read to the size announced in Content-Length, even if the file grows meanwhile.
        for await (const chunk of createReadStream(path, { end: size - 1, highWaterMark: 64 * 1024 })) {
          yield chunk as Buffer;
          sent += (chunk as Buffer).length;
          onProgress?.(sent, size);
        }
      }
      yield tail;
    },
  };
}
