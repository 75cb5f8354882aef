// Row 17: `switchboard test` with simulated callers and judges — 20 scenarios × 4 simulated turns
// × 3 samples, one rubric each, against the embedded sandbox (nothing configured), process start
// included; wall time against the row's target.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext } from '../fixtures.js';
import { run } from '../procs.js';
import { summarize } from '../stats.js';

const SCENARIOS = 20;
const SAMPLES = 3;

/** One file of 20 scenarios: a caller with four goals (so four turns) and a judge over its transcript. */
function writeScenarios(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const lines = ['scenarios:'];
  for (let s = 0; s < SCENARIOS; s++) {
    lines.push(
      `  - name: simulated ${s}`,
      '    assistant: Riley — Northwind support',
      '    simulate:',
      `      persona: "You are caller ${s}. Ask how long you have to return an item. Ask about sale items. Ask for a refund. Ask who they are."`,
      '      maxTurns: 4',
      '    judge:',
      '      - rubric: quotes "30 days"',
    );
  }
  writeFileSync(join(dir, 'simulated.test.yaml'), lines.join('\n') + '\n');
}

export async function simulationRows(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('simulations');
  const dir = join(home.dir, 'tests');
  writeScenarios(dir);
  // The first command seeds the embedded sandbox's data dir, and the first run creates the
  // caller and judge assistants: one-time costs, not the row's.
  const seed = await run(process.execPath, [ctx.cli, 'test', dir, '-o', 'json'], { env: home.env, timeoutMs: 120_000 });
  if (seed.code !== 0) throw new Error(`the first switchboard test exited ${seed.code}: ${firstErrorLine(seed.stderr || seed.stdout)}`);
  const runs = ctx.quick ? 1 : 3;
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await run(process.execPath, [ctx.cli, 'test', dir, '--samples', String(SAMPLES), '--concurrency', '4', '-o', 'json'], {
      env: home.env,
      timeoutMs: 120_000,
    });
    if (r.code !== 0) throw new Error(`switchboard test exited ${r.code}: ${firstErrorLine(r.stderr || r.stdout)}`);
    const report = JSON.parse(r.stdout) as { summary: { passed: number }; scenarios: { runs: { turns: unknown[] }[] }[] };
    if (report.summary.passed !== SCENARIOS) throw new Error(`only ${report.summary.passed} of ${SCENARIOS} scenarios passed`);
    const turns = report.scenarios.reduce((n, s) => n + s.runs.reduce((m, x) => m + x.turns.length, 0), 0);
    if (turns !== SCENARIOS * SAMPLES * 4) throw new Error(`${turns} simulated turns, not ${SCENARIOS * SAMPLES * 4}`);
    wall.push(r.ms);
  }
  return [
    {
      row: 17,
      name: '`switchboard test`, 20 scenarios × 4 simulated turns × 3 samples, with a judge, embedded sandbox',
      unit: 'ms',
      ...fromSummary(summarize(wall)),
      target: atMost(10_000, 'ms'),
      note: 'spawn → exit: 60 samples, each its session, its caller session and its judge session (180 sessions, 540 chats)',
    },
  ];
}
