// Row 14: `switchboard test` — 100 scenarios × 3 turns against the embedded sandbox (nothing
// configured), --concurrency 4, process start included; wall time against the row's target.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext } from '../fixtures.js';
import { run } from '../procs.js';
import { summarize } from '../stats.js';

const FILES = 10;
const PER_FILE = 10;

/** 10 files of 10 scenarios, 3 turns each, over the seeded assistants and their knowledge bases. */
function writeScenarios(dir: string): void {
  const assistants = [
    ['Riley — Northwind support', ['How long do I have to return an item?', 'What about sale items?', 'Can I get a refund?'], '30 days'],
    ['Ava — Bright Smile front desk', ['What are your opening hours on Saturday?', 'Do you take insurance?', 'Who are you?'], 'Bright Smile'],
    ['Max — Aurora product specialist', ['How do I reset the thermostat?', 'Does it work with Wi-Fi?', 'What can you do?'], 'Aurora'],
  ] as const;
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < FILES; f++) {
    const lines = ['scenarios:'];
    for (let s = 0; s < PER_FILE; s++) {
      const [assistant, questions] = assistants[(f * PER_FILE + s) % assistants.length];
      lines.push(`  - name: scenario ${f}-${s}`, `    assistant: ${assistant}`, '    variables: { company: Northwind, customerName: Ada }', '    turns:');
      for (const q of questions) lines.push(`      - user: ${JSON.stringify(q)}`, '        expect: { notContains: ["{{company}}"], maxLatencyMs: 5000 }');
    }
    writeFileSync(join(dir, `bench-${f}.test.yaml`), lines.join('\n') + '\n');
  }
}

export async function scenarioRows(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('scenarios');
  const dir = join(home.dir, 'tests');
  writeScenarios(dir);
  // The first command seeds the embedded sandbox's data dir: a one-time cost, not the row's.
  const seed = await run(process.execPath, [ctx.cli, 'assistants', 'list', '-o', 'ids'], { env: home.env, timeoutMs: 60_000 });
  if (seed.code !== 0) throw new Error(`assistants list failed (${seed.code}): ${firstErrorLine(seed.stderr)}`);
  const runs = ctx.quick ? 1 : 3;
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await run(process.execPath, [ctx.cli, 'test', dir, '--concurrency', '4', '-o', 'json'], { env: home.env, timeoutMs: 120_000 });
    if (r.code !== 0) throw new Error(`switchboard test exited ${r.code}: ${firstErrorLine(r.stderr || r.stdout)}`);
    const summary = (JSON.parse(r.stdout) as { summary: { passed: number } }).summary;
    if (summary.passed !== FILES * PER_FILE) throw new Error(`only ${summary.passed} of ${FILES * PER_FILE} scenarios passed`);
    wall.push(r.ms);
  }
  const s = summarize(wall);
  return [
    {
      row: 14,
      name: '`switchboard test`, 100 scenarios × 3 turns, embedded sandbox, concurrency 4',
      unit: 'ms',
      ...fromSummary(s),
      target: atMost(10_000, 'ms'),
      note: 'spawn → exit: process start, the embedded sandbox, 100 sessions and 300 chats',
    },
  ];
}
