// Row 19: the archive's first sync against a service far away, the hosted fixture made slow on
// purpose (150 ms a request, pages capped at 100 calls): the built CLI's `archive sync` of 20,000
// calls against the ideal (pages × latency ÷ the concurrency it reached); the same under a rate
// limit of 10 requests/s (429 with Retry-After beyond it, X-RateLimit-* headers on every answer):
// the share of the allowed rate used and the longest run of refusals of one request; and a sync
// killed with -9 part-way and resumed: every call archived exactly once.
import { loadavg } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { startHostedFixture, type HostedFixture } from '../../support/hosted-fixture.js';
import { atLeast, atMost, type Figure } from '../report.js';
import { tempHome, type BenchContext } from '../fixtures.js';
import { cpuTimeOf, run, spawnTracked } from '../procs.js';

const LATENCY_MS = 150;

interface Sync {
  ms: number;
  /** the CLI's own CPU time (user + system, its last reading before exit), ms */
  cpuMs?: number;
  out: { added: number; held: number; complete: boolean; requests?: { reached: number } };
}

async function sync(ctx: BenchContext, fx: HostedFixture, home: ReturnType<typeof tempHome>): Promise<Sync> {
  const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
  let pid = 0;
  let cpuMs: number | undefined;
  const poll = setInterval(() => (cpuMs = (pid && cpuTimeOf(pid)) || cpuMs), 50);
  try {
    const r = await run(process.execPath, [ctx.cli, 'archive', 'sync', '-o', 'json'], { env, timeoutMs: 600_000, onSpawn: (p) => (pid = p) });
    if (r.code !== 0) throw new Error(`archive sync exited ${r.code}: ${r.stderr.slice(0, 200)}`);
    return { ms: r.ms, cpuMs, out: JSON.parse(r.stdout) as Sync['out'] };
  } finally {
    clearInterval(poll);
  }
}

/** The longest run of 429s one query met in a row. */
function refusedInRow(fx: HostedFixture): number {
  const runs = new Map<string, number>();
  let most = 0;
  for (const p of fx.callPages) {
    const n = p.status === 429 ? (runs.get(p.query) ?? 0) + 1 : 0;
    runs.set(p.query, n);
    most = Math.max(most, n);
  }
  return most;
}

export async function remoteSyncRows(ctx: BenchContext): Promise<Figure[]> {
  const calls = ctx.quick ? 5000 : 20_000;
  const figures: Figure[] = [];

  {
    const fx = await startHostedFixture({ calls, pageCap: 'silent', pageCapSize: 100, latencyMs: LATENCY_MS });
    try {
      const load = loadavg()[0].toFixed(1);
      const s = await sync(ctx, fx, tempHome('remote-sync'));
      const pages = fx.callPages.filter((p) => p.status === 200).length;
      const reached = s.out.requests?.reached ?? 1;
      const ideal = (pages * LATENCY_MS) / reached;
      figures.push(
        {
          row: 19,
          name: `remote sync of ${calls.toLocaleString('en')} calls, 150 ms a page of 100: ideal (pages × latency ÷ ${reached} in flight)`,
          unit: 'ms',
          value: ideal,
          detail: { pages, reached },
        },
        {
          row: 19,
          name: `remote sync of ${calls.toLocaleString('en')} calls, 150 ms a page of 100: \`archive sync\` (× ideal)`,
          unit: 'ms',
          value: s.ms,
          ratio: s.ms / ideal,
          target: { text: '≤ 1.5× ideal', met: (f) => f.ratio !== undefined && f.ratio <= 1.5 },
          detail: { ...s.out, held: s.out.held, fixtureInFlightMax: fx.inFlightMax, cpuMs: s.cpuMs, load },
          // Whatever the latency, the client's own work on the pages is a floor: above the ideal, no pace meets it.
          note: `the CLI's own CPU time ${s.cpuMs === undefined ? 'unknown' : `${(s.cpuMs / 1000).toFixed(1)} s`}; load average ${load} at the start`,
        },
      );
    } finally {
      await fx.close();
    }
  }

  {
    const fx = await startHostedFixture({
      calls: ctx.quick ? 2000 : 5000,
      pageCap: 'silent',
      pageCapSize: 100,
      latencyMs: LATENCY_MS,
      rateLimit: { perSecond: 10, headers: true },
    });
    try {
      const s = await sync(ctx, fx, tempHome('remote-sync-limited'));
      const ok = fx.callPages.filter((p) => p.status === 200).length;
      const used = (ok / (s.ms / 1000) / 10) * 100;
      figures.push(
        {
          row: 19,
          name: 'remote sync under a rate limit of 10 req/s: share of the allowed rate used',
          unit: '%',
          value: used,
          target: atLeast(80, '%'),
          detail: { ok, refused: fx.callPages.length - ok, ms: s.ms },
        },
        {
          row: 19,
          name: 'remote sync under a rate limit of 10 req/s: most refusals of one request in a row',
          unit: '',
          value: refusedInRow(fx),
          target: atMost(1, ''),
        },
      );
    } finally {
      await fx.close();
    }
  }

  {
    const fx = await startHostedFixture({ calls: ctx.quick ? 3000 : 10_000, pageCap: 'silent', pageCapSize: 100, latencyMs: 30 });
    const home = tempHome('remote-sync-kill');
    try {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
      const child = spawnTracked(process.execPath, [ctx.cli, 'archive', 'sync'], { env, stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      while (fx.callPages.length < 30 && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      await exited;
      await sync(ctx, fx, home);
      const db = new DatabaseSync(join(home.env.XDG_CACHE_HOME!, 'switchboard', 'archive', 'env.db'), { readOnly: true });
      const row = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM calls').get() as { n: number; ids: number };
      db.close();
      const expected = new Set(fx.calls.map((c) => c.id));
      const once = row.n === expected.size && row.ids === row.n;
      figures.push({
        row: 19,
        name: `a remote sync killed with -9 after 30 pages, then resumed: calls archived (of ${expected.size.toLocaleString('en')})`,
        unit: 'calls',
        value: row.n,
        target: { text: 'every call exactly once', met: () => once },
        detail: row,
      });
    } finally {
      await fx.close();
    }
  }
  return figures;
}
