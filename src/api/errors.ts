// The error kinds of the wire, and `failure()`: the one function that turns any error into the
// user's words (what failed, the next step, and what kind of failure it is), for the console's
// flashes and error states and for every command's line on stderr. A leaf module (no imports),
// so every layer may use it. No message ever contains an API key: the client never puts
// headers into errors, and the base URL carries no credentials.

/**
 * `instanceof` for an error class by a brand both copies of it share. The commands' CommonJS file
 * and the console's and sandbox's ESM entries are bundled apart, so each holds its own copy of
 * these classes: an error the console's copy throws must still be the commands' InputError (an
 * exit code of 2, not 1). Every class checked with instanceof is branded (a subclass has its own).
 */
export function brandError(cls: abstract new (...args: never[]) => Error, name: string): void {
  const brand = Symbol.for(`switchboard.error.${name}`);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, { value: (x: unknown) => typeof x === 'object' && x !== null && brand in x });
}

/** Something about a request to the service failed; every kind below names the request. */
export class RequestError extends Error {
  /**
   * For a write that may have happened although no answer said so: how to find out, in the
   * user's words (the client sets it, knowing what was asked, e.g. the call log filtered to the
   * assistant and number of an outbound call).
   */
  check?: string;

  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    readonly baseUrl: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The request was a write and may have reached the service, which may have acted on it. */
  get mayHaveActed(): boolean {
    return false;
  }
}

/** Writes whose loss is not harmless to repeat blindly; a GET never changes anything. */
function isWrite(method: string): boolean {
  return method !== 'GET';
}

/** The service answered with a non-2xx status. `serviceMessage` is what it said (string or list). */
export class ApiError extends RequestError {
  constructor(
    readonly status: number,
    readonly serviceMessage: string | string[] | undefined,
    method: string,
    path: string,
    baseUrl: string,
    /** How the status reads when the service gave no message, e.g. "Not Found". */
    readonly statusText = '',
    /** The answer was a web page, not an API's answer: the base URL may point somewhere else. */
    readonly webPage = false,
  ) {
    super(describeApiError(status, serviceMessage, method, path, statusText), method, path, baseUrl);
  }

  /** A gateway's error on a write: the service behind it may have done the work. */
  override get mayHaveActed(): boolean {
    return isWrite(this.method) && (this.status === 502 || this.status === 504);
  }

  /** The service's message for display (a list is joined). */
  get detail(): string {
    return joinServiceMessage(this.serviceMessage) || this.statusText;
  }
}

/**
 * A 2xx answer to a read whose body is not what the endpoint returns (HTML, wrong JSON, missing
 * id…). A write's 2xx is never one: it succeeded, whatever its body (see Written in contract.ts).
 */
export class ResponseShapeError extends ApiError {
  constructor(
    status: number,
    readonly problem: string,
    method: string,
    path: string,
    baseUrl: string,
    /** The body was not JSON at all (a web page, plain text): not an answer of this API. */
    readonly notTheService = false,
  ) {
    super(status, undefined, method, path, baseUrl);
    this.message = `the service answered ${method} ${stripQuery(path)} with an unexpected shape: ${problem}`;
  }

  override get detail(): string {
    return this.problem;
  }

  override get mayHaveActed(): boolean {
    return false;
  }
}

/** The service could not be reached: refused, reset, DNS, TLS. */
export class NetworkError extends RequestError {
  constructor(
    message: string,
    readonly code: string | undefined,
    method: string,
    path: string,
    baseUrl: string,
  ) {
    super(message, method, path, baseUrl);
  }

  /** The connection was lost after the request went out: the service may have received it. */
  override get mayHaveActed(): boolean {
    return isWrite(this.method) && this.code !== undefined && LOST_AFTER_SENDING.has(this.code);
  }
}

/** Connection failures that can happen after the request was sent (unlike refused, DNS or TLS). */
const LOST_AFTER_SENDING = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

export type TimeoutPhase = 'connect' | 'upload' | 'headers' | 'body' | 'total';

/** A phase of the request took longer than its limit. */
export class TimeoutError extends RequestError {
  constructor(
    readonly phase: TimeoutPhase,
    readonly limitMs: number,
    method: string,
    path: string,
    baseUrl: string,
  ) {
    super(timeoutMessage(phase, limitMs, method, path, baseUrl), method, path, baseUrl);
  }

  /** Only a connect timeout is sure the request never left. */
  override get mayHaveActed(): boolean {
    return isWrite(this.method) && this.phase !== 'connect';
  }
}

/** The answer was larger than the most the client reads; the rest of it was dropped. */
export class ResponseTooLargeError extends RequestError {
  constructor(
    readonly limitBytes: number,
    method: string,
    path: string,
    baseUrl: string,
  ) {
    super(
      `the answer to ${method} ${stripQuery(path)} was larger than ${Math.round(limitBytes / 1024 / 1024)} MB, ` +
        'the most Switchboard reads; it was stopped there',
      method,
      path,
      baseUrl,
    );
  }
}

