// `npm run bench`: measures the built CLI (dist/) against each row's target and prints one
// table (Markdown) plus a JSON file of the same figures. A full run (no --rows, no --quick) also
// writes the table, with the machine, Node version and date, to test/bench/RESULTS.md, which the
// README links. Each row that cannot run (a piece not built, a failure) prints `n/a (<reason>)`
// and the others go on.
//
//   npm run bench [-- --quick] [-- --no-build] [-- --rows 1,6,7]
//
// It bundles the current source with src/scripts/build.mjs into its own dir (the same esbuild
// config as dist/, so a concurrent `npm test` rebuilding dist/ cannot pull it away mid-run).
// --quick: fewer runs and shorter load, to try the bench out (figures are less stable).
// --no-build: measure dist/ (or SWITCHBOARD_BENCH_BUILD, e.g. a bundle built with some patches left out) as it is instead.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstErrorLine, type BenchContext } from './fixtures.js';
import { cleanupAll, installCleanupHandlers, run } from './procs.js';
import { RESULTS_FILE, benchCommand, isFullRun, machine, measuredSection, renderTable, resultsMarkdown, toJson, type Figure } from './report.js';
import { versionRow } from './rows/version.js';
import { startupRows } from './rows/startup.js';
import { callLogRows } from './rows/calllog.js';
import { throughputRow } from './rows/throughput.js';
import { uploadRow } from './rows/upload.js';
import { chatRows } from './rows/chat.js';
import { archiveRows } from './rows/archive.js';
import { sessionIndexRows } from './rows/session-index.js';
import { scenarioRows } from './rows/scenarios.js';
import { simulationRows } from './rows/simulations.js';
import { burstRow, filterRow, longPromptRow } from './rows/keys.js';
import { consoleArchiveRows } from './rows/console-archive.js';
import { chatLoadRows } from './rows/chat-load.js';
import { commandRows } from './rows/commands.js';
import { mcpRows } from './rows/mcp.js';
import { remoteSyncRows } from './rows/remote-sync.js';

/** Inside the repo, so the bundle resolves assets/ exactly as dist/ does
 *  (SWITCHBOARD_BENCH_BUILD: another dir under the repo, for two benches at once). */
const BENCH_BUILD = process.env.SWITCHBOARD_BENCH_BUILD ?? 'node_modules/.cache/switchboard-bench/dist';

interface RowGroup {
  rows: number[];
  /** what the table says for each row when the group cannot run */
  titles: Record<number, { name: string; target?: string }>;
  run(ctx: BenchContext): Promise<Figure[]>;
}

const GROUPS: RowGroup[] = [
  { rows: [1], titles: { 1: { name: '`switchboard --version`', target: '≤ 1.5× node' } }, run: versionRow },
  {
    rows: [2, 3],
    titles: {
      2: { name: 'console first frame (pty)', target: '≤ 2× node' },
      3: { name: 'Assistants rows on screen', target: '≤ 1.5× the one-<Text> Ink app' },
    },
    run: startupRows,
  },
  {
    rows: [4, 5],
    titles: {
      4: { name: 'keypress → frame, 100,000-call log', target: '≤ 8 ms median, ≤ 25 ms p99' },
      5: { name: 'console RSS, 100,000 calls loaded', target: '≤ 200 MB' },
    },
    run: callLogRows,
  },
  { rows: [6], titles: { 6: { name: 'sandbox GET /calls?limit=100, 32 connections', target: '≥ 4,000 req/s' } }, run: throughputRow },
  { rows: [7], titles: { 7: { name: '200 MiB upload, RSS added', target: '≤ 64 MB' } }, run: uploadRow },
  { rows: [8], titles: { 8: { name: 'chat round trip (send → reply)' } }, run: chatRows },
  { rows: [9], titles: { 9: { name: 'burst of 50 keys in one write, call log', target: 'every key applied' } }, run: burstRow },
  { rows: [10], titles: { 10: { name: 'j/k on a 100,000-character prompt (pty)', target: '≤ 16 ms' } }, run: longPromptRow },
  { rows: [11], titles: { 11: { name: '/ filter keystroke, 100,000 calls loaded', target: '≤ 16 ms' } }, run: filterRow },
  {
    rows: [12],
    titles: { 12: { name: 'call archive: size, sync, search, stats, export', target: '≤ 1,024 B/call; sync ≥ 0.3× baseline; search ≤ 100× bare' } },
    run: archiveRows,
  },
  { rows: [13], titles: { 13: { name: 'session index: a chat turn on the console event loop', target: '≤ 1 ms' } }, run: sessionIndexRows },
  { rows: [14], titles: { 14: { name: '`switchboard test`, 100 scenarios × 3 turns', target: '≤ 10,000 ms' } }, run: scenarioRows },
  {
    rows: [15],
    titles: {
      15: {
        name: 'the console on the archive: keys while syncing, call-log rows at start, RSS',
        target: '≤ 25 ms p99; ≤ 1.5× the one-<Text> Ink app; ≤ 200 MB',
      },
    },
    run: consoleArchiveRows,
  },
  {
    rows: [16],
    titles: { 16: { name: 'sandbox POST /chats, 20 clients: a 5,000-message session against a new one', target: '≥ 80%' } },
    run: chatLoadRows,
  },
  {
    rows: [17],
    titles: { 17: { name: '`switchboard test`, 20 scenarios × 4 simulated turns × 3 samples', target: '≤ 10,000 ms' } },
    run: simulationRows,
  },
  {
    rows: [18],
    titles: {
      18: { name: 'command start: archive and remote reads; embedded-sandbox commands', target: '≤ 1.5× node (archive, remote); ≤ 2× node (embedded)' },
    },
    run: commandRows,
  },
  {
    rows: [19],
    titles: { 19: { name: 'remote sync: 20,000 calls at 150 ms a page; under 10 req/s; killed and resumed', target: '≤ 1.5× ideal; ≥ 80% of the rate; once' } },
    run: remoteSyncRows,
  },
  {
    rows: [20],
    titles: { 20: { name: '`switchboard mcp` tool latency on a 100,000-call sandbox (stdio, the SDK client)', target: '≤ 100 ms median' } },
    run: mcpRows,
  },
];

