// Row 12: the call archive on a large call log: `switchboard sandbox seed --calls N`
// (1,000,000 unless SWITCHBOARD_BENCH_ARCHIVE_CALLS says otherwise; 100,000 with --quick) into
// a data dir served by `switchboard sandbox` in its own process, then, through the built CLI:
// a full `archive sync` (its own reported time: calls/s), `archive sync` with nothing new,
// `calls search` / `calls stats --by day` / `calls export` with --offline (wall time, node's
// start included), and the same reads timed inside one process (children/archive-queries.ts).
import { join } from 'node:path';
import { openSync, closeSync, statSync } from 'node:fs';
import { atLeast, atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, firstLine, spawnChild, tempHome, type BenchContext } from '../fixtures.js';
import { startSandbox } from '../sandbox.js';
import { killTree, removeTempDir, run, spawnTracked } from '../procs.js';
import { msSince, percentile, summarize } from '../stats.js';

export async function archiveRows(ctx: BenchContext): Promise<Figure[]> {
  const n = Number(process.env.SWITCHBOARD_BENCH_ARCHIVE_CALLS ?? (ctx.quick ? 100_000 : 1_000_000));
  const home = tempHome('archive');
  try {
    ctx.log(`row 12: seeding ${n.toLocaleString('en-US')} calls…`);
    const seeded = await run(process.execPath, [ctx.cli, 'sandbox', '--data-dir', home.sandboxDir, 'seed', '--calls', String(n)], {
      env: home.env,
      timeoutMs: 1_800_000,
    });
    if (seeded.code !== 0) throw new Error(`sandbox seed failed: ${firstErrorLine(seeded.stderr || seeded.stdout)}`);
    const sb = await startSandbox(ctx, home.sandboxDir);
    try {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
      const cli = (args: string[], timeoutMs = 60_000) => run(process.execPath, [ctx.cli, ...args], { env, timeoutMs });
      const must = async (args: string[], timeoutMs?: number) => {
        const r = await cli(args, timeoutMs);
        if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${firstErrorLine(r.stderr || r.stdout)}`);
        return r;
      };

      ctx.log('row 12: full sync…');
      const full = await must(['archive', 'sync', '-o', 'json'], 3_600_000);
      const synced = JSON.parse(full.stdout) as { added: number; ms: number; held: number };
      const archivePath = join(home.env.XDG_CACHE_HOME!, 'switchboard', 'archive', 'env.db');
      const bytes = ['', '-wal'].reduce((s, x) => s + statSafe(archivePath + x), 0);

      const runs = ctx.quick ? 3 : 7;
      const idle: number[] = [];
      for (let i = 0; i < runs; i++) idle.push((JSON.parse((await must(['archive', 'sync', '-o', 'json'])).stdout) as { ms: number }).ms);

      const searchWall: number[] = [];
      for (let i = 0; i < runs; i++) searchWall.push((await must(['calls', 'search', '"opening hours"', '--offline', '-o', 'ids'])).ms);
      const statsWall: number[] = [];
      for (let i = 0; i < runs; i++) statsWall.push((await must(['calls', 'stats', '--by', 'day', '--offline'])).ms);
      const bare: number[] = [];
      for (let i = 0; i < runs; i++) bare.push((await run(process.execPath, ['-e', '0'], { env })).ms);

      ctx.log('row 12: export to /dev/null…');
      const exportWall = await exportToDevNull(ctx, env);

      const child = spawnChild('archive-queries.ts', [archivePath, String(runs)]);
      let inProcess: { search: number[]; statsDay: number[]; exportCalls: number; exportMs: number };
      try {
        inProcess = JSON.parse(await firstLine(child, 600_000, 'the archive query timer')) as typeof inProcess;
      } finally {
        await killTree(child);
      }

      const size =
        `${synced.held.toLocaleString('en-US')} calls from \`switchboard sandbox seed --calls ${n}\` (+ the demo log), sandbox in its own process; ` +
        `archive ${(bytes / 2 ** 30).toFixed(2)} GiB`;
      const nodeStart = summarize(bare).median;
      return [
        {
          row: 12,
          name: 'archive: full sync',
          unit: 'calls/s',
          value: synced.added / (synced.ms / 1000),
          runs: 1,
          target: atLeast(10_000, 'calls/s'),
          note: `${size}; ${(synced.ms / 1000).toFixed(1)} s as the sync reports it`,
        },
        {
          row: 12,
          name: 'archive: sync with nothing new',
          unit: 'ms',
          ...fromSummary(summarize(idle)),
          target: atMost(50, 'ms'),
          note: 'the sync itself, as `archive sync -o json` reports it (no process start)',
        },
        {
          row: 12,
          name: 'archive: search, in process, p50',
          unit: 'ms',
          value: percentile(inProcess.search, 50),
          runs: inProcess.search.length,
          target: atMost(50, 'ms'),
          detail: { p99: percentile(inProcess.search, 99) },
          note: 'a common word, a phrase, a prefix, a name, an absent word; 20 hits',
        },
        {
          row: 12,
          name: 'archive: `calls search --offline` (command)',
          unit: 'ms',
          ...fromSummary(summarize(searchWall)),
          ratio: summarize(searchWall).median / nodeStart,
        },
        { row: 12, name: 'archive: stats --by day, in process', unit: 'ms', ...fromSummary(summarize(inProcess.statsDay)), target: atMost(300, 'ms') },
        {
          row: 12,
          name: 'archive: `calls stats --by day --offline` (command)',
          unit: 'ms',
          ...fromSummary(summarize(statsWall)),
          ratio: summarize(statsWall).median / nodeStart,
          target: atMost(300, 'ms'),
        },
        {
          row: 12,
          name: 'archive: export NDJSON to /dev/null, in process',
          unit: 'calls/s',
          value: inProcess.exportCalls / (inProcess.exportMs / 1000),
          runs: 1,
          target: atLeast(50_000, 'calls/s'),
        },
        {
          row: 12,
          name: 'archive: `calls export --offline > /dev/null` (command)',
          unit: 'calls/s',
          value: synced.held / (exportWall / 1000),
          runs: 1,
          target: atLeast(50_000, 'calls/s'),
        },
      ];
    } finally {
      await sb.stop();
    }
  } finally {
    removeTempDir(home.dir);
  }
}

function statSafe(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** `calls export --offline` with stdout on /dev/null; its wall time in ms. */
async function exportToDevNull(ctx: BenchContext, env: NodeJS.ProcessEnv): Promise<number> {
  const fd = openSync('/dev/null', 'w');
  try {
    const t0 = process.hrtime.bigint();
    const child = spawnTracked(process.execPath, [ctx.cli, 'calls', 'export', '--offline'], { env, stdio: ['ignore', fd, 'pipe'] });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    if (code !== 0) throw new Error(`calls export failed: ${firstErrorLine(err)}`);
    return msSince(t0);
  } finally {
    closeSync(fd);
  }
}
