// --baseline: this run against an earlier `switchboard test -o json` report. A regression is a
// scenario whose pass rate went down, whose mean judge score for a rubric dropped by more than the
// tolerance, or whose p95 latency for a turn grew by more than half (and by more than 100 ms, so
// that a fast sandbox's jitter is not one).
import * as z from 'zod';
import { InputError } from '../api/errors.js';
import { meanScores } from './report.js';
import type { TestReport } from './run.js';

const BaselineSchema = z.looseObject({
  scenarios: z.array(
    z.looseObject({
      name: z.string(),
      file: z.string(),
      passRate: z.number().optional(),
      status: z.string().optional(),
      scores: z.record(z.string(), z.number()).optional(),
      latency: z.array(z.looseObject({ p95: z.number().nullish() })).optional(),
      runs: z.array(z.looseObject({ cost: z.number().optional() })).optional(),
    }),
  ),
});

type Baseline = z.infer<typeof BaselineSchema>;

export interface Regression {
  scenario: string;
  file: string;
  what: string;
}

/** Reads an earlier JSON report; anything else is an InputError naming the file. */
export function parseBaseline(path: string, text: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: not JSON (${(err as Error).message}); --baseline takes a report written by switchboard test -o json`);
  }
  const parsed = BaselineSchema.safeParse(value);
  if (!parsed.success) throw new InputError(`${path}: not a report of switchboard test -o json (it has no "scenarios" list of name and file)`);
  return parsed.data;
}

const LATENCY_GROWTH = 1.5;
const LATENCY_NOISE_MS = 100;

/** The regressions of `report` against `baseline`; scenarios in only one of them are not compared. */
export function compareWithBaseline(report: TestReport, baseline: Baseline, tolerance: number): Regression[] {
  const before = new Map(baseline.scenarios.map((s) => [`${s.file}\0${s.name}`, s]));
  const out: Regression[] = [];
  for (const r of report.results) {
    const was = before.get(`${r.scenario.file}\0${r.scenario.name}`);
    if (!was || r.status === 'skipped') continue;
    const add = (what: string) => out.push({ scenario: r.scenario.name, file: r.scenario.file, what });
    const wasRate = was.passRate ?? (was.status === 'passed' ? 1 : was.status === undefined ? undefined : 0);
    if (wasRate !== undefined && r.passRate < wasRate - 1e-9) add(`pass rate ${pct(r.passRate)}, was ${pct(wasRate)}`);
    const scores = meanScores(r);
    for (const [rubric, old] of Object.entries(was.scores ?? {})) {
      const now = scores[rubric];
      if (now !== undefined && old - now > tolerance + 1e-9) add(`score ${now.toFixed(2)}, was ${old.toFixed(2)} (tolerance ${tolerance}): ${rubric}`);
    }
    r.latency.forEach((l, i) => {
      const old = was.latency?.[i]?.p95;
      if (l.p95 === undefined || old === undefined || old === null) return;
      if (l.p95 > old * LATENCY_GROWTH && l.p95 - old > LATENCY_NOISE_MS) add(`turn ${i + 1} latency p95 ${Math.round(l.p95)} ms, was ${Math.round(old)} ms`);
    });
  }
  return out;
}

/**
 * What `samples` samples of each scenario would cost at the baseline's mean cost per sample;
 * undefined when the baseline holds no cost for some of them.
 */
export function estimateCost(baseline: Baseline, scenarios: readonly { name: string; file: string }[], samples: number): number | undefined {
  let total = 0;
  for (const s of scenarios) {
    const costs = (baseline.scenarios.find((b) => b.name === s.name && b.file === s.file)?.runs ?? []).flatMap((r) => (r.cost === undefined ? [] : [r.cost]));
    if (costs.length === 0) return undefined;
    total += (costs.reduce((a, b) => a + b, 0) / costs.length) * samples;
  }
  return Math.round(total * 1e4) / 1e4;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
