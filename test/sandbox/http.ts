// Plain HTTP for the sandbox's own tests (the client has its own tests against the sandbox).
import type { RunningSandbox } from '../support/sandbox.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function send(
  sb: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { 'x-api-key': sb.apiKey, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof FormData || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
    if (!(body instanceof FormData) && !('content-type' in headers)) (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(sb.url + path, init);
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

export async function upload(sb: RunningSandbox, name: string, content: string | Uint8Array, field = 'file', type = 'application/octet-stream'): Promise<Answer> {
  const form = new FormData();
  form.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), name);
  return send(sb, 'POST', '/files', form);
}
