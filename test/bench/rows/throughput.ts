// Row 6: `GET /calls?limit=100` against the standalone sandbox on the 100,000-call data dir, with
// 32 keep-alive connections from a load generator in its own process (so it does not share the
// sandbox's event loop), for a fixed duration after a warm-up. The generator writes and reads
// plain sockets (children/load.ts says why): the figure is the sandbox's, served from its page
// cache (src/sandbox/page-cache.ts), not the client library's.
import { atLeast, type Figure } from '../report.js';
import { firstLine, spawnChild, type BenchContext } from '../fixtures.js';
import { homeWithManyCalls, sandboxJson, startSandbox } from '../sandbox.js';
import { cpuTimeOf, killTree } from '../procs.js';

const CONNECTIONS = 32;

interface LoadResult {
  requests: number;
  ok: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  all: number;
}

export async function throughputRow(ctx: BenchContext): Promise<Figure[]> {
  const home = await homeWithManyCalls(ctx);
  const sb = await startSandbox(ctx, home.sandboxDir);
  try {
    const page = (await sandboxJson(sb, '/calls?limit=100')) as { calls?: unknown[] };
    const perPage = page.calls?.length ?? 0;
    if (perPage !== 100) throw new Error(`GET /calls?limit=100 returned ${perPage} calls, expected 100`);
    const durationMs = ctx.quick ? 3000 : 10_000;
    ctx.log(`row 6: ${CONNECTIONS} connections for ${durationMs / 1000} s…`);
    const load = spawnChild('load.ts', [sb.url, sb.apiKey, '/calls?limit=100', String(CONNECTIONS), '1000', String(durationMs)]);
    const cpuBefore = cpuTimeOf(sb.pid) ?? NaN;
    let r: LoadResult;
    try {
      r = JSON.parse(await firstLine(load, durationMs + 30_000, 'the load generator')) as LoadResult;
    } finally {
      await killTree(load);
    }
    // CPU per request does not depend on what else the machine is running, unlike req/s.
    const cpuPerRequest = ((cpuTimeOf(sb.pid) ?? NaN) - cpuBefore) / r.all;
    const failures = r.requests - r.ok + r.errors;
    const note =
      `${CONNECTIONS} connections, ${r.seconds.toFixed(1)} s after 1 s warm-up, ${r.ok.toLocaleString('en-US')} × ` +
      `200${failures ? `, ${failures} failed (${JSON.stringify(r.statuses)}, ${r.errors} errors)` : ''}; sandbox = \`switchboard sandbox\` on the ` +
      `100,000-call data dir`;
    return [
      {
        row: 6,
        name: 'sandbox GET /calls?limit=100, throughput',
        unit: 'req/s',
        value: r.rps,
        runs: 1,
        target: atLeast(10_000, 'req/s'),
        note,
        detail: { ...r },
      },
      { row: 6, name: 'sandbox GET /calls?limit=100, p99 latency', unit: 'ms', value: r.p99, runs: 1, detail: { p50: r.p50 } },
      {
        row: 6,
        name: 'sandbox CPU time per GET /calls?limit=100',
        unit: 'ms',
        value: cpuPerRequest,
        runs: 1,
        note: `${Math.round(1000 / cpuPerRequest).toLocaleString('en-US')} req/s per fully used core at this cost`,
      },
    ];
  } finally {
    await sb.stop();
  }
}
