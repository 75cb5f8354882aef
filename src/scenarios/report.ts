// A test run as text (a terminal or a log), JSON, JUnit XML, TAP or GitHub workflow annotations. Every reply, name and user
// line is service or user text: it goes through the one escaping function (format/escape.ts)
// before it meets a terminal, and is also made safe for XML.
import { count } from '../format/words.js';
import { escapeLine, escapeText, jsonText } from '../format/escape.js';
import type { JudgeResult, RunResult, ScenarioResult, TestReport, TurnResult } from './run.js';

export const TEST_FORMATS = ['text', 'json', 'junit', 'tap', 'github'] as const;
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

const pct = (x: number) => `${Math.round(x * 100)}%`;
const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** "passed 2 of 3 samples (67%)", with the rate needed when --pass-rate was given. */
function samplesLine(r: ScenarioResult, needed?: number): string {
  const ok = r.runs.filter((x) => x.passed).length;
  return `passed ${ok} of ${r.runs.length} samples (${pct(r.passRate)}${needed === undefined ? '' : `; needs ${pct(needed)}`})`;
}

/** A judge's outcome in one line: `judge "rubric": 0.40 < 0.7: reason`. */
function judgeLine(j: JudgeResult): string {
  const what = `judge ${JSON.stringify(clip(j.rubric))}`;
  if (j.error) return `${what}: judge error: ${j.error}`;
  return `${what}: ${j.score!.toFixed(2)} ${j.passed ? '≥' : '<'} ${j.threshold}${j.reason ? `: ${j.reason}` : ''}`;
}

/** One line saying why a scenario did not pass: "turn 2: contains \"final sale\"". */
export function failureLine(r: ScenarioResult, needed?: number): string {
  if (r.status === 'skipped')
    return r.runs.length ? `not finished: ${r.runs.at(-1)?.error ?? 'the run stopped'}` : 'not run (--bail or --max-cost stopped the run)';
  const run = shownRun(r);
  const mixed = r.runs.length > 1 && r.runs.some((x) => x.passed);
  const flaky = r.status === 'flaky' || (mixed && r.status === 'failed') ? `${r.status === 'flaky' ? 'flaky: ' : ''}${samplesLine(r, needed)}; ` : '';
  if (!run) return flaky;
  if (run.error)
    return `${flaky}${/^(not (started|finished|judged)|the simulated caller)/.test(run.error) ? run.error : `could not start a session: ${run.error}`}`;
  const f = failingTurn(run);
  if (!f) {
    const j = run.judges?.find((x) => !x.passed);
    return j ? `${flaky}${judgeLine(j)}` : flaky.replace(/; $/, '');
  }
  return `${flaky}turn ${f.n}${f.turn.simulated ? ' (simulated)' : ''}: ${f.turn.error ? `request failed: ${f.turn.error}` : f.turn.failures.join('; ')}`;
}

function summaryLine(report: TestReport): string {
  const c = report.counts;
  const turns = report.results.reduce((n, r) => n + r.runs.reduce((m, run) => m + run.turns.length, 0), 0);
  const parts = [`${c.passed} passed`, `${c.failed} failed`];
  if (c.flaky) parts.push(`${c.flaky} flaky`);
  if (c.skipped) parts.push(`${c.skipped} skipped`);
  const cost = report.cost > 0 ? `, cost ${report.cost}` : '';
  return `${parts.join(', ')} · ${count(report.results.length, 'scenario')}, ${count(turns, 'turn')} sent${cost}, ${(report.durationMs / 1000).toFixed(1)} s`;
}

const ms = (x: number | undefined) => (x === undefined ? '—' : String(Math.round(x)));

const MARK: Record<ScenarioResult['status'], [string, Tone]> = { passed: ['✓', 'green'], failed: ['✗', 'red'], flaky: ['~', 'yellow'], skipped: ['-', 'dim'] };

