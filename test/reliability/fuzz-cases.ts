// The sandbox fuzz: fast-check generates requests to every endpoint (valid ones, and every
// kind of wrong: bodies, types, nesting, sizes, queries, path segments, headers, content
// types, cut-off bodies), sends them raw, and checks each answer. Shared by `npm run fuzz`
// (10,000 cases) and test/reliability/fuzz.test.ts (a seeded slice).
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { sendRaw, type RawAnswer, type RawRequest } from './raw-http.js';

/** Real ids in the sandbox under test, so valid cases reach real records. */
export interface KnownIds {
  assistant: string;
  number: string;
  session: string;
  file: string;
  apiKey: string;
}

interface FuzzCase {
  kind: string;
  /** A valid request must be answered 2xx. */
  valid: boolean;
  req: RawRequest;
}

type Part = 'assistant' | 'number' | 'session' | 'file';
interface Endpoint {
  method: string;
  /** `{assistant}` etc. are replaced by a real id or a fuzzed path segment. */
  path: string;
  body?: 'json' | 'multipart';
  query?: readonly string[];
}

/** Every route of the sandbox (the spec's 16, the sandbox's ring and its OpenAPI document). */
const ENDPOINTS: readonly Endpoint[] = [
  { method: 'GET', path: '/calls', query: ['id', 'assistantId', 'phoneNumberId', 'limit', 'createdAtGt', 'createdAtLt'] },
  { method: 'GET', path: '/calls/details', query: ['id', 'assistantId', 'phoneNumberId', 'limit', 'createdAtGt', 'createdAtLt'] },
  { method: 'POST', path: '/calls/outbound', body: 'json' },
  { method: 'POST', path: '/chats', body: 'json' },
  { method: 'POST', path: '/sessions', body: 'json' },
  { method: 'GET', path: '/chats/session/{session}' },
  { method: 'POST', path: '/assistants', body: 'json' },
  { method: 'GET', path: '/assistants' },
  { method: 'GET', path: '/assistants/{assistant}' },
  { method: 'PATCH', path: '/assistants/{assistant}', body: 'json' },
  { method: 'POST', path: '/phone-numbers/inbound/setup', body: 'json' },
  { method: 'GET', path: '/phone-numbers' },
  { method: 'POST', path: '/files', body: 'multipart' },
  { method: 'GET', path: '/files', query: ['page', 'limit'] },
  { method: 'GET', path: '/files/{file}' },
  { method: 'DELETE', path: '/files/{file}' },
  { method: 'GET', path: '/files/{file}/content', query: ['format'] },
  { method: 'GET', path: '/openapi.json' },
  { method: 'POST', path: '/sandbox/ring', body: 'json' },
];

const JSON_TYPE = 'application/json';

// --- pieces
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const nonBlank = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0);
const e164 = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{6,13}$/)).map(([c, n]) => `+${c}${n}`);
const jsonish = fc.jsonValue({ maxDepth: 3 });

/** A wrong-typed or odd value for a field. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, '', ' ', '\u0000', [], {}, 'NaN', '__proto__'),
  fc.double(),
  fc.integer(),
  anyText,
  jsonish,
  fc.integer({ min: 10_001, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

/** Path segments that should never escape their route: traversal, NUL, unicode, over-long. */
const oddSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    'a%00b',
    '%',
    '%zz',
    '%C0%AE',
    '%FF',
    '%F0%9F%98',
    '~',
    '*',
    ';',
    '%20',
    '%0D%0A',
  ),
  anyText.map((s) => encodeURIComponent(s)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), // raw UTF-8 on the wire
  fc.integer({ min: 200, max: 3000 }).map((n) => 'a'.repeat(n)),
  fc.uuid(),
);

const oddQueryValue = fc.oneof(
  anyText.map(encodeURIComponent),
  fc.constantFrom('', '%', '%00', '-1', '0', '1e3', '99999999999', '2026-02-30', 'yesterday', '[]', '%zz'),
  fc.integer().map(String),
);