function parseArgs(argv: string[]): { quick: boolean; build: boolean; rows?: Set<number> } {
  const rowsAt = argv.indexOf('--rows');
  return {
    quick: argv.includes('--quick'),
    build: !argv.includes('--no-build'),
    rows: rowsAt >= 0 ? new Set(argv[rowsAt + 1]?.split(',').map(Number)) : undefined,
  };
}

function naFigures(group: RowGroup, reason: string): Figure[] {
  return group.rows.map((row) => ({
    row,
    name: group.titles[row].name,
    unit: '',
    na: reason.replace(/\s+/g, ' ').slice(0, 200),
    target: group.titles[row].target ? { text: group.titles[row].target!, met: () => false } : undefined,
  }));
}

async function main(): Promise<void> {
  installCleanupHandlers();
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const log = (m: string) => process.stderr.write(`bench: ${m}\n`);
  const outdir = resolve(args.build ? BENCH_BUILD : (process.env.SWITCHBOARD_BENCH_BUILD ?? 'dist'));
  const ctx: BenchContext = { cli: join(outdir, 'cli.js'), quick: args.quick, log };

  let missing: string | undefined;
  if (args.build) {
    log(`bundling the current source into ${BENCH_BUILD}…`);
    const b = await run(process.execPath, ['src/scripts/build.mjs', '--outdir', outdir], { timeoutMs: 120_000 });
    if (b.code !== 0) missing = `build failed: ${firstErrorLine(b.stderr || b.stdout)}`;
  }
  if (!missing && !existsSync(ctx.cli)) missing = `${ctx.cli} missing; run npm run build`;

  const figures: Figure[] = [];
  for (const group of GROUPS) {
    if (args.rows && !group.rows.some((r) => args.rows!.has(r))) continue;
    if (missing) {
      figures.push(...naFigures(group, missing));
      continue;
    }
    log(`row ${group.rows.join(', ')}…`);
    try {
      figures.push(...(await group.run(ctx)));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      log(`row ${group.rows.join(', ')} failed: ${reason}`);
      figures.push(...naFigures(group, reason));
    }
  }

  const m = machine();
  const header = [
    `Switchboard bench — ${m.date}`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.ram} RAM, ${m.os}, Node ${m.node}${args.quick ? ' (--quick: fewer runs)' : ''}`,
    '',
  ].join('\n');
  const seconds = (Date.now() - started) / 1000;
  const out = join(tmpdir(), `switchboard-bench-${m.date.replace(/[:]/g, '-')}.json`);
  writeFileSync(out, toJson(figures, { machine: m, quick: args.quick, seconds }));
  const printed = `${header}${renderTable(figures)}`;
  // The last full run is kept in the repository; a subset or a quick try is not a result.
  const kept = isFullRun(args) ? RESULTS_FILE : undefined;
  if (kept) {
    const measured = existsSync(kept) ? measuredSection(readFileSync(kept, 'utf8')) : '';
    writeFileSync(kept, resultsMarkdown(printed, benchCommand(process.env, process.argv.slice(2)), seconds, measured));
  }
  process.stdout.write(`\n${printed}\n\nfigures as JSON: ${out}${kept ? `; the table: ${kept}` : ''} (bench took ${seconds.toFixed(0)} s)\n`);
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