/** One scenario's lines of the text report: ✓/✗, and for a failure the turn, the expectations it broke and the reply. */
export function scenarioText(r: ScenarioResult, paint: Paint = plain, passRate?: number): string {
  const out: string[] = [];
  const [mark, tone] = MARK[r.status];
  const run = shownRun(r);
  const took = run ? ` ${Math.round(run.durationMs)} ms` : '';
  const times = r.runs.length > 1 ? ` ×${r.runs.length}` : '';
  out.push(`${paint(tone, mark)} ${escapeLine(r.scenario.name)}  ${paint('dim', `${escapeLine(r.scenario.file)}${times}${took}`)}`);
  if (r.runs.length > 1) {
    const tone: Tone = r.status === 'passed' ? 'dim' : r.status === 'flaky' ? 'yellow' : 'red';
    out.push(`    ${paint(tone, `${r.status === 'flaky' ? 'flaky: ' : ''}${samplesLine(r, passRate)}`)}`);
    out.push(`    ${paint('dim', `latency p50/p95 per turn: ${r.latency.map((l) => `${ms(l.p50)}/${ms(l.p95)}`).join(', ')} ms`)}`);
  }
  if (run?.turns.some((t) => t.simulated)) {
    const n = run.turns.filter((t) => t.simulated).length;
    out.push(`    ${paint('dim', `simulated caller: ${n} line${n === 1 ? '' : 's'}${run.ended ? `, ended: ${escapeLine(run.ended)}` : ''}`)}`);
  }
  for (const j of run?.judges ?? []) out.push(`    ${paint(j.passed ? 'dim' : 'red', escapeLine(judgeLine(j)))}`);
  if (r.variedTurns.length) out.push(`    ${paint('dim', `the reply to turn ${r.variedTurns.map((i) => i + 1).join(', ')} was not the same in every run`)}`);
  if (r.status === 'skipped') out.push(`    ${paint('dim', escapeLine(failureLine(r)))}`);
  else if (r.status !== 'passed' && run?.error) out.push(`    ${paint('red', escapeLine(failureLine(r, passRate)))}`);
  const f = r.status !== 'passed' && run && !run.error ? failingTurn(run) : undefined;
  if (f) {
    out.push(`    turn ${f.n}${f.turn.simulated ? ' (simulated caller)' : ''}: ${escapeLine(f.turn.user)}`);
    if (f.turn.error) out.push(`      ${paint('red', `request failed: ${escapeLine(f.turn.error)}`)}`);
    for (const x of f.turn.failures) out.push(`      ${paint('red', 'expected')} ${escapeLine(x)}`);
    if (f.turn.reply !== undefined) out.push(`      reply   ${escapeLine(f.turn.reply)}`);
  }
  return out.join('\n') + '\n';
}

/** The end of the text report: snapshot files written and the counts. */
export function summaryText(report: TestReport, paint: Paint = plain): string {
  const out = report.snapshotsWritten.map((p) => paint('dim', `snapshots written: ${escapeLine(p)}`));
  if (report.helpersCreated.length)
    out.push(
      paint('dim', `created on the target: ${report.helpersCreated.map((h) => `${escapeLine(h.name)} (${escapeLine(h.id)})`).join(', ')}`),
      paint('dim', 'they are reused by later runs; `switchboard test --cleanup` lists them'),
    );
  if (report.stoppedAt) out.push(paint('red', `stopped: ${escapeLine(report.stoppedAt)}`));
  if (report.baseline) {
    const { file, regressions } = report.baseline;
    const found = regressions.length ? paint('red', `${regressions.length} regression${regressions.length === 1 ? '' : 's'}`) : 'no regressions';
    out.push('', `compared with ${escapeLine(file)}: ${found}`);
    for (const x of regressions) out.push(`  ${paint('red', '↓')} ${escapeLine(x.scenario)}: ${escapeLine(x.what)}`);
  }
  out.push('', summaryLine(report));
  return out.join('\n') + '\n';
}

/** The text report: every scenario (scenarioText), then the summary. */
function renderText(report: TestReport, paint: Paint = plain): string {
  return report.results.map((r) => scenarioText(r, paint, report.passRate)).join('') + summaryText(report, paint);
}

/** Each rubric's mean score over the samples that were judged (a judge error counts 0), by rubric. */
export function meanScores(r: ScenarioResult): Record<string, number> {
  const by = new Map<string, number[]>();
  for (const run of r.runs) for (const j of run.judges ?? []) by.set(j.rubric, [...(by.get(j.rubric) ?? []), j.score ?? 0]);
  return Object.fromEntries([...by].map(([k, v]) => [k, Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 1000) / 1000]));
}

