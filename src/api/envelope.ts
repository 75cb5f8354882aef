// The envelopes a Voice Agent Service wraps its answers in, and the words in its error bodies.
// The spec shows `{ message, <name> }`; services built on it answer bare records, `{ data }`,
// `{ items }`, a nested `{ error: { message } }` or a proxy's HTML page. This module knows every
// form we accept, so the client (and `doctor`, which reports the form each endpoint used) ask it
// instead of guessing.
//
//   unwrapRecord(body, 'assistant') -> { record, envelope } | undefined   one record
//   unwrapList(body, 'assistants')  -> { list, envelope, path } | undefined     a list
//   serviceWords(answer)            -> one line of the service's own words | undefined
//
// Envelope names read like the body's keys: "bare", "{assistant}", "{data}", "{message,data}",
// "{message,assistant}", "{items}", "{data:{assistants}}".

/** The longest service text kept for a message line. */
export const SERVICE_WORDS_MAX = 300;

/** What came back, as the transport read it. */
export interface AnswerText {
  status: number;
  contentType: string;
  /** The raw body text ('' when empty). */
  text: string;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  body: unknown;
}

/** Keys a body may carry beside its record without being one: a status line, not data. */
const STATUS_KEYS = new Set(['message', 'success', 'ok', 'statusCode', 'code']);

/**
 * One record: bare, `{<name>}`, `{data}`, `{message, data}` or `{message, <name>}`. Undefined when
 * the body holds no record (an array, a string, or only a status line such as `{ message }`).
 */
export function unwrapRecord(body: unknown, name: string): { record: unknown; envelope: string } | undefined {
  if (!isRecord(body)) return undefined;
  const said = 'message' in body ? 'message,' : '';
  if (isRecord(body[name])) return { record: body[name], envelope: `{${said}${name}}` };
  // A record with an id is bare even when one of its own fields is called `data`.
  if (isRecord(body.data) && !('id' in body)) {
    const inner = body.data;
    if (isRecord(inner[name])) return { record: inner[name], envelope: `{data:{${name}}}` };
    return { record: inner, envelope: `{${said}data}` };
  }
  if (Object.keys(body).every((k) => STATUS_KEYS.has(k))) return undefined;
  return { record: body, envelope: 'bare' };
}

/**
 * A list: a bare array, `{<plural>}`, `{data}`, `{items}`, `{results}` or `{data: {<plural>}}`;
 * `path` is the keys that lead to it from the top.
 */
export function unwrapList(body: unknown, plural: string): { list: unknown[]; envelope: string; path: string[] } | undefined {
  if (Array.isArray(body)) return { list: body, envelope: 'bare', path: [] };
  if (!isRecord(body)) return undefined;
  for (const key of [plural, 'data', 'items', 'results']) {
    const list = body[key];
    if (Array.isArray(list)) return { list, envelope: `{${key}}`, path: [key] };
  }
  if (isRecord(body.data)) {
    for (const key of [plural, 'items', 'results']) {
      const list = body.data[key];
      if (Array.isArray(list)) return { list, envelope: `{data:{${key}}}`, path: ['data', key] };
    }
  }
  return undefined;
}

/**
 * The service's own words in an answer, on one line of at most SERVICE_WORDS_MAX characters: a
 * JSON string or list of strings, `{message}` (a string or a list), `{error: "…"}`,
 * `{error: {message, code}}`, `{errors: [{message} | "…"]}`, `{detail}`, an HTML page's title or
 * heading (else its text), or plain text. Undefined when it said nothing readable.
 */
export function serviceWords(answer: AnswerText): string | undefined {
  const fromJson = answer.body !== undefined ? wordsOf(answer.body, 0) : undefined;
  if (fromJson) return oneLine(fromJson);
  const text = answer.text.trim();
  if (!text || answer.body !== undefined) return undefined;
  if (looksLikeHtml(answer.contentType, text)) {
    const words = htmlWords(text, answer.status);
    return words ? oneLine(words) : undefined;
  }
  return oneLine(text);
}

/** The answer is a web page, not an API's answer. */
export function looksLikeHtml(contentType: string, text: string): boolean {
  return /html/i.test(contentType) || /^\s*<(!doctype|html|head|body)\b/i.test(text);
}

/** A short, one-line preview of a body that was not understood, to show what came back. */
export function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function wordsOf(v: unknown, depth: number): string | undefined {
  if (depth > 3) return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  if (Array.isArray(v)) {
    const parts = v.map((x) => wordsOf(x, depth + 1)).filter((x): x is string => !!x);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (!isRecord(v)) return undefined;
  const message = wordsOf(v.message, depth + 1);
  const nested = isRecord(v.error) ? wordsOf(v.error, depth + 1) : undefined;
  const errors = Array.isArray(v.errors) ? wordsOf(v.errors, depth + 1) : undefined;
  const detail = wordsOf(v.detail, depth + 1) ?? wordsOf(v.msg, depth + 1);
  // `{ statusCode, error: "Bad Request", message }`: the message says more than the status name.
  const error = typeof v.error === 'string' ? v.error.trim() || undefined : undefined;
  const words = nested ?? message ?? errors ?? detail ?? error;
  const code = typeof v.code === 'string' || typeof v.code === 'number' ? String(v.code) : undefined;
  // A code beside a nested error's message names which one it was.
  return words && code && depth > 0 && !words.includes(code) ? `${words} (${code})` : words;
}

/** A page's title, else its heading, else its text; a title or heading that only names the status gives way to the text. */
function htmlWords(html: string, status: number): string | undefined {
  const strip = (s: string) =>
    decodeEntities(s.replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
  const title = strip(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
  const h1 = strip(/<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1] ?? '');
  const rest = strip(html.replace(/<(script|style|title|h1)[^>]*>[\s\S]*?<\/\1>/gi, ' '));
  const named = [title, h1].filter((w) => w && !onlyStatus(w, status));
  return named[0] ?? (rest || title || h1 || undefined);
}

/** "404 Not Found", "Not Found" or "404" for a 404: the status, not the service's words. */
function onlyStatus(words: string, status: number): boolean {
  const text = process.getBuiltinModule('node:http').STATUS_CODES[status] ?? '';
  const bare = words
    .replace(new RegExp(`^${status}\\b\\s*[-:]?\\s*`), '')
    .trim()
    .toLowerCase();
  return bare === '' || bare === text.toLowerCase();
}

function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : whole;
    }
    return named[code.toLowerCase()] ?? whole;
  });
}

function oneLine(s: string): string | undefined {
  const flat = s.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > SERVICE_WORDS_MAX ? `${flat.slice(0, SERVICE_WORDS_MAX - 1)}…` : flat;
}

/** A JSON body in a few words, for a message saying it was not what was asked for. */
export function describeBody(v: unknown): string {
  if (v === undefined) return 'an empty body';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isRecord(v)) {
    const keys = Object.keys(v);
    return keys.length ? `an object with ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : 'an empty object';
  }
  return `a ${typeof v}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What a write's unreadable success answer held, in the user's words (for a note, not an error). */
export function unreadNote(what: string, unread: { status: number; said: string; problem: string; recordFrom?: string }): string {
  const said = unread.said ? `: "${unread.said}"` : ', empty';
  const found = unread.recordFrom ? `; the record shown is ${unread.recordFrom}` : '';
  return `${what}; its answer (${unread.status}${said}) held no record Switchboard can read (${unread.problem})${found}`;
}