function query(ep: Endpoint): fc.Arbitrary<string> {
  const known = ep.query ?? [];
  const key = known.length ? fc.oneof(fc.constantFrom(...known), anyText.map(encodeURIComponent)) : anyText.map(encodeURIComponent);
  return fc.oneof(
    fc.array(fc.tuple(key, oddQueryValue), { minLength: 1, maxLength: 4 }).map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}`),
    fc.constantFrom('?', '?&&&', '?=', '?a', '?limit=1&limit=2', '?%', '?x=%00'),
  );
}

const oddContentType = fc.oneof(
  fc.constantFrom(
    undefined,
    '',
    JSON_TYPE,
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json;;;',
    'text/plain',
    'text/html',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    '*/*',
    ';',
    'application/jsonx',
  ),
  anyText.filter((s) => !/[\r\n]/.test(s)),
);

// --- bodies
function validJson(path: string, ids: KnownIds): fc.Arbitrary<Record<string, unknown>> | undefined {
  switch (path) {
    case '/assistants':
      return fc.record({ name: nonBlank, description: fc.option(fc.string({ maxLength: 100 }), { nil: undefined }) }, { requiredKeys: ['name'] });
    case '/assistants/{assistant}':
      return fc.record({ description: fc.string({ maxLength: 100 }) });
    case '/sessions':
      return fc.record(
        { assistantId: fc.constant(ids.assistant), name: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }) },
        { requiredKeys: ['assistantId'] },
      );
    case '/chats':
      return fc.record({ sessionId: fc.constant(ids.session), input: nonBlank });
    case '/calls/outbound':
      return fc.record({ assistantId: fc.constant(ids.assistant), phoneNumberId: fc.constant(ids.number), customer: fc.record({ number: e164 }) });
    case '/phone-numbers/inbound/setup':
      return fc.constant({ assistantId: ids.assistant, phoneNumberId: ids.number });
    default:
      return undefined;
  }
}

/** A valid body with one field replaced, dropped, or an unknown one added. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), oddValue, fc.constantFrom('swap', 'drop', 'extra', 'proto')).map(([body, n, value, how]) => {
    const keys = Object.keys(body);
    const k = keys[n % Math.max(1, keys.length)];
    const copy: Record<string, unknown> = { ...body };
    if (how === 'swap' && k) copy[k] = value;
    else if (how === 'drop' && k) delete copy[k];
    else if (how === 'extra') copy[`field${n % 7}`] = value;
    else return JSON.parse(`{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, ${JSON.stringify(body).slice(1)}`);
    return copy;
  });
}

const deepJson = fc
  .tuple(fc.integer({ min: 33, max: 100_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

const garbage = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('{', '{"a":}', 'null', '[]', '"x"', '42', '{"a":1}{', 'true', '\u0000', '{"name": "\uD800"}', '\uFEFF{"name":"bom"}', '{"name":1e999}'),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
);

const oversizedJson = fc.integer({ min: 1_048_577, max: 1_300_000 }).map((n) => JSON.stringify({ name: 'x'.repeat(n) }));

// --- multipart
const oddFileName = fc.oneof(
  fc.constantFrom(
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'a\u0000b.txt',
    '\u001b[31mred.txt',
    '\u202Etxt.exe',
    '.hidden',
    '...',
    '',
    ' ',
    'CON',
    'a/b/c.md',
    'x'.repeat(400) + '.txt',
    'héllo wörld 📞.md',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

function multipart(name: string, content: Buffer, opts: { field?: string; boundary?: string; close?: boolean } = {}): { type: string; body: Buffer } {
  const b = opts.boundary ?? `fuzz${randomBytes(6).toString('hex')}`;
  // Quotes and line breaks escaped as browsers do; anything else goes through as UTF-8.
  const quoted = name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = `--${b}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${quoted}"\r\nContent-Type: text/plain\r\n\r\n`;
  const tail = opts.close === false ? '' : `\r\n--${b}--\r\n`;
  return { type: `multipart/form-data; boundary=${b}`, body: Buffer.concat([Buffer.from(head, 'utf8'), content, Buffer.from(tail)]) };
}

const fileContent = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
  fc.string({ maxLength: 500 }).map((s) => Buffer.from(s)),
);

// --- whole requests
const authHeader = (ids: KnownIds) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant<[string, string][]>([['x-api-key', ids.apiKey]]) },
    fc.constantFrom<[string, string][]>(
      [],
      [['x-api-key', '']],
      [['x-api-key', 'sk-wrong']],
      [['X-API-KEY', ids.apiKey]],
      [['x-api-key', `${ids.apiKey} `]],
      [['authorization', `Bearer ${ids.apiKey}`]],
      [
        ['x-api-key', ids.apiKey],
        ['x-api-key', 'second'],
      ],
    ),
  );

