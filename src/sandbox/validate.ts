// Turns bad bodies and query strings into 400s whose message names the field.
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import { badRequest } from './errors.js';

const MAX_JSON_DEPTH = 32;

function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Fastify's own JSON parser (with its prototype-poisoning guard), plus a nesting limit: a
 * body thousands of levels deep would otherwise overflow the stack when stored.
 */
export function limitJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    void parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (deeperThan(value, MAX_JSON_DEPTH)) return done(badRequest(`the body is nested more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      done(null, value);
    });
  });
}

/**
 * DELETE takes no body, and many clients send one empty with a Content-Type anyway (often
 * application/json): without a body the header means nothing, so it is not parsed (no 400, no 415).
 */
export function ignoreEmptyDeleteBodies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const h = request.headers;
    if (request.method === 'DELETE' && h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0')) {
      delete h['content-type'];
    }
  });
}

type Issue = z.core.$ZodIssue;

const fieldPath = (path: PropertyKey[]) =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

function describeIssue(issue: Issue, input: unknown): string {
  const field = fieldPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      if (value === undefined) return `${field} is required`;
      const expected = issue.expected === 'int' ? 'whole number' : issue.expected === 'record' ? 'object' : issue.expected;
      return `${field || 'the body'} must be ${article(expected)}${value === null ? ', not null' : ''}`;
    }
    case 'unrecognized_keys': {
      const names = issue.keys.map((k) => (field ? `${field}.${k}` : k)).join(', ');
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${names}; see GET /openapi.json for the accepted fields`;
    }
    default:
      // Our own messages are written as "must …", to follow the field name.
      return field ? `${field} ${issue.message}` : issue.message;
  }
}

/**
 * Fields the server sets on every record. One rule on every route that takes a body: sent at the
 * top level (a client echoing back a record it read), they are ignored whatever their value, never stored.
 */
export const SERVER_SET_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

function withoutServerSetFields(body: object): Record<string, unknown> {
  const copy = { ...(body as Record<string, unknown>) };
  for (const k of SERVER_SET_FIELDS) delete copy[k];
  return copy;
}

/** Parses a JSON body that must be an object, without the server-set fields. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('the body must be a JSON object (Content-Type: application/json)');
  }
  const r = schema.safeParse(withoutServerSetFields(body));
  if (!r.success) throw badRequest(describeIssue(r.error.issues[0], body));
  return r.data;
}

// --- field builders with messages that read after the field name
/** The one wording for an empty id or required text, in a body or a path. */
export const EMPTY_ID = 'must not be empty';
export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
export const requiredText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, EMPTY_ID);
/** An id: any non-empty string (an unknown one is a 404, not a 400). */
export const idText = (max: number) => z.string().min(1, EMPTY_ID).max(max, `must be at most ${max} characters`);
export const wholeNumber = (min: number, max: number) =>
  z
    .number()
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);
export const numberIn = (min: number, max: number) =>
  z.number().min(min, `must be a number from ${min} to ${max}`).max(max, `must be a number from ${min} to ${max}`);

export const E164 = /^\+[1-9]\d{6,14}$/;

// --- query strings
export type Query = Record<string, string | string[] | undefined>;

/** Rejects parameters the route does not know, and repeated ones. */
export function checkQuery(query: unknown, allowed: readonly string[]): Query {
  const q = (query ?? {}) as Query;
  for (const [k, v] of Object.entries(q)) {
    if (!allowed.includes(k))
      throw badRequest(`unknown query parameter ${k}; ${allowed.length ? `this route takes ${allowed.join(', ')}` : 'this route takes none'}`);
    if (Array.isArray(v)) throw badRequest(`query parameter ${k} must be given once`);
  }
  return q;
}

/**
 * One policy for every route: query parameters the OpenAPI document does not list for the
 * operation are refused (400 naming them), so a typo never passes silently.
 */
export function refuseUndocumentedQuery(app: FastifyInstance, paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>): void {
  const allowed = new Map<string, string[]>();
  for (const [template, ops] of Object.entries(paths)) {
    const key = template.replace(/\{[^}]+\}/g, '*');
    for (const [method, op] of Object.entries(ops)) {
      allowed.set(
        `${method.toUpperCase()} ${key}`,
        (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
    }
  }
  app.addHook('preValidation', async (request) => {
    const route = request.routeOptions.url;
    if (route === undefined) return;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const names = allowed.get(`${method} ${route.replace(/:[^/]+/g, '*')}`);
    if (names) checkQuery(request.query, names);
  });
}

/** An empty id in the path (`GET /assistants/`) is a 400 naming it, worded as in a body. */
export function refuseEmptyPathIds(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (value === '') throw badRequest(`${name} ${EMPTY_ID}`);
    }
  });
}

export function intParam(q: Query, name: string, min: number, max: number, fallback: number): number {
  const raw = q[name] as string | undefined;
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

// Real dates only: months 01–12, the days each month has (29 February in leap years), hours
// 00–23, minutes and seconds 00–59, zone offsets up to ±23:59. The server applies this very
// pattern, so the document's pattern is exactly what is accepted. [0-9], not \d: in some regex
// dialects (Python's, which schema-based test generators use) \d matches non-ASCII digits too.
const DAY =
  '(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468]' +
  '[048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';
const TIME = '[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])?';
/** The dates a query parameter takes, as a JSON Schema pattern (the OpenAPI document carries it). */
export const DATE_QUERY_PATTERN = `^${DAY}(?:${TIME})?$`;
const REAL_DATE = new RegExp(DATE_QUERY_PATTERN);
const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * An ISO 8601 date or date-time, as a UTC ISO string. No zone means UTC. A bare date is the
 * start of that day, or its end when `endOfDay` (so "on or before" a day includes that day).
 * An impossible date or time (30 February, hour 25) is a 400 naming the parameter.
 */
export function dateParam(q: Query, name: string, endOfDay: boolean): string | undefined {
  const raw = q[name] as string | undefined;
  if (raw === undefined) return undefined;
  const m = PARTS.exec(raw);
  if (!m) throw badRequest(`${name} must be an ISO 8601 date or date-time like 2026-11-01 or 2026-11-01T09:30:00Z`);
  if (!REAL_DATE.test(raw)) throw badRequest(`${name} is not a real date or time: check the day of the month, hours 00–23, minutes and seconds 00–59`);
  const [, y, mo, d, h, mi, s, frac, zone, sign, zh, zm] = m;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (h === undefined) at.setUTCHours(endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0, endOfDay ? 999 : 0);
  else at.setUTCHours(Number(h), Number(mi), Number(s ?? 0), Number((frac ?? '').padEnd(3, '0').slice(0, 3)));
  const offsetMinutes = zone && sign ? (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm)) : 0;
  return new Date(at.getTime() - offsetMinutes * 60_000).toISOString();
}
