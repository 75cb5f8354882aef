// Row 16: POST /chats from 20 clients into one session on the standalone sandbox, in a new session
// and in one that already holds 5,000 messages. A turn's cost must not grow with the session: the
// long session's req/s is given as a share of a new one's, the two measured in alternating rounds
// of the same run (so a busy machine slows both), beside the sandbox's CPU time per turn in each.
import { atLeast, fromSummary, type Figure } from '../report.js';
import { firstLine, tempHome, spawnChild, type BenchContext } from '../fixtures.js';
import { cpuTimeOf, killTree } from '../procs.js';
import { sandboxJson, startSandbox, type RunningSandbox } from '../sandbox.js';
import { summarize } from '../stats.js';

const CLIENTS = 20;
const LONG = 5000;

interface LoadResult {
  ok: number;
  errors: number;
  requests: number;
  rps: number;
  p99: number;
  all: number;
}

async function newSession(sb: RunningSandbox, assistantId: string): Promise<string> {
  const { session } = (await sandboxJson(sb, '/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assistantId }),
  })) as { session: { id: string } };
  return session.id;
}

/** One round of load on a session: its result, and the sandbox's CPU milliseconds per request. */
async function load(sb: RunningSandbox, sessionId: string, durationMs: number): Promise<LoadResult & { cpuMs: number }> {
  const body = JSON.stringify({ sessionId, input: 'What are your opening hours?' });
  const cpuBefore = cpuTimeOf(sb.pid) ?? NaN;
  const child = spawnChild('load.ts', [sb.url, sb.apiKey, '/chats', String(CLIENTS), '500', String(durationMs), body]);
  try {
    const r = JSON.parse(await firstLine(child, durationMs + 30_000, 'the load generator')) as LoadResult;
    if (r.ok === 0) throw new Error(`POST /chats never succeeded (${r.requests} requests, ${r.errors} errors)`);
    return { ...r, cpuMs: ((cpuTimeOf(sb.pid) ?? NaN) - cpuBefore) / r.all };
  } finally {
    await killTree(child);
  }
}

export async function chatLoadRows(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('chat-load');
  const sb = await startSandbox(ctx, home.sandboxDir);
  try {
    const { assistants } = (await sandboxJson(sb, '/assistants')) as { assistants: Array<{ id: string }> };
    if (!assistants?.length) throw new Error('the sandbox has no assistants to chat with');
    const longId = await newSession(sb, assistants[0].id);
    ctx.log(`row 16: filling a session to ${LONG.toLocaleString('en-US')} messages…`);
    for (let held = 0; held < LONG;) {
      await load(sb, longId, 1000);
      const { session } = (await sandboxJson(sb, `/chats/session/${longId}`)) as { session: { messages: unknown[] } };
      held = session.messages.length;
    }
    const rounds = ctx.quick ? 2 : 4;
    const durationMs = ctx.quick ? 2000 : 4000;
    const fresh: Awaited<ReturnType<typeof load>>[] = [];
    const long: Awaited<ReturnType<typeof load>>[] = [];
    for (let i = 0; i < rounds; i++) {
      fresh.push(await load(sb, await newSession(sb, assistants[0].id), durationMs));
      long.push(await load(sb, longId, durationMs));
    }
    const freshRps = summarize(fresh.map((r) => r.rps));
    const longRps = summarize(long.map((r) => r.rps));
    const shares = summarize(long.map((r, i) => (r.rps / fresh[i].rps) * 100));
    const cpu = (rs: typeof fresh) => summarize(rs.map((r) => r.cpuMs)).median.toFixed(2);
    const failed = [...fresh, ...long].reduce((n, r) => n + r.requests - r.ok + r.errors, 0);
    return [
      {
        row: 16,
        name: `sandbox POST /chats, ${CLIENTS} clients, a new session`,
        unit: 'req/s',
        ...fromSummary(freshRps),
        note: `sandbox CPU ${cpu(fresh)} ms a turn${failed ? `; ${failed} requests failed in the row` : ''}`,
      },
      {
        row: 16,
        name: `the same in a session of ${LONG.toLocaleString('en-US')}+ messages, share of a new session's req/s`,
        unit: '%',
        ...fromSummary(shares),
        target: atLeast(80, '%'),
        note: `${longRps.median.toFixed(0)} req/s; sandbox CPU ${cpu(long)} ms a turn; rounds alternate with the new session's`,
      },
    ];
  } finally {
    await sb.stop();
  }
}
