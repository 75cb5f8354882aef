// A test run as text (a terminal or a log), JSON, JUnit XML or TAP. Every reply, name and user
// line is service or user text: it goes through the one escaping function (format/escape.ts)
// before it meets a terminal, and is also made safe for XML.
import { escapeLine, escapeText, jsonText } from '../format/escape.js';
import type { RunResult, ScenarioResult, TestReport, TurnResult } from './run.js';

export const TEST_FORMATS = ['text', 'json', 'junit', 'tap'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

type Tone = 'green' | 'red' | 'yellow' | 'dim';
export type Paint = (tone: Tone, text: string) => string;
const plain: Paint = (_t, s) => s;

const secs = (ms: number) => (ms / 1000).toFixed(3);

/** The run to explain for a scenario: its first failing run (or the first, when all passed). */
export function shownRun(r: ScenarioResult): RunResult | undefined {
  return r.runs.find((x) => !x.passed) ?? r.runs[0];
}

/** The first turn of a run that failed, with its 1-based number. */
function failingTurn(run: RunResult): { n: number; turn: TurnResult } | undefined {
  const i = run.turns.findIndex((t) => t.error || t.failures.length > 0);
  return i < 0 ? undefined : { n: i + 1, turn: run.turns[i] };
}

/** One line saying why a scenario did not pass: "turn 2: contains \"final sale\"". */
export function failureLine(r: ScenarioResult): string {
  if (r.status === 'skipped') return 'not run (--bail stopped the run)';
  const run = shownRun(r);
  const flaky = r.status === 'flaky' ? `flaky: passed ${r.runs.filter((x) => x.passed).length} of ${r.runs.length} runs; ` : '';
  if (!run) return flaky;
  if (run.error) return `${flaky}could not start a session: ${run.error}`;
  const f = failingTurn(run);
  if (!f) return flaky.replace(/; $/, '');
  return `${flaky}turn ${f.n}: ${f.turn.error ? `request failed: ${f.turn.error}` : f.turn.failures.join('; ')}`;
}

function summaryLine(report: TestReport): string {
  const c = report.counts;
  const turns = report.results.reduce((n, r) => n + r.runs.reduce((m, run) => m + run.turns.length, 0), 0);
  const parts = [`${c.passed} passed`, `${c.failed} failed`];
  if (c.flaky) parts.push(`${c.flaky} flaky`);
  if (c.skipped) parts.push(`${c.skipped} skipped`);
  return `${parts.join(', ')} · ${report.results.length} scenarios, ${turns} turns sent, ${(report.durationMs / 1000).toFixed(1)} s`;
}

const MARK: Record<ScenarioResult['status'], [string, Tone]> = { passed: ['✓', 'green'], failed: ['✗', 'red'], flaky: ['~', 'yellow'], skipped: ['-', 'dim'] };

/** One scenario's lines of the text report: ✓/✗, and for a failure the turn, the expectations it broke and the reply. */
export function scenarioText(r: ScenarioResult, paint: Paint = plain): string {
  const out: string[] = [];
  const [mark, tone] = MARK[r.status];
  const run = shownRun(r);
  const took = run ? ` ${Math.round(run.durationMs)} ms` : '';
  const times = r.runs.length > 1 ? ` ×${r.runs.length}` : '';
  out.push(`${paint(tone, mark)} ${escapeLine(r.scenario.name)}  ${paint('dim', `${escapeLine(r.scenario.file)}${times}${took}`)}`);
  if (r.status === 'flaky') out.push(`    ${paint('yellow', `flaky: passed ${r.runs.filter((x) => x.passed).length} of ${r.runs.length} runs`)}`);
  if (r.variedTurns.length) out.push(`    ${paint('dim', `the reply to turn ${r.variedTurns.map((i) => i + 1).join(', ')} was not the same in every run`)}`);
  if (r.status === 'skipped') out.push(`    ${paint('dim', 'not run (--bail)')}`);
  if (r.status !== 'passed' && run?.error) out.push(`    ${paint('red', `could not start a session: ${escapeLine(run.error)}`)}`);
  const f = r.status !== 'passed' && run && !run.error ? failingTurn(run) : undefined;
  if (f) {
    out.push(`    turn ${f.n}: ${escapeLine(f.turn.user)}`);
    if (f.turn.error) out.push(`      ${paint('red', `request failed: ${escapeLine(f.turn.error)}`)}`);
    for (const x of f.turn.failures) out.push(`      ${paint('red', 'expected')} ${escapeLine(x)}`);
    if (f.turn.reply !== undefined) out.push(`      reply   ${escapeLine(f.turn.reply)}`);
  }
  return out.join('\n') + '\n';
}

/** The end of the text report: snapshot files written and the counts. */
export function summaryText(report: TestReport, paint: Paint = plain): string {
  const out = report.snapshotsWritten.map((p) => paint('dim', `snapshots written: ${escapeLine(p)}`));
  out.push('', summaryLine(report));
  return out.join('\n') + '\n';
}

/** The text report: every scenario (scenarioText), then the summary. */
function renderText(report: TestReport, paint: Paint = plain): string {
  return report.results.map((r) => scenarioText(r, paint)).join('') + summaryText(report, paint);
}

/** Everything, for scripts: each scenario with every run and turn. */
function renderJson(report: TestReport): string {
  const value = {
    summary: { ...report.counts, scenarios: report.results.length, durationMs: Math.round(report.durationMs) },
    snapshotsWritten: report.snapshotsWritten,
    scenarios: report.results.map((r) => ({
      name: r.scenario.name,
      file: r.scenario.file,
      assistant: r.scenario.assistant,
      status: r.status,
      ...(r.status === 'passed' ? {} : { failure: failureLine(r) }),
      variedTurns: r.variedTurns.map((i) => i + 1),
      runs: r.runs.map((run) => ({
        passed: run.passed,
        sessionId: run.sessionId,
        durationMs: Math.round(run.durationMs),
        ...(run.error ? { error: run.error } : {}),
        turns: run.turns.map((t) => ({
          user: t.user,
          reply: t.reply,
          latencyMs: t.latencyMs === undefined ? undefined : Math.round(t.latencyMs),
          cost: t.cost,
          expect: t.expect,
          failures: t.failures,
          ...(t.error ? { error: t.error } : {}),
        })),
      })),
    })),
  };
  return jsonText(value, 2) + '\n';
}

/** Text safe in XML 1.0 content and attributes: control characters escaped as for a terminal, markup escaped. */
function xmlText(s: string): string {
  return escapeText(s)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function failureDetail(r: ScenarioResult): string {
  const run = shownRun(r);
  const lines = [failureLine(r)];
  const f = run && failingTurn(run);
  if (f) {
    lines.push(`user: ${f.turn.user}`);
    if (f.turn.reply !== undefined) lines.push(`reply: ${f.turn.reply}`);
  }
  return lines.join('\n');
}

/** JUnit XML: a <testsuite> per file, a <testcase> per scenario, a <failure> naming the turn and expectation. */
function renderJunit(report: TestReport): string {
  const byFile = new Map<string, ScenarioResult[]>();
  for (const r of report.results) byFile.set(r.scenario.file, [...(byFile.get(r.scenario.file) ?? []), r]);
  const failed = (r: ScenarioResult) => r.status === 'failed' || r.status === 'flaky';
  const timeOf = (r: ScenarioResult) => r.runs.reduce((t, run) => t + run.durationMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="switchboard test" tests="${report.results.length}" failures="${report.counts.failed + report.counts.flaky}" ` +
      `skipped="${report.counts.skipped}" time="${secs(report.durationMs)}">`,
  ];
  for (const [file, results] of byFile) {
    const time = results.reduce((t, r) => t + timeOf(r), 0);
    out.push(
      `  <testsuite name="${xmlText(file)}" tests="${results.length}" failures="${results.filter(failed).length}" errors="0" ` +
        `skipped="${results.filter((r) => r.status === 'skipped').length}" time="${secs(time)}">`,
    );
    for (const r of results) {
      const open = `    <testcase name="${xmlText(r.scenario.name)}" classname="${xmlText(file)}" time="${secs(timeOf(r))}"`;
      if (failed(r)) {
        out.push(
          `${open}>`,
          `      <failure message="${xmlText(failureLine(r))}" type="${r.status === 'flaky' ? 'flaky' : 'expectation'}">${xmlText(failureDetail(r))}</failure>`,
          '    </testcase>',
        );
      } else if (r.status === 'skipped') out.push(`${open}>`, '      <skipped message="not run (--bail)"/>', '    </testcase>');
      else out.push(`${open}/>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

/** TAP version 14: one test point per scenario, a YAML block with the failing turn. */
function renderTap(report: TestReport): string {
  const out = ['TAP version 14', `1..${report.results.length}`];
  report.results.forEach((r, i) => {
    const name = escapeLine(r.scenario.name).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
    if (r.status === 'skipped') {
      out.push(`ok ${i + 1} - ${name} # SKIP --bail stopped the run`);
      return;
    }
    if (r.status === 'passed') {
      out.push(`ok ${i + 1} - ${name}`);
      return;
    }
    out.push(`not ok ${i + 1} - ${name}`, '  ---', `  file: ${jsonText(r.scenario.file)}`, `  status: ${r.status}`, `  message: ${jsonText(failureLine(r))}`);
    const run = shownRun(r);
    const f = run && failingTurn(run);
    if (f) {
      out.push(`  turn: ${f.n}`, `  user: ${jsonText(f.turn.user)}`);
      if (f.turn.reply !== undefined) out.push(`  reply: ${jsonText(f.turn.reply)}`);
    }
    out.push('  ...');
  });
  return out.join('\n') + '\n';
}

export function renderReport(report: TestReport, format: TestFormat, paint: Paint = plain): string {
  switch (format) {
    case 'json':
      return renderJson(report);
    case 'junit':
      return renderJunit(report);
    case 'tap':
      return renderTap(report);
    case 'text':
      return renderText(report, paint);
  }
}