function target(ep: Endpoint, ids: KnownIds, segment: string | undefined, q: string): string {
  return ep.path.replace(/\{(\w+)\}/, (_, part: Part) => segment ?? ids[part]) + q;
}

const withLength = (headers: [string, string][], body: Buffer, declared = body.length): [string, string][] => [
  ...headers,
  ['Content-Length', String(declared)],
];

function fuzzCase(ids: KnownIds): fc.Arbitrary<FuzzCase> {
  const ep = fc.constantFrom(...ENDPOINTS);
  const key: [string, string] = ['x-api-key', ids.apiKey];

  const valid: fc.Arbitrary<FuzzCase> = ep
    .chain((e): fc.Arbitrary<FuzzCase | null> => {
      if (e.body === 'multipart') {
        return fc.tuple(oddFileName, fileContent).map(([name, content]) => {
          const m = multipart(name, content);
          return {
            kind: 'valid upload',
            valid: true,
            req: { method: 'POST', target: e.path, headers: withLength([key, ['Content-Type', m.type]], m.body), body: m.body },
          };
        });
      }
      if (e.method === 'DELETE') return fc.constant(null); // deleting seed records would starve later cases
      const body = validJson(e.path, ids);
      if (e.body === 'json' && !body) return fc.constant(null);
      const b = body ?? fc.constant(undefined);
      return b.map((json) => {
        const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
        const headers: [string, string][] = payload ? withLength([key, ['Content-Type', JSON_TYPE]], payload) : [key];
        return { kind: 'valid', valid: true, req: { method: e.method, target: target(e, ids, undefined, ''), headers, body: payload } };
      });
    })
    .filter((c): c is FuzzCase => c !== null);

  const badBody: fc.Arbitrary<FuzzCase> = fc
    .tuple(
      fc.constantFrom(...ENDPOINTS.filter((e) => e.body === 'json')),
      fc.oneof({ arbitrary: fc.constant('mutated'), weight: 4 }, fc.constantFrom('any JSON', 'deep', 'garbage', 'oversized', 'wrong type')),
      fc.nat(),
    )
    .chain(([e, how, _seed]) => {
      const v = validJson(e.path, ids) ?? fc.record({ did: fc.string() });
      const text: fc.Arbitrary<string> =
        how === 'mutated'
          ? mutated(v).map((x) => JSON.stringify(x))
          : how === 'any JSON'
            ? jsonish.map((x) => JSON.stringify(x) ?? 'null')
            : how === 'deep'
              ? deepJson
              : how === 'garbage'
                ? garbage
                : how === 'oversized'
                  ? oversizedJson
                  : v.map((x) => JSON.stringify(x));
      const type = how === 'wrong type' ? oddContentType : fc.constant<string | undefined>(JSON_TYPE);
      return fc.tuple(text, type, authHeader(ids)).map(([t, ct, auth]) => {
        const body = Buffer.from(t, 'utf8');
        const headers: [string, string][] = [...auth];
        if (ct !== undefined) headers.push(['Content-Type', ct]);
        return {
          kind: `body: ${how}`,
          valid: false,
          req: { method: e.method, target: target(e, ids, undefined, ''), headers: withLength(headers, body), body },
        };
      });
    });

  const badPath: fc.Arbitrary<FuzzCase> = fc
    .tuple(fc.constantFrom(...ENDPOINTS.filter((e) => e.path.includes('{'))), oddSegment, authHeader(ids))
    .map(([e, seg, auth]) => {
      const body = e.body === 'json' ? Buffer.from('{"name":"x"}') : undefined;
      const headers: [string, string][] = body ? withLength([...auth, ['Content-Type', JSON_TYPE]], body) : [...auth];
      return { kind: 'path segment', valid: false, req: { method: e.method, target: target(e, ids, seg, ''), headers, body } };
    });

  const strayPath: fc.Arbitrary<FuzzCase> = fc
    .tuple(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'FOO'),
      fc.oneof(
        oddSegment.map((s) => `/${s}`),
        fc.constantFrom(
          '/',
          '//',
          '/assistants/',
          '/files/../assistants',
          '/./calls',
          '/calls/../../etc/passwd',
          '*',
          '/ASSISTANTS',
          '/openapi.json/..',
          '/files/x/content/extra',
        ),
      ),
    )
    .map(([method, path]) => ({ kind: 'stray path or method', valid: false, req: { method, target: path, headers: [key] } }));

  const badQuery: fc.Arbitrary<FuzzCase> = fc
    .tuple(fc.constantFrom(...ENDPOINTS.filter((e) => e.method === 'GET')), authHeader(ids))
    .chain(([e, auth]) =>
      query(e).map((q) => ({ kind: 'query', valid: false, req: { method: 'GET', target: target(e, ids, undefined, q), headers: [...auth] } })),
    );

  const oddHeaders: fc.Arbitrary<FuzzCase> = fc
    .tuple(
      fc.constantFrom(...ENDPOINTS.filter((e) => e.method !== 'DELETE')), // a real delete would starve later cases
      fc.constantFrom<[string, string][]>(
        [['Transfer-Encoding', 'chunked']],
        [['Content-Encoding', 'gzip']],
        [['Expect', '100-continue']],
        [['Content-Length', '-1']],
        [['Content-Length', 'abc']],
        [
          ['Content-Length', '5'],
          ['Content-Length', '6'],
        ],
        [['Accept', 'text/html']],
        [['X-Forwarded-For', '../../']],
        [['Host', '']],
        [['x-api-key', 'a\u0001b']],
        [['Cookie', 'x'.repeat(9000)]],
      ),
    )
    .map(([e, extra]) => {
      const body = e.body ? Buffer.from('{"name":"hdr"}') : undefined;
      const headers: [string, string][] = [key, ...extra];
      if (body) headers.push(['Content-Type', JSON_TYPE]);
      if (body && !extra.some(([k]) => /content-length|transfer-encoding/i.test(k))) headers.push(['Content-Length', String(body.length)]);
      return { kind: 'headers', valid: false, req: { method: e.method, target: target(e, ids, undefined, ''), headers, body } };
    });

  const cut: fc.Arbitrary<FuzzCase> = fc
    .tuple(fc.constantFrom(...ENDPOINTS.filter((e) => e.body)), fc.integer({ min: 1, max: 4096 }), fc.double({ min: 0, max: 0.99, noNaN: true }))
    .map(([e, extra, frac]) => {
      const m =
        e.body === 'multipart'
          ? multipart('cut.txt', Buffer.alloc(3000, 97))
          : { type: JSON_TYPE, body: Buffer.from(JSON.stringify({ name: 'cut', description: 'y'.repeat(2000) })) };
      return {
        kind: 'cut body',
        valid: false,
        req: {
          method: e.method,
          target: target(e, ids, undefined, ''),
          headers: withLength([key, ['Content-Type', m.type]], m.body, m.body.length + extra),
          body: m.body,
          cutAt: Math.floor(m.body.length * frac),
        },
      };
    });

  const badUpload: fc.Arbitrary<FuzzCase> = fc
    .tuple(
      oddFileName,
      fileContent,
      fc.constantFrom('wrong field', 'no closing boundary', 'wrong boundary', 'oversized', 'no parts', 'two files', 'not multipart'),
    )
    .map(([name, content, how]) => {
      let m: { type: string; body: Buffer };
      if (how === 'wrong field') m = multipart(name, content, { field: 'upload' });
      else if (how === 'no closing boundary') m = multipart(name, content, { close: false });
      else if (how === 'wrong boundary') m = { ...multipart(name, content), type: 'multipart/form-data; boundary=nope' };
      else if (how === 'oversized') m = multipart(name, Buffer.alloc(OVERSIZED_UPLOAD, 120));
      else if (how === 'no parts') m = { type: 'multipart/form-data; boundary=empty', body: Buffer.from('--empty--\r\n') };
      else if (how === 'two files') {
        const a = multipart(name, content, { boundary: 'two', close: false });
        const b = multipart('second.txt', content, { boundary: 'two' });
        m = { type: a.type, body: Buffer.concat([a.body, Buffer.from('\r\n'), b.body]) };
      } else m = { type: 'text/plain', body: content };
      return {
        kind: `upload: ${how}`,
        valid: false,
        req: { method: 'POST', target: '/files', headers: withLength([key, ['Content-Type', m.type]], m.body), body: m.body },
      };
    });

  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: badBody, weight: 4 },
    { arbitrary: badPath, weight: 2 },
    { arbitrary: strayPath, weight: 1 },
    { arbitrary: badQuery, weight: 2 },
    { arbitrary: oddHeaders, weight: 1 },
    { arbitrary: cut, weight: 1 },
    { arbitrary: badUpload, weight: 2 },
  );
}

