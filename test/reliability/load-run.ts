// The load mix shared by `npm run load`, its short test and the crash-safety test: concurrent
// clients creating assistants, sessions, chats, outbound calls and small uploads while reading
// lists and details. Every acknowledged write is recorded, so it can be checked afterwards.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';

export interface Acked {
  assistants: Map<string, string>; // id → name
  sessions: Set<string>;
  chats: Map<string, string[]>; // session id → inputs acknowledged, in order
  calls: Set<string>;
  files: Map<string, { bytes: number; sha: string }>;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** The first few error descriptions. */
  errorSamples: string[];
  latenciesMs: number[];
  seconds: number;
  acked: Acked;
}

export interface LoadOptions {
  url: string;
  apiKey: string;
  clients: number;
  /** Stop after this long… */
  seconds: number;
  /** …but not before each client has done this many operations (10: one of each kind), however slow the machine. */
  minOps?: number;
  /** …or when this is aborted (the crash test kills the sandbox). */
  signal?: AbortSignal;
  /** Called after each acknowledged write, with the running count. */
  onAck?: (writes: number) => void;
}

const emptyAcked = (): Acked => ({ assistants: new Map(), sessions: new Set(), chats: new Map(), calls: new Set(), files: new Map() });
export const countAcked = (a: Acked) =>
  a.assistants.size + a.sessions.size + [...a.chats.values()].reduce((n, l) => n + l.length, 0) + a.calls.size + a.files.size;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function multipartBody(name: string, content: Buffer) {
  const b = `load${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${b}`, body };
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const dispatcher = new Agent({ connections: opts.clients, pipelining: 1, keepAliveTimeout: 10_000 });
  const result: LoadResult = { requests: 0, errors: 0, errorSamples: [], latenciesMs: [], seconds: 0, acked: emptyAcked() };
  const acked = result.acked;
  let writes = 0;
  const ack = () => opts.onAck?.(++writes);

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, multipart?: { contentType: string; body: Buffer }): Promise<any> {
    const headers: Record<string, string> = { 'x-api-key': opts.apiKey };
    let payload: string | Buffer | undefined;
    if (multipart) {
      headers['content-type'] = multipart.contentType;
      payload = multipart.body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const started = performance.now();
    try {
      const res = await request(opts.url + path, { method, headers, body: payload, dispatcher, signal: opts.signal });
      const text = await res.body.text();
      result.requests++;
      result.latenciesMs.push(performance.now() - started);
      if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode} ${text.slice(0, 200)}`);
      return JSON.parse(text);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      result.errors++;
      if (result.errorSamples.length < 5) result.errorSamples.push((err as Error).message);
      throw err;
    }
  }

  const seedAssistant = (await call('GET', '/assistants')).assistants[0].id as string;
  const seedNumber = (await call('GET', '/phone-numbers')).phoneNumbers[0].id as string;
  const until = performance.now() + opts.seconds * 1000;
  const started = performance.now();

  async function client(n: number) {
    let mySession: string | undefined;
    let myAssistant = seedAssistant;
    let myFile: string | undefined;
    for (let i = 0; (performance.now() < until || i < (opts.minOps ?? 0)) && !opts.signal?.aborted; i++) {
      try {
        switch (i % 10) {
          case 0: {
            const name = `load ${n}.${i}`;
            const a = (
              await call('POST', '/assistants', {
                name,
                description: 'made by the load test',
                model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: `You are load assistant ${n}.${i}.` }] },
              })
            ).assistant;
            acked.assistants.set(a.id, name);
            myAssistant = a.id;
            ack();
            break;
          }
          case 1: {
            const s = (await call('POST', '/sessions', { assistantId: myAssistant })).session;
            acked.sessions.add(s.id);
            mySession = s.id;
            ack();
            break;
          }
          case 2:
          case 5: {
            if (!mySession) break;
            const input = `question ${n}.${i}`;
            await call('POST', '/chats', { sessionId: mySession, input });
            acked.chats.set(mySession, [...(acked.chats.get(mySession) ?? []), input]);
            ack();
            break;
          }
          case 3: {
            const c = (
              await call('POST', '/calls/outbound', {
                assistantId: myAssistant,
                phoneNumberId: seedNumber,
                customer: { number: `+1415555${String(1000 + ((n * 31 + i) % 9000)).padStart(4, '0')}` },
              })
            ).call;
            acked.calls.add(c.id);
            ack();
            break;
          }
          case 4: {
            const content = Buffer.from(`load file ${n}.${i}\n${randomBytes(64 + (i % 512)).toString('base64')}\n`);
            const f = (await call('POST', '/files', undefined, multipartBody(`load-${n}-${i}.txt`, content))).file;
            acked.files.set(f.id, { bytes: content.length, sha: sha(content) });
            myFile = f.id;
            ack();
            break;
          }
          case 6:
            await call('GET', '/assistants');
            break;
          case 7:
            await call('GET', `/calls?limit=50`);
            if (myAssistant !== seedAssistant) await call('GET', `/assistants/${myAssistant}`);
            break;
          case 8:
            await call('GET', '/files?page=1&limit=20');
            if (myFile) await call('GET', `/files/${myFile}`);
            break;
          case 9:
            await call('GET', '/phone-numbers');
            if (mySession) await call('GET', `/chats/session/${mySession}`);
            break;
        }
      } catch {
        if (opts.signal?.aborted) break;
        // counted in result.errors; keep going
      }
    }
  }

  await Promise.all(Array.from({ length: opts.clients }, (_, n) => client(n)));
  result.seconds = (performance.now() - started) / 1000;
  await dispatcher.close().catch(() => undefined);
  return result;
}

/** Reads back every acknowledged write; returns how many were checked and what is missing or different. */
export async function verifyAcked(url: string, apiKey: string, acked: Acked): Promise<{ checked: number; lost: string[] }> {
  const dispatcher = new Agent({ connections: 16 });
  const lost: string[] = [];
  let checked = 0;
  const get = async (path: string) => {
    const res = await request(url + path, { headers: { 'x-api-key': apiKey }, dispatcher });
    const buf = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, buf, json: () => JSON.parse(buf.toString('utf8')) };
  };
  const checks: (() => Promise<void>)[] = [];
  for (const [id, name] of acked.assistants)
    checks.push(async () => {
      const r = await get(`/assistants/${id}`);
      if (r.status !== 200 || r.json().assistant.name !== name) lost.push(`assistant ${id}`);
    });
  for (const id of acked.sessions)
    checks.push(async () => {
      const r = await get(`/chats/session/${id}`);
      if (r.status !== 200) return void lost.push(`session ${id}`);
      const said = (r.json().session.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content);
      for (const input of acked.chats.get(id) ?? []) {
        checked++; // each chat is its own acknowledged write
        if (!said.includes(input)) lost.push(`chat "${input}" in session ${id}`);
      }
    });
  for (const id of acked.calls)
    checks.push(async () => {
      const r = await get(`/calls/details?id=${id}`);
      if (r.status !== 200 || r.json().calls[0]?.id !== id) lost.push(`call ${id}`);
    });
  for (const [id, f] of acked.files)
    checks.push(async () => {
      const r = await get(`/files/${id}/content`);
      if (r.status !== 200 || r.buf.length !== f.bytes || sha(r.buf) !== f.sha) lost.push(`file ${id}`);
    });
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < checks.length) {
        await checks[next++]();
        checked++;
      }
    }),
  );
  await dispatcher.close();
  return { checked, lost };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