/**
 * The caller aborted the request through its AbortSignal. Its `name` is 'AbortError', like the
 * platform's, so `err.name === 'AbortError'` checks work as well as `instanceof AbortedError`.
 */
export class AbortedError extends RequestError {
  constructor(method: string, path: string, baseUrl: string) {
    super(`${method} ${stripQuery(path)} was cancelled`, method, path, baseUrl);
    this.name = 'AbortError';
  }
}

/**
 * Bad input given by the user before anything is sent: a date, a phone number, a file path, a
 * profile or setting (config's ConfigError), a command's usage (commands' UsageError). Its
 * message names the value and what to give instead.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * A write refused before it was sent: the run is read-only (`--read-only`, or the profile's
 * `readOnly`). Nothing reached the service.
 */
export class ReadOnlyError extends InputError {
  constructor(readonly what: string) {
    super(`read-only: ${what} refused, nothing was sent or changed; run without --read-only (and without the profile's readOnly) to make changes`);
    this.name = 'ReadOnlyError';
  }
}

/**
 * An error as plain data, to cross a thread boundary (a worker's postMessage copies an Error's
 * message but not its class or fields) and be rebuilt there as the same kind, so failure() says
 * the same words and the same next step (a refused key: `switchboard login`).
 */
export type WireError =
  | {
      kind: 'api';
      status: number;
      serviceMessage?: string | string[];
      method: string;
      path: string;
      baseUrl: string;
      statusText: string;
      webPage?: boolean;
      check?: string;
    }
  | { kind: 'shape'; status: number; problem: string; method: string; path: string; baseUrl: string; notTheService?: boolean }
  | { kind: 'network'; message: string; code?: string; method: string; path: string; baseUrl: string; check?: string }
  | { kind: 'timeout'; phase: TimeoutPhase; limitMs: number; method: string; path: string; baseUrl: string; check?: string }
  | { kind: 'aborted'; method: string; path: string; baseUrl: string }
  | { kind: 'too-large'; limitBytes: number; method: string; path: string; baseUrl: string }
  | { kind: 'input'; message: string }
  | { kind: 'other'; name: string; message: string };

export function errorToWire(err: unknown): WireError {
  if (err instanceof ResponseShapeError)
    return {
      kind: 'shape',
      status: err.status,
      problem: err.problem,
      method: err.method,
      path: err.path,
      baseUrl: err.baseUrl,
      notTheService: err.notTheService,
    };
  if (err instanceof ApiError)
    return {
      kind: 'api',
      status: err.status,
      serviceMessage: err.serviceMessage,
      method: err.method,
      path: err.path,
      baseUrl: err.baseUrl,
      statusText: err.statusText,
      webPage: err.webPage,
      check: err.check,
    };
  if (err instanceof NetworkError)
    return { kind: 'network', message: err.message, code: err.code, method: err.method, path: err.path, baseUrl: err.baseUrl, check: err.check };
  if (err instanceof TimeoutError)
    return { kind: 'timeout', phase: err.phase, limitMs: err.limitMs, method: err.method, path: err.path, baseUrl: err.baseUrl, check: err.check };
  if (err instanceof AbortedError) return { kind: 'aborted', method: err.method, path: err.path, baseUrl: err.baseUrl };
  if (err instanceof ResponseTooLargeError) return { kind: 'too-large', limitBytes: err.limitBytes, method: err.method, path: err.path, baseUrl: err.baseUrl };
  if (err instanceof InputError) return { kind: 'input', message: err.message };
  if (err instanceof Error) return { kind: 'other', name: err.name, message: err.message };
  return { kind: 'other', name: 'Error', message: String(err) };
}

export function errorFromWire(w: WireError): Error {
  switch (w.kind) {
    case 'shape':
      return new ResponseShapeError(w.status, w.problem, w.method, w.path, w.baseUrl, w.notTheService);
    case 'api':
      return withCheck(new ApiError(w.status, w.serviceMessage, w.method, w.path, w.baseUrl, w.statusText, w.webPage), w.check);
    case 'network':
      return withCheck(new NetworkError(w.message, w.code, w.method, w.path, w.baseUrl), w.check);
    case 'timeout':
      return withCheck(new TimeoutError(w.phase, w.limitMs, w.method, w.path, w.baseUrl), w.check);
    case 'aborted':
      return new AbortedError(w.method, w.path, w.baseUrl);
    case 'too-large':
      return new ResponseTooLargeError(w.limitBytes, w.method, w.path, w.baseUrl);
    case 'input':
      return new InputError(w.message);
    case 'other': {
      const err = new Error(w.message);
      err.name = w.name;
      return err;
    }
  }
}

function withCheck<E extends RequestError>(err: E, check: string | undefined): E {
  if (check !== undefined) err.check = check;
  return err;
}

/** What kind of failure: what the user can do about it (commands turn it into an exit code). */
type FailureKind = 'input' | 'auth' | 'unreachable' | 'service' | 'cancelled' | 'unexpected';

