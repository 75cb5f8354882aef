// Row 12: the call archive on a large call log: `switchboard sandbox seed --calls N`
// (1,000,000 unless SWITCHBOARD_BENCH_ARCHIVE_CALLS says otherwise; 100,000 with --quick) into
// a data dir served by `switchboard sandbox` in its own process, then, through the built CLI:
// a full `archive sync` (its own reported time: calls/s), its size on disk (every file in the
// archive dir), `archive sync` with nothing new, `calls search` / `calls stats --by day` /
// `calls export` with --offline (wall time, node's start included), and the same reads timed
// inside one process (children/archive-queries.ts). A log of 100,000 calls is archived too for its
// size, when N is another number.
//
// Each throughput figure has a baseline measured in the same run, and its target is a ratio to it
// (with the absolute figure it stands for on the reference machine): the full sync against the same
// records fetched by the same client and written by a bare SQLite insert loop
// (children/sync-baseline.ts); the exports against the export's NDJSON parsed and written again
// without the archive (children/ndjson-baseline.mjs), in process and as a command; search and stats
// in process against the bare SQLite query under them, as commands against bare node.
import { join } from 'node:path';
import { closeSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { atMost, fromSummary, ratioTo, type Figure } from '../report.js';
import { firstErrorLine, firstLine, spawnChild, tempHome, type BenchContext, type Home } from '../fixtures.js';
import { startSandbox, type RunningSandbox } from '../sandbox.js';
import { killTree, removeTempDir, run, spawnTracked } from '../procs.js';
import { msSince, percentile, summarize } from '../stats.js';

/** Bytes a call the archive may take on disk, every file counted. */
const BYTES_PER_CALL = 1024;
/** The sync baseline's calls: enough for a steady rate, few enough not to double the row's time. */
const BASELINE_CALLS = 100_000;
/**
 * The ratio targets: the absolute targets (≥ 10,000 calls/s sync, ≥ 50,000 calls/s export, ≤ 50 ms
 * search, ≤ 300 ms stats) over their baselines as measured in one run on the reference machine
 * (the commit that set them has the figures).
 */
const TARGET = { sync: 0.3, exportInProcess: 1, exportCommand: 0.8, search: 100, stats: 25 } as const;

export async function archiveRows(ctx: BenchContext): Promise<Figure[]> {
  const n = Number(process.env.SWITCHBOARD_BENCH_ARCHIVE_CALLS ?? (ctx.quick ? 100_000 : 1_000_000));
  const figures: Figure[] = [];
  if (n !== 100_000) figures.push(await sizeOnly(ctx, 100_000));
  const home = tempHome('archive');
  try {
    await seed(ctx, home, n);
    const sb = await startSandbox(ctx, home.sandboxDir);
    try {
      figures.push(...(await measure(ctx, home, sb, n)));
    } finally {
      await sb.stop();
    }
  } finally {
    removeTempDir(home.dir);
  }
  return figures;
}

async function seed(ctx: BenchContext, home: Home, n: number): Promise<void> {
  ctx.log(`row 12: seeding ${n.toLocaleString('en-US')} calls…`);
  const seeded = await run(process.execPath, [ctx.cli, 'sandbox', '--data-dir', home.sandboxDir, 'seed', '--calls', String(n)], {
    env: home.env,
    timeoutMs: 1_800_000,
  });
  if (seeded.code !== 0) throw new Error(`sandbox seed failed: ${firstErrorLine(seeded.stderr || seeded.stdout)}`);
}

function cliIn(ctx: BenchContext, home: Home, sb: RunningSandbox) {
  const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
  const must = async (args: string[], timeoutMs = 60_000) => {
    const r = await run(process.execPath, [ctx.cli, ...args], { env, timeoutMs });
    if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${firstErrorLine(r.stderr || r.stdout)}`);
    return r;
  };
  return { env, must, archiveDir: join(home.env.XDG_CACHE_HOME!, 'switchboard', 'archive') };
}

/** Every file in the archive dir: the database, its -wal and -shm, anything else SQLite left. */
function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

function sizeFigure(held: number, bytes: number, note: string): Figure {
  return {
    row: 12,
    name: `archive: size on disk at ${held.toLocaleString('en-US')} calls`,
    unit: 'B/call',
    value: bytes / held,
    runs: 1,
    target: atMost(BYTES_PER_CALL, 'B/call'),
    note: `${(bytes / 2 ** 20).toFixed(1)} MiB, every file in the archive dir; ${note}`,
  };
}

/** A log of `n` calls archived by a full sync, for its size alone. */
async function sizeOnly(ctx: BenchContext, n: number): Promise<Figure> {
  const home = tempHome('archive-size');
  try {
    await seed(ctx, home, n);
    const sb = await startSandbox(ctx, home.sandboxDir);
    try {
      const cli = cliIn(ctx, home, sb);
      ctx.log(`row 12: full sync of ${n.toLocaleString('en-US')} calls, for the size…`);
      const synced = JSON.parse((await cli.must(['archive', 'sync', '-o', 'json'], 3_600_000)).stdout) as { held: number };
      return sizeFigure(synced.held, dirBytes(cli.archiveDir), 'after a full sync');
    } finally {
      await sb.stop();
    }
  } finally {
    removeTempDir(home.dir);
  }
}

async function measure(ctx: BenchContext, home: Home, sb: RunningSandbox, n: number): Promise<Figure[]> {
  const { env, must, archiveDir } = cliIn(ctx, home, sb);
  // The sync's baseline before and after it, so a load that changes during the sync weighs on both.
  const baseArgs = [sb.url, sb.apiKey, String(Math.min(n, BASELINE_CALLS))];
  const syncBaseline = () => childJson<{ calls: number; ms: number }>('sync-baseline.ts', baseArgs, 'the sync baseline');
  ctx.log('row 12: sync baseline (the same records, a bare SQLite insert loop)…');
  const baseBefore = await syncBaseline();
  ctx.log('row 12: full sync…');
  const full = await must(['archive', 'sync', '-o', 'json'], 3_600_000);
  const synced = JSON.parse(full.stdout) as { added: number; ms: number; held: number };
  const bytes = dirBytes(archiveDir);
  const archivePath = join(archiveDir, 'env.db');
  ctx.log('row 12: sync baseline again…');
  const baseAfter = await syncBaseline();
  const base = { calls: baseBefore.calls + baseAfter.calls, ms: baseBefore.ms + baseAfter.ms };
  const syncRate = synced.added / (synced.ms / 1000);
  const baseRate = base.calls / (base.ms / 1000);

  const runs = ctx.quick ? 3 : 7;
  const idle: number[] = [];
  for (let i = 0; i < runs; i++) idle.push((JSON.parse((await must(['archive', 'sync', '-o', 'json'])).stdout) as { ms: number }).ms);

  const searchWall: number[] = [];
  for (let i = 0; i < runs; i++) searchWall.push((await must(['calls', 'search', '"opening hours"', '--offline', '-o', 'ids'])).ms);
  const statsWall: number[] = [];
  for (let i = 0; i < runs; i++) statsWall.push((await must(['calls', 'stats', '--by', 'day', '--offline'])).ms);
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) bare.push((await run(process.execPath, ['-e', '0'], { env })).ms);

  ctx.log('row 12: export to /dev/null, and its NDJSON baseline…');
  const exportWall = await exportTo(ctx, env, '/dev/null');
  const ndjson = join(home.dir, 'export.ndjson');
  await exportTo(ctx, env, ndjson);
  const baselineScript = join(import.meta.dirname, '..', 'children', 'ndjson-baseline.mjs');
  const ndjsonCommand = await run(process.execPath, [baselineScript, ndjson], { env, timeoutMs: 1_800_000 });
  rmSync(ndjson, { force: true });
  if (ndjsonCommand.code !== 0) throw new Error(`the NDJSON baseline failed: ${firstErrorLine(ndjsonCommand.stderr)}`);
  const ndjsonRun = JSON.parse(ndjsonCommand.stdout) as { calls: number; ms: number };

  const inProcess = await childJson<{
    search: number[];
    searchBare: number[];
    statsDay: number[];
    statsBare: number[];
    exportCalls: number;
    exportMs: number;
  }>('archive-queries.ts', [archivePath, String(runs)], 'the archive query timer');

  const size = `${synced.held.toLocaleString('en-US')} calls from \`switchboard sandbox seed --calls ${n}\` (+ the demo log), sandbox in its own process`;
  const nodeStart = summarize(bare).median;
  const searchP50 = percentile(inProcess.search, 50);
  const searchBareP50 = percentile(inProcess.searchBare, 50);
  const statsS = summarize(inProcess.statsDay);
  const statsBareS = summarize(inProcess.statsBare);
  const exportRate = inProcess.exportCalls / (inProcess.exportMs / 1000);
  const ndjsonRate = ndjsonRun.calls / (ndjsonRun.ms / 1000);
  const exportCommandRate = synced.held / (exportWall / 1000);
  const ndjsonCommandRate = ndjsonRun.calls / (ndjsonCommand.ms / 1000);
  const rate = (x: number) => `${Math.round(x).toLocaleString('en-US')} calls/s`;
  return [
    sizeFigure(synced.held, bytes, `after the full sync below; ${size}`),
    {
      row: 12,
      name: 'archive: full sync',
      unit: 'calls/s',
      value: syncRate,
      runs: 1,
      ratio: syncRate / baseRate,
      target: ratioTo('≥', TARGET.sync, 'baseline', '≥ 10,000 calls/s'),
      note:
        `${size}; ${(synced.ms / 1000).toFixed(1)} s as the sync reports it; baseline: the first ${baseBefore.calls.toLocaleString('en-US')} of the ` +
        `same records fetched by the same client and written by a bare SQLite insert loop, before and after the sync, ${rate(baseRate)}`,
      detail: { baseline: [baseBefore, baseAfter] },
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
      value: searchP50,
      runs: inProcess.search.length,
      ratio: searchP50 / searchBareP50,
      target: ratioTo('≤', TARGET.search, 'bare match', '≤ 50 ms'),
      detail: { p99: percentile(inProcess.search, 99), bareP50: searchBareP50 },
      note:
        `a common word, a phrase, a prefix, a name, an absent word; 20 hits with snippets; baseline: the same FTS5 MATCH alone (20 rowids), ` +
        `p50 ${searchBareP50.toFixed(2)} ms`,
    },
    {
      row: 12,
      name: 'archive: `calls search --offline` (command)',
      unit: 'ms',
      ...fromSummary(summarize(searchWall)),
      ratio: summarize(searchWall).median / nodeStart,
    },
    {
      row: 12,
      name: 'archive: stats --by day, in process',
      unit: 'ms',
      ...fromSummary(statsS),
      ratio: statsS.median / statsBareS.median,
      target: ratioTo('≤', TARGET.stats, 'bare rollup sum', '≤ 300 ms'),
      note: `baseline: the rollup summed by quarter hour in one query, ${statsBareS.median.toFixed(2)} ms`,
    },
    {
      row: 12,
      name: 'archive: `calls stats --by day --offline` (command)',
      unit: 'ms',
      ...fromSummary(summarize(statsWall)),
      ratio: summarize(statsWall).median / nodeStart,
      target: { text: '≤ 300 ms', met: (f) => f.value !== undefined && f.value <= 300 },
    },
    {
      row: 12,
      name: 'archive: export NDJSON to /dev/null, in process',
      unit: 'calls/s',
      value: exportRate,
      runs: 1,
      ratio: exportRate / ndjsonRate,
      target: ratioTo('≥', TARGET.exportInProcess, 'baseline', '≥ 50,000 calls/s'),
      note: `baseline: the export's NDJSON read, each line parsed and written again without the archive, ${rate(ndjsonRate)}`,
    },
    {
      row: 12,
      name: 'archive: `calls export --offline > /dev/null` (command)',
      unit: 'calls/s',
      value: exportCommandRate,
      runs: 1,
      ratio: exportCommandRate / ndjsonCommandRate,
      target: ratioTo('≥', TARGET.exportCommand, 'baseline', '≥ 50,000 calls/s'),
      note: `baseline: the same NDJSON baseline run as a command (plain node, its start included), ${rate(ndjsonCommandRate)}`,
    },
  ];
}

async function childJson<T>(script: string, args: string[], what: string): Promise<T> {
  const child = spawnChild(script, args);
  try {
    return JSON.parse(await firstLine(child, 1_800_000, what)) as T;
  } finally {
    await killTree(child);
  }
}

/** `calls export --offline` with stdout on `path`; its wall time in ms. */
async function exportTo(ctx: BenchContext, env: NodeJS.ProcessEnv, path: string): Promise<number> {
  const fd = openSync(path, 'w');
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
