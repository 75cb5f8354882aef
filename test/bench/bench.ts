// `npm run bench`: measures the built CLI (dist/) against the targets of issue 6 and prints one
// table (Markdown, for the README) plus a JSON file of the same figures. Each row that cannot
// run (a piece not built, a failure) prints `n/a (<reason>)` and the others go on.
//
//   npm run bench [-- --quick] [-- --no-build] [-- --rows 1,6,7]
//
// --quick: fewer runs and shorter load, to try the bench out (figures are less stable).
// --no-build: measure dist/ as it is instead of rebuilding it first.
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstErrorLine, type BenchContext } from './fixtures.js';
import { cleanupAll, installCleanupHandlers, run } from './procs.js';
import { machine, renderTable, toJson, type Figure } from './report.js';
import { versionRow } from './rows/version.js';
import { throughputRow } from './rows/throughput.js';
import { uploadRow } from './rows/upload.js';

interface RowGroup {
  rows: number[];
  /** what the table says for each row when the group cannot run */
  titles: Record<number, { name: string; target?: string }>;
  run(ctx: BenchContext): Promise<Figure[]>;
}

const GROUPS: RowGroup[] = [
  { rows: [1], titles: { 1: { name: '`switchboard --version`', target: '≤ 1.5× node' } }, run: versionRow },
  { rows: [6], titles: { 6: { name: 'sandbox GET /calls?limit=100, 32 connections', target: '≥ 4,000 req/s' } }, run: throughputRow },
  { rows: [7], titles: { 7: { name: '200 MiB upload, RSS added', target: '≤ 64 MB' } }, run: uploadRow },
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
  const ctx: BenchContext = { cli: resolve('dist/cli.js'), quick: args.quick, log };

  let missing: string | undefined;
  if (args.build) {
    log('building dist/…');
    const b = await run(process.execPath, ['src/scripts/build.mjs'], { timeoutMs: 120_000 });
    if (b.code !== 0) missing = `build failed: ${firstErrorLine(b.stderr || b.stdout)}`;
  }
  if (!missing && !existsSync(ctx.cli)) missing = 'dist/cli.js missing; run npm run build';

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
  process.stdout.write(`\n${header}${renderTable(figures)}\n\nfigures as JSON: ${out} (bench took ${seconds.toFixed(0)} s)\n`);
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
