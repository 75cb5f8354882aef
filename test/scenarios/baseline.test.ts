// compareWithBaseline on reports built in memory: which changes are regressions and which are noise.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareWithBaseline, parseBaseline } from '../../src/scenarios/baseline.js';
import type { ScenarioResult, TestReport } from '../../src/scenarios/run.js';

const scenario = { name: 'Returns', file: 'returns.test.yaml' } as ScenarioResult['scenario'];

function reportOf(r: Partial<ScenarioResult>): TestReport {
  const result: ScenarioResult = { scenario, status: 'passed', runs: [], variedTurns: [], passRate: 1, latency: [], ...r };
  return { results: [result], durationMs: 1, snapshotsWritten: [], counts: { passed: 1, failed: 0, flaky: 0, skipped: 0 }, helpersCreated: [], cost: 0 };
}
const baselineOf = (s: object) => parseBaseline('base.json', JSON.stringify({ scenarios: [{ name: 'Returns', file: 'returns.test.yaml', ...s }] }));

test('a turn whose p95 grew by more than half and by more than 100 ms is a regression; jitter below either is not', () => {
  const base = baselineOf({ passRate: 1, latency: [{ p95: 300 }, { p95: 40 }, { p95: null }] });
  assert.deepEqual(compareWithBaseline(reportOf({ latency: [{ p95: 460 }, { p95: 130 }, { p95: 9000 }] }), base, 0.1), [
    { scenario: 'Returns', file: 'returns.test.yaml', what: 'turn 1 latency p95 460 ms, was 300 ms' },
  ]);
  // 440 is under 1.5 × 300; 130 is 3 × 40 but only 90 ms more; the baseline's null turn is not compared.
  assert.deepEqual(compareWithBaseline(reportOf({ latency: [{ p95: 440 }, { p95: 130 }, { p95: 9000 }] }), base, 0.1), []);
});

test('a pass rate that went down and a score that dropped past the tolerance are regressions; a scenario only in one report is not compared', () => {
  const base = baselineOf({ passRate: 1, scores: { polite: 0.9, brief: 0.8 } });
  const runs = [
    {
      passed: false,
      turns: [],
      cost: 0,
      durationMs: 1,
      judges: [
        { rubric: 'polite', score: 0.7, threshold: 0.5, passed: true },
        { rubric: 'brief', score: 0.75, threshold: 0.5, passed: true },
      ],
    },
  ] as ScenarioResult['runs'];
  assert.deepEqual(
    compareWithBaseline(reportOf({ passRate: 0.5, runs }), base, 0.1).map((x) => x.what),
    ['pass rate 50%, was 100%', 'score 0.70, was 0.90 (tolerance 0.1): polite'],
  );
  const other = parseBaseline('base.json', JSON.stringify({ scenarios: [{ name: 'Other', file: 'returns.test.yaml', passRate: 1 }] }));
  assert.deepEqual(compareWithBaseline(reportOf({ passRate: 0 }), other, 0.1), []);
});
