// The measurement behind the archive sync's default ceiling of history requests in flight: the
// built CLI's first `archive sync` of CALLS calls against the hosted fixture made slow on purpose
// (each latency below, pages capped at 100 calls), for each ceiling, in rounds that alternate
// the order, with each run's wall time (spawn → exit), the requests sent, the most in flight and
// the CLI's CPU time. Run by hand after a build:
//   node --import tsx test/bench/children/sync-ceilings.ts [calls] [rounds]
// It prints one JSON line a run, then a Markdown table of the medians; figures go to RESULTS.md.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startHostedFixture } from '../../support/hosted-fixture.js';
import { tempHome } from '../fixtures.js';
import { cleanupAll, cpuTimeOf, run } from '../procs.js';

const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 2);
const LATENCIES = [50, 150, 300];
const CEILINGS = [4, 8, 16, 32];
const cli = resolve(import.meta.dirname, '../../../dist/cli.js');

interface Run {
  latency: number;
  ceiling: number;
  ms: number;
  cpu?: number;
  pages: number;
  reached: number;
}

const runs: Run[] = [];
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
process.stdout.write(`load average at start: ${load()}\n`);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? CEILINGS : [...CEILINGS].reverse();
  for (const latency of LATENCIES)
    for (const ceiling of order) {
      const fx = await startHostedFixture({ calls: CALLS, pageCap: 'silent', pageCapSize: 100, latencyMs: latency });
      const home = tempHome('sync-ceiling');
      let pid = 0;
      let cpu: number | undefined;
      const poll = setInterval(() => {
        const ms = pid ? cpuTimeOf(pid) : undefined;
        if (ms !== undefined) cpu = ms / 1000;
      }, 50);
      try {
        const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
        const r = await run(process.execPath, [cli, 'archive', 'sync', '--concurrency', String(ceiling), '-o', 'json'], {
          env,
          timeoutMs: 600_000,
          onSpawn: (p) => (pid = p),
        });
        if (r.code !== 0) throw new Error(`archive sync exited ${r.code}: ${r.stderr.slice(0, 200)}`);
        const out = JSON.parse(r.stdout) as { added: number; requests?: { sent: number; reached: number } };
        if (out.added !== CALLS) throw new Error(`archived ${out.added} of ${CALLS}`);
        const one: Run = { latency, ceiling, ms: Math.round(r.ms), cpu, pages: out.requests?.sent ?? 0, reached: out.requests?.reached ?? 0 };
        runs.push(one);
        process.stdout.write(JSON.stringify({ ...one, load: load() }) + '\n');
      } finally {
        clearInterval(poll);
        await fx.close();
      }
    }
}
process.stdout.write(`load average at end: ${load()}\n\n`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
process.stdout.write(`| latency a page | ${CEILINGS.map((c) => `ceiling ${c}`).join(' | ')} |\n|---|${CEILINGS.map(() => '---').join('|')}|\n`);
for (const latency of LATENCIES) {
  const cells = CEILINGS.map((ceiling) => {
    const these = runs.filter((r) => r.latency === latency && r.ceiling === ceiling);
    const ms = median(these.map((r) => r.ms));
    const cpu = these.every((r) => r.cpu !== undefined) ? ` (CPU ${median(these.map((r) => r.cpu!)).toFixed(1)} s)` : '';
    return `${(ms / 1000).toFixed(1)} s, ${median(these.map((r) => r.pages))} requests${cpu}`;
  });
  process.stdout.write(`| ${latency} ms | ${cells.join(' | ')} |\n`);
}
await cleanupAll();
