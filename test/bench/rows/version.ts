// Row 1: `switchboard --version` wall time (spawn → exit) against bare `node -e 0`, interleaved
// run by run so both see the same machine state.
import { readFileSync } from 'node:fs';
import { atMostRatio, fromSummary, type Figure } from '../report.js';
import { tempHome, type BenchContext } from '../fixtures.js';
import { run } from '../procs.js';
import { summarize } from '../stats.js';

export async function versionRow(ctx: BenchContext): Promise<Figure[]> {
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  const runs = ctx.quick ? 5 : 15;
  const node: number[] = [];
  const cli: number[] = [];
  // Both in the same clean environment as the other rows: this machine's shell sets
  // NODE_EXTRA_CA_CERTS, which Node 20 parses at every start, a cost that would flatter the ratio.
  const { env } = tempHome('version');
  for (let i = -2; i < runs; i++) {
    // The first two rounds warm the file cache and are not counted.
    const n = await run(process.execPath, ['-e', '0'], { env });
    const c = await run(process.execPath, [ctx.cli, '--version'], { env });
    if (c.code !== 0 || c.stdout.trim() !== version) {
      throw new Error(`--version printed ${JSON.stringify(c.stdout.trim())} (exit ${c.code}), expected ${version}`);
    }
    if (i < 0) continue;
    node.push(n.ms);
    cli.push(c.ms);
  }
  const nodeS = summarize(node);
  const cliS = summarize(cli);
  return [
    { row: 1, name: 'bare `node -e 0`', unit: 'ms', ...fromSummary(nodeS), note: 'the baseline of the row 1 ratio (rows 2-3 and 8 measure theirs alongside)' },
    { row: 1, name: '`switchboard --version`', unit: 'ms', ...fromSummary(cliS), ratio: cliS.median / nodeS.median, target: atMostRatio(1.5) },
  ];
}