/** Everything, for scripts: each scenario with every sample, its transcript, judges and latency. */
function renderJson(report: TestReport): string {
  const value = {
    summary: {
      ...report.counts,
      scenarios: report.results.length,
      durationMs: Math.round(report.durationMs),
      cost: report.cost,
      ...(report.passRate !== undefined ? { passRate: report.passRate } : {}),
      ...(report.stoppedAt ? { stopped: report.stoppedAt } : {}),
    },
    snapshotsWritten: report.snapshotsWritten,
    helpersCreated: report.helpersCreated,
    ...(report.baseline ? { baseline: report.baseline } : {}),
    scenarios: report.results.map((r) => ({
      name: r.scenario.name,
      file: r.scenario.file,
      assistant: r.scenario.assistant,
      status: r.status,
      ...(r.status === 'passed' ? {} : { failure: failureLine(r, report.passRate) }),
      line: r.scenario.at.line,
      samples: r.runs.length,
      passRate: r.passRate,
      scores: meanScores(r),
      latency: r.latency.map((l) => ({ p50: l.p50 === undefined ? undefined : Math.round(l.p50), p95: l.p95 === undefined ? undefined : Math.round(l.p95) })),
      variedTurns: r.variedTurns.map((i) => i + 1),
      runs: r.runs.map((run) => ({
        passed: run.passed,
        sessionId: run.sessionId,
        durationMs: Math.round(run.durationMs),
        cost: Math.round(run.cost * 1e6) / 1e6,
        ...(run.error ? { error: run.error } : {}),
        ...(run.ended ? { ended: run.ended } : {}),
        ...(run.judges ? { judges: run.judges } : {}),
        turns: run.turns.map((t) => ({
          ...(t.simulated ? { simulated: true } : {}),
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

function failureDetail(r: ScenarioResult, needed?: number): string {
  const run = shownRun(r);
  const lines = [failureLine(r, needed)];
  const f = run && failingTurn(run);
  if (f) {
    lines.push(`user: ${f.turn.user}`);
    if (f.turn.reply !== undefined) lines.push(`reply: ${f.turn.reply}`);
  }
  r.runs.forEach((x, i) => {
    for (const j of x.judges ?? []) lines.push(`sample ${i + 1}: ${judgeLine(j)}`);
  });
  return lines.join('\n');
}

/** A testcase's properties: its samples and each rubric's mean score. */
function junitProperties(r: ScenarioResult): string[] {
  if (r.runs.length <= 1 && !r.runs.some((x) => x.judges)) return [];
  const props: [string, string][] = [
    ['samples', String(r.runs.length)],
    ['samples.passed', String(r.runs.filter((x) => x.passed).length)],
    ['passRate', String(Math.round(r.passRate * 1000) / 1000)],
  ];
  r.runs.forEach((x, i) =>
    props.push([`sample.${i + 1}`, `${x.passed ? 'passed' : 'failed'}${(x.judges ?? []).map((j) => ` ${j.score ?? 'error'}`).join('')}`]),
  );
  for (const [rubric, score] of Object.entries(meanScores(r))) props.push([`score: ${rubric}`, String(score)]);
  return ['      <properties>', ...props.map(([k, v]) => `        <property name="${xmlText(k)}" value="${xmlText(v)}"/>`), '      </properties>'];
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
      const props = junitProperties(r);
      if (failed(r)) {
        const type = r.status === 'flaky' ? 'flaky' : shownRun(r)?.judges?.some((j) => !j.passed) ? 'judge' : 'expectation';
        out.push(
          `${open}>`,
          ...props,
          `      <failure message="${xmlText(failureLine(r, report.passRate))}" type="${type}">${xmlText(failureDetail(r, report.passRate))}</failure>`,
          '    </testcase>',
        );
      } else if (r.status === 'skipped') out.push(`${open}>`, ...props, `      <skipped message="${xmlText(failureLine(r))}"/>`, '    </testcase>');
      else if (props.length) out.push(`${open}>`, ...props, '    </testcase>');
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

/** Workflow-command text: GitHub's own escapes, after the terminal escaping of service text. */
function ghData(s: string): string {
  return escapeText(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
const ghProperty = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub Actions workflow commands: an ::error (or ::warning for flaky) per scenario that did not pass, grouped per file. */
function renderGithub(report: TestReport): string {
  const out: string[] = [];
  const byFile = new Map<string, ScenarioResult[]>();
  for (const r of report.results) byFile.set(r.scenario.file, [...(byFile.get(r.scenario.file) ?? []), r]);
  for (const [file, results] of byFile) {
    out.push(`::group::${ghData(file)}`);
    for (const r of results) {
      const level = r.status === 'passed' ? undefined : r.status === 'flaky' || r.status === 'skipped' ? 'warning' : 'error';
      out.push(`${r.status === 'passed' ? '✓' : r.status === 'flaky' ? '~' : '✗'} ${ghData(r.scenario.name)}`);
      if (!level) continue;
      const at = `file=${ghProperty(file)},line=${r.scenario.at.line},col=${r.scenario.at.col},title=${ghProperty(r.scenario.name)}`;
      out.push(`::${level} ${at}::${ghData(failureDetail(r, report.passRate))}`);
    }
    out.push('::endgroup::');
  }
  for (const x of report.baseline?.regressions ?? [])
    out.push(`::warning file=${ghProperty(x.file)},title=${ghProperty(`regression: ${x.scenario}`)}::${ghData(x.what)}`);
  out.push(summaryLine(report));
  return out.join('\n') + '\n';
}

export function renderReport(report: TestReport, format: TestFormat, paint: Paint = plain): string {
  switch (format) {
    case 'github':
      return renderGithub(report);
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
