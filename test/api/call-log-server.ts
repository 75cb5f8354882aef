// A call log served the ways a hosted service may serve it, for the paging tests: pages capped
// silently or a limit over the cap refused with a 400, created-at bounds strict or inclusive,
// under other names or ignored, answers bare (as Vapi's) or under `calls`. GET /files too, with a
// pagination block whose totalPages may be anything. A real HTTP server on loopback.
import { json, startServer, type TestServer } from './servers.js';

export interface LogRecord {
  id: string;
  createdAt: string;
  assistantId?: string;
  status?: string;
  [key: string]: unknown;
}

export interface CallLogOptions {
  /** Pages hold at most this many records, whatever `limit` asks (default: 1000). */
  cap?: number;
  /** A `limit` over `cap` is answered 400 with this message instead of being cut (`{cap}` is replaced). */
  refuse?: string;
  /** Whether a record created exactly at a bound is returned (default inclusive). */
  bounds?: 'inclusive' | 'strict';
  /** The created-at parameter names honoured (default createdAtGt/createdAtLt); 'ignored': none. */
  names?: readonly [after: string, before: string] | 'ignored';
  /** Vapi's inclusive pair honoured beside a strict `names` pair. */
  alsoInclusive?: readonly [after: string, before: string];
  /** Answer with a bare array (default) or `{ calls }`. */
  envelope?: 'bare' | 'calls';
  /** Every call's GET /calls and /calls/details `limit` default. */
  defaultLimit?: number;
  /** assistantId and id are not filtered on. */
  ignoreOtherFilters?: boolean;
  /** Past this many requests every answer is a 500 (a walk that would never end fails instead; default 400). */
  maxRequests?: number;
}

export interface CallLogServer extends TestServer {
  records: LogRecord[];
  /** The GET /calls and /calls/details requests' query parameters, in order. */
  queries(): URLSearchParams[];
}

export function byNewest(records: readonly LogRecord[]): LogRecord[] {
  return [...records].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
}

export async function startCallLog(records: LogRecord[], opts: CallLogOptions = {}): Promise<CallLogServer> {
  const cap = opts.cap ?? 1000;
  const state = { records };
  const server = await startServer((req, res, n) => {
    if (n > (opts.maxRequests ?? 400))
      return json(res, 500, { statusCode: 500, error: 'Internal Server Error', message: `request ${n}: the walk does not end` });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/calls' && url.pathname !== '/calls/details') return json(res, 404, { statusCode: 404, error: 'Not Found', message: 'no route' });
    const q = url.searchParams;
    const limit = Number(q.get('limit') ?? opts.defaultLimit ?? 100);
    if (opts.refuse && limit > cap) return json(res, 400, { statusCode: 400, error: 'Bad Request', message: [opts.refuse.replace('{cap}', String(cap))] });
    const strict = opts.bounds === 'strict';
    const bound = (name: string | undefined, test: (t: number, b: number) => boolean) => (t: number) => {
      const v = name === undefined ? null : q.get(name);
      return v === null || test(t, Date.parse(v));
    };
    const checks: ((t: number) => boolean)[] = [];
    if (opts.names !== 'ignored') {
      const [a, b] = opts.names ?? ['createdAtGt', 'createdAtLt'];
      checks.push(bound(a, strict ? (t, x) => t > x : (t, x) => t >= x), bound(b, strict ? (t, x) => t < x : (t, x) => t <= x));
    }
    if (opts.alsoInclusive)
      checks.push(
        bound(opts.alsoInclusive[0], (t, x) => t >= x),
        bound(opts.alsoInclusive[1], (t, x) => t <= x),
      );
    const calls = byNewest(state.records)
      .filter((c) => checks.every((ok) => ok(Date.parse(c.createdAt))))
      .filter((c) => opts.ignoreOtherFilters || !q.get('assistantId') || c.assistantId === q.get('assistantId'))
      .filter((c) => opts.ignoreOtherFilters || !q.get('id') || c.id === q.get('id'))
      .slice(0, Math.min(limit, cap));
    json(res, 200, opts.envelope === 'calls' ? { calls } : calls);
  });
  const out = server as CallLogServer;
  Object.defineProperty(out, 'records', { get: () => state.records, set: (r: LogRecord[]) => void (state.records = r) });
  out.queries = () => server.requests.filter((r) => /^\/calls(\/details)?(\?|$)/.test(r.url)).map((r) => new URL(r.url, 'http://x').searchParams);
  return out;
}

const t0 = Date.parse('2026-11-01T00:00:00.000Z');

/** `n` ended calls, one every `stepMs` going back from t0 (newest first by index). */
export function callRecords(n: number, stepMs = 1000, prefix = 'c'): LogRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(5, '0')}`,
    createdAt: new Date(t0 - i * stepMs).toISOString(),
    assistantId: 'a1',
    status: 'ended',
    type: 'inboundPhoneCall',
  }));
}