export interface Failure {
  kind: FailureKind;
  /** What failed and why, on one line. */
  message: string;
  /** The next step, when the message does not already say it. */
  hint?: string;
}

/** An error in the user's words. Every surface (console, commands) says errors through this. */
export function failure(err: unknown): Failure {
  const raw = err instanceof Error ? err.message : String(err);
  const message = raw.replace(/\s*\n\s*/g, ' ').trim();
  if (err instanceof RequestError && err.mayHaveActed) {
    // No answer said no: the write may have happened, and sending it again may do it twice.
    const check = err.check ?? 'check whether it did before sending it again';
    return { kind: kindOf(err), message: `${message}; it may have happened anyway: ${check}`, hint: 'sending it again could do it twice' };
  }
  return { kind: kindOf(err), message, hint: hintFor(err) };
}

function kindOf(err: unknown): FailureKind {
  if (err instanceof InputError) return 'input';
  if (err instanceof Error && err.name === 'AbortError') return 'cancelled'; // ours (AbortedError) or the platform's
  if (err instanceof ApiError) return err.status === 401 || err.status === 403 ? 'auth' : 'service';
  if (err instanceof NetworkError || err instanceof TimeoutError) return 'unreachable';
  if (err instanceof ResponseTooLargeError) return 'service';
  return 'unexpected';
}

/** The next step for the user, or undefined when the message already says it all. */
function hintFor(err: unknown): string | undefined {
  if (err instanceof ResponseShapeError) {
    if (err.notTheService) return notTheServiceHint(err.baseUrl);
    // JSON, but not in a form this client reads: the service is there, its shape is new to us.
    return 'the service answered in a form Switchboard does not read; `switchboard doctor` shows what it sends';
  }
  // A web page saying a whole collection (GET /assistants) does not exist: not this API. A 404 for
  // one id is ordinary, whatever its body.
  if (err instanceof ApiError && err.webPage && err.status === 404 && /^\/[^/]+$/.test(stripQuery(err.path))) return notTheServiceHint(err.baseUrl);
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) {
      return 'the API key was refused; run `switchboard login` or set SWITCHBOARD_API_KEY';
    }
    if (err.status === 404) return 'check the id; list the records to see which exist';
    if (err.status === 413) return 'the file is larger than the service accepts';
    if (err.status === 429) return 'the service is limiting requests; wait a moment and try again';
    if (err.status >= 500) return 'the service had a problem; try again in a moment';
    if (err.status === 400 || err.status === 422) return 'fix the value the service named and try again';
    return undefined;
  }
  if (err instanceof NetworkError) {
    return `check that the service is running at ${err.baseUrl}, or choose another target with --profile or SWITCHBOARD_BASE_URL`;
  }
  if (err instanceof TimeoutError) {
    return err.phase === 'total'
      ? 'the service kept sending without finishing; try again, or narrow what you ask for'
      : 'the service is slow or unreachable; try again in a moment';
  }
  if (err instanceof ResponseTooLargeError) return 'ask for less (a smaller --limit or a filter), or raise SWITCHBOARD_MAX_RESPONSE_MB';
  return undefined;
}

function notTheServiceHint(baseUrl: string): string {
  return `check that ${baseUrl} is the Voice Agent Service (the base URL may point somewhere else)`;
}

function joinServiceMessage(message: string | string[] | undefined): string {
  return Array.isArray(message) ? message.join('; ') : (message ?? '');
}

function describeApiError(status: number, message: string | string[] | undefined, method: string, path: string, statusText: string): string {
  const said = joinServiceMessage(message) || statusText || 'no message';
  return `${method} ${stripQuery(path)} failed (${status}): ${said}`;
}

function timeoutMessage(phase: TimeoutPhase, limitMs: number, method: string, path: string, baseUrl: string): string {
  const secs = `${+(limitMs / 1000).toFixed(1)}s`;
  if (phase === 'connect') return `could not connect to ${baseUrl} within ${secs}`;
  if (phase === 'upload') return `${method} ${stripQuery(path)}: the service stopped taking the upload for ${secs}`;
  if (phase === 'headers') return `${method} ${stripQuery(path)}: the service did not start answering within ${secs}`;
  if (phase === 'total')
    return `${method} ${stripQuery(path)}: the service had not finished its answer after ${secs} (it never went silent long enough to time out)`;
  return `${method} ${stripQuery(path)}: the service stopped sending its answer for ${secs}`;
}

/** Messages name the endpoint, not the filter values (which may be long). */
export function stripQuery(path: string): string {
  const i = path.indexOf('?');
  return i === -1 ? path : path.slice(0, i);
}

brandError(RequestError, 'RequestError');
brandError(ApiError, 'ApiError');
brandError(ResponseShapeError, 'ResponseShapeError');
brandError(NetworkError, 'NetworkError');
brandError(TimeoutError, 'TimeoutError');
brandError(ResponseTooLargeError, 'ResponseTooLargeError');
brandError(AbortedError, 'AbortedError');
brandError(InputError, 'InputError');
brandError(ReadOnlyError, 'ReadOnlyError');