/** The fuzz sandbox runs with this upload limit, so oversized uploads stay cheap to send. */
export const FUZZ_MAX_UPLOAD = 64 * 1024;
const OVERSIZED_UPLOAD = FUZZ_MAX_UPLOAD + 1024;

/** What is wrong with an answer, or undefined when it is acceptable. */
function problemWith(c: FuzzCase, a: RawAnswer | 'closed'): string | undefined {
  if (a === 'closed') return c.req.cutAt !== undefined ? undefined : 'the sandbox closed the connection without answering';
  if (a.status >= 500) return `answered ${a.status}`;
  if (c.valid && (a.status < 200 || a.status > 299)) return `a valid request was answered ${a.status}: ${a.body.toString().slice(0, 200)}`;
  const isContent = /\/content(\?|$)/.test(c.req.target) && a.status < 300;
  if (c.req.method === 'HEAD' || isContent || a.status === 204) return undefined;
  if (!/application\/json/.test(a.headers['content-type'] ?? '')) return `answered ${a.status} with content-type ${a.headers['content-type']}`;
  let body: { statusCode?: unknown; error?: unknown; message?: unknown };
  try {
    body = JSON.parse(a.body.toString('utf8'));
  } catch {
    return `answered ${a.status} with a body that is not JSON: ${a.body.toString().slice(0, 100)}`;
  }
  if (a.status >= 400) {
    if (body.statusCode !== a.status || typeof body.error !== 'string' || typeof body.message !== 'string')
      return `error body not in the one shape: ${a.body.toString().slice(0, 200)}`;
    if (/\n\s+at .+:\d+/.test(body.message)) return 'the error message carries a stack trace';
  }
  return undefined;
}

