// Plain HTTP for the sandbox's own tests (the client has its own tests against the sandbox).
// Every exchange is checked against the sandbox's own /openapi.json (test/support/openapi-check.ts):
// an answer the document does not describe fails the test that received it.
import type { RunningSandbox } from '../support/sandbox.js';
import { OpenApiCheck } from '../support/openapi-check.js';

const checks = new Map<string, Promise<OpenApiCheck>>();

/** The checker for this sandbox, fed the document it serves. */
export function openApiCheck(sb: { url: string }): Promise<OpenApiCheck> {
  let c = checks.get(sb.url);
  if (!c) {
    c = fetch(`${sb.url}/openapi.json`).then(async (r) => new OpenApiCheck(await r.json()));
    checks.set(sb.url, c);
  }
  return c;
}

function requestBodyOf(body: unknown, contentType: string | undefined): unknown {
  if (typeof body !== 'string') return body instanceof FormData || body instanceof Uint8Array ? '(binary)' : body;
  if (!/json/i.test(contentType ?? '')) return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * fetch, then the exchange is checked against the sandbox's /openapi.json: a request or answer
 * the document does not describe throws, failing the test that made it.
 */
export async function checkedFetch(base: string, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(base + path, init);
  const text = await res.clone().text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const headers = new Headers(init.headers);
  const body = init.body;
  const sentType = headers.get('content-type') ?? (body instanceof FormData ? 'multipart/form-data' : undefined);
  const problems = (await openApiCheck({ url: base })).problems({
    method: init.method ?? 'GET',
    url: path,
    requestContentType: sentType,
    requestBody: body === undefined || body === null ? undefined : requestBodyOf(body, sentType),
    status: res.status,
    responseContentType: res.headers.get('content-type'),
    responseBody: parsed,
    responseText: text,
  });
  if (problems.length) throw new Error(`the answer does not match /openapi.json:\n${problems.join('\n')}`);
  return res;
}

export async function send(sb: RunningSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { 'x-api-key': sb.apiKey, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof FormData || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
    if (!(body instanceof FormData) && !('content-type' in headers)) (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await checkedFetch(sb.url, path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const get = (sb: RunningSandbox, path: string) => send(sb, 'GET', path);
export const post = (sb: RunningSandbox, path: string, body?: unknown) => send(sb, 'POST', path, body);

/** Asserts-friendly check of the one error shape. */
export function isErrorBody(b: any, status: number): boolean {
  return b && b.statusCode === status && typeof b.error === 'string' && typeof b.message === 'string' && b.message.length > 0;
}

/** Polls until `check` returns a value (not undefined), waiting at most `ms` in total. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function upload(
  sb: RunningSandbox,
  name: string,
  content: string | Uint8Array,
  field = 'file',
  type = 'application/octet-stream',
): Promise<Answer> {
  const form = new FormData();
  form.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), name);
  return send(sb, 'POST', '/files', form);
}