export interface FuzzReport {
  cases: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  failures: { kind: string; problem: string; req: string }[];
  ms: number;
}

const describeReq = (r: RawRequest) =>
  JSON.stringify({
    method: r.method,
    target: r.target.slice(0, 300),
    headers: r.headers.map(([k, v]) => [k, v.slice(0, 80)]),
    body: r.body?.subarray(0, 200).toString(),
    bodyBytes: r.body?.length,
    cutAt: r.cutAt,
  });

/** Generates `cases` requests from `seed` and sends them, `concurrency` at a time. */
export async function runFuzz(opts: {
  host: string;
  port: number;
  ids: KnownIds;
  seed: number;
  cases: number;
  concurrency?: number;
  onProgress?: (done: number) => void;
}): Promise<FuzzReport> {
  const started = performance.now();
  const report: FuzzReport = { cases: 0, byStatus: {}, byKind: {}, failures: [], ms: 0 };
  // Generated in slices so the cases never all sit in memory at once (oversized bodies are large).
  const SLICE = 200;
  let rng = opts.seed;
  for (let start = 0; start < opts.cases; start += SLICE) {
    const batch = fc.sample(fuzzCase(opts.ids), { seed: rng++, numRuns: Math.min(SLICE, opts.cases - start) });
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const c = batch[next++];
        let answer: RawAnswer | 'closed';
        try {
          answer = await sendRaw(opts.host, opts.port, c.req);
        } catch (err) {
          report.failures.push({ kind: c.kind, problem: `no answer: ${(err as Error).message}`, req: describeReq(c.req) });
          continue;
        } finally {
          report.cases++;
          report.byKind[c.kind] = (report.byKind[c.kind] ?? 0) + 1;
        }
        const status = answer === 'closed' ? 'closed' : String(answer.status);
        report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
        const problem = problemWith(c, answer);
        if (problem) report.failures.push({ kind: c.kind, problem, req: describeReq(c.req) });
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
    opts.onProgress?.(report.cases);
  }
  report.ms = performance.now() - started;
  return report;
}

/** Real ids from a freshly seeded sandbox, found over HTTP. */
export async function knownIds(url: string, apiKey: string): Promise<KnownIds> {
  const get = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(url + path, { ...init, headers: { 'x-api-key': apiKey, 'content-type': JSON_TYPE, ...(init.headers ?? {}) } });
    if (!r.ok) throw new Error(`${path} → ${r.status}`);
    return (await r.json()) as Record<string, any>;
  };
  const assistant = (await get('/assistants')).assistants[0].id as string;
  const number = (await get('/phone-numbers')).phoneNumbers[0].id as string;
  const file = (await get('/files')).files[0].id as string;
  const session = (await get('/sessions', { method: 'POST', body: JSON.stringify({ assistantId: assistant }) })).session.id as string;
  return { assistant, number, session, file, apiKey };
}
