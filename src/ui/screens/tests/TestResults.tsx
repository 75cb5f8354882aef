// `:test [path]`: conversation tests run from the console (the same code as `switchboard test`).
// One row per scenario; Enter shows each turn with its expectations and the reply; r runs again.
import { Box, Text } from 'ink';
import { useActions, useConsole, type Route } from '../../../store/index.js';
import type { ScenarioResult } from '../../../scenarios/run.js';
import type { Expect } from '../../../scenarios/scenario.js';
import { failureLine, shownRun } from '../../../scenarios/report.js';
import type { Column } from '../../../format/column.js';
import { Table } from '../../components/Table.js';
import { Empty } from '../../components/Status.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { Spinner } from '../../components/Spinner.js';
import { useDetailKeys, useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { money, truncate, wrapText } from '../../../format/display.js';
import { filterRows, useSortedList, type ScreenProps } from '../shared.js';
import { toneColor, type Palette } from '../../theme.js';
import { useTheme } from '../../hooks/theme-context.js';

const MARK: Record<ScenarioResult['status'], string> = { passed: '✓ passed', failed: '✗ failed', flaky: '~ flaky', skipped: '- skipped' };
const TONE = { passed: 'green', failed: 'red', flaky: 'yellow', skipped: 'dim' } as const;

const COLUMNS: Column<ScenarioResult>[] = [
  { header: 'RESULT', width: 9, value: (r) => MARK[r.status], tone: (r) => TONE[r.status] },
  { header: 'SCENARIO', width: 20, grow: true, value: (r) => r.scenario.name },
  { header: 'TURNS', width: 5, priority: 3, align: 'right', value: (r) => String(shownRun(r)?.turns.length ?? r.scenario.turns?.length ?? 0) },
  { header: 'TIME', width: 7, priority: 4, align: 'right', value: (r) => (shownRun(r) ? `${Math.round(shownRun(r)!.durationMs)} ms` : '—') },
  { header: 'WHY', width: 20, priority: 2, grow: true, value: (r) => (r.status === 'passed' ? '' : failureLine(r)) },
  { header: 'FILE', width: 16, priority: 5, value: (r) => r.scenario.file },
];

/** A result's id in the route: its file and name (names are unique in a file), stable across runs. */
const resultId = (r: ScenarioResult) => `${r.scenario.file}#${r.scenario.name}`;

export function TestResults({ route, width, height }: ScreenProps<Extract<Route, { name: 'tests' }>>) {
  const theme = useTheme();
  const t = useConsole((s) => s.tests);
  const view = useTopView();
  const actions = useActions();
  const list = useSortedList(filterRows(t.results, COLUMNS, view.filter), COLUMNS, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  const summary =
    t.status === 'running'
      ? null
      : t.report
        ? `${t.report.counts.passed} passed · ${t.report.counts.failed} failed${t.report.counts.flaky ? ` · ${t.report.counts.flaky} flaky` : ''} ` +
          `· ${(t.report.durationMs / 1000).toFixed(1)} s`
        : '';
  const bodyHeight = Math.max(2, height - 1 - (t.status === 'error' ? Math.min(t.errors.length, height - 4) + 1 : 0));
  useListKeys({
    empty: 'no result here',
    count: rows.length,
    height: bodyHeight,
    bindings: {
      ...list.bindings,
      [Command.Open]: () => void (selected && actions.push({ name: 'test-result', id: resultId(selected), scenario: selected.scenario.name })),
    },
  });
  const where = route.path ?? './tests';
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        {t.status === 'running' ? (
          <>
            <Spinner /> Running {truncate(where, width - 30)}… {t.results.length}
            {t.total ? ` of ${t.total}` : ''} scenarios done
          </>
        ) : (
          <>
            <Text bold>{truncate(where, Math.max(10, width - 40))}</Text>
            {summary ? <Text color={t.report && t.report.counts.failed + t.report.counts.flaky > 0 ? theme.error : theme.good}> {summary}</Text> : null}
          </>
        )}
      </Text>
      {t.status === 'error' ? (
        <Box flexDirection="column">
          <Text color={theme.error} bold>
            Nothing was run
          </Text>
          {t.errors.slice(0, Math.max(1, height - 4)).map((e, i) => (
            <Text key={i} color={theme.error} wrap="truncate">
              {truncate(e, width)}
            </Text>
          ))}
        </Box>
      ) : rows.length === 0 ? (
        <Empty
          text={t.status === 'running' ? 'Waiting for the first scenario…' : view.filter ? `No scenario matches "${view.filter}".` : 'No scenarios ran.'}
        />
      ) : (
        <Table columns={list.columns} rows={rows} cursor={view.cursor} scroll={view.scroll} height={bodyHeight} width={width} rowKey={resultId} />
      )}
    </Box>
  );
}

function expectations(e: Expect | undefined): string[] {
  if (!e) return [];
  const out: string[] = [];
  if (e.contains?.length) out.push(`contains ${e.contains.map((c) => JSON.stringify(c)).join(', ')}`);
  if (e.notContains?.length) out.push(`notContains ${e.notContains.map((c) => JSON.stringify(c)).join(', ')}`);
  if (e.matches !== undefined) out.push(`matches /${e.matches}/i`);
  if (e.maxLatencyMs !== undefined) out.push(`maxLatencyMs ${e.maxLatencyMs}`);
  if (e.maxCost !== undefined) out.push(`maxCost ${e.maxCost}`);
  if (e.snapshot) out.push('snapshot');
  return out;
}

/** The lines of one scenario's result: each turn, its expectations (broken ones in red) and the reply. */
function resultLines(theme: Palette, r: ScenarioResult, width: number): Line[] {
  const run = shownRun(r);
  const status =
    `${MARK[r.status]} · ${r.scenario.file} · ` +
    `assistant ${r.scenario.assistant}${r.runs.length > 1 ? ` · ${r.runs.filter((x) => x.passed).length} of ${r.runs.length} runs passed` : ''}`;
  // Wrapped, not cut: a file's path (and the assistant after it) is read here, whole, or nowhere.
  const lines: Line[] = [
    { text: r.scenario.name, bold: true },
    ...wrapText(status, Math.max(10, width)).map((text) => ({ text, color: toneColor(theme, TONE[r.status]), dim: r.status === 'skipped' })),
  ];
  if (r.variedTurns.length)
    lines.push({ text: `The reply to turn ${r.variedTurns.map((i) => i + 1).join(', ')} was not the same in every run.`, color: theme.warning });
  if (run?.error) lines.push({ text: `Could not start a session: ${run.error}`, color: theme.error });
  const indent = (text: string, color?: string, dim?: boolean) => wrapText(text, Math.max(10, width - 4)).map((l) => ({ text: `    ${l}`, color, dim }));
  const scripted = r.scenario.turns ?? [];
  // A simulated conversation goes on after the scripted turns: its lines are the caller's.
  const shown = [...scripted, ...(run?.turns.slice(scripted.length) ?? [])];
  shown.forEach((turn, i) => {
    const got = run?.turns[i];
    const simulated = i >= scripted.length;
    lines.push(
      { text: '' },
      {
        text:
          `Turn ${i + 1}` +
          (got?.latencyMs !== undefined ? ` · ${Math.round(got.latencyMs)} ms` : '') +
          (got?.cost !== undefined ? ` · ${money(got.cost)}` : ''),
        bold: true,
      },
    );
    lines.push({ text: simulated ? '  Caller (simulated)' : '  You', color: theme.accent }, ...indent(turn.user));
    const expected = expectations(turn.expect);
    if (expected.length) {
      lines.push({ text: '  Expect', dim: true });
      for (const e of expected) {
        const broken = got?.failures.some((f) => f.startsWith(e.split(' ')[0]));
        lines.push(...indent(`${broken ? '✗' : got ? '✓' : '·'} ${e}`, broken ? theme.error : got ? theme.good : undefined));
      }
      for (const f of got?.failures ?? []) lines.push(...indent(`  ${f}`, theme.error));
    }
    if (got?.error) lines.push(...indent(`request failed: ${got.error}`, theme.error));
    else if (got?.reply !== undefined) lines.push({ text: '  Reply', color: theme.good }, ...indent(got.reply));
    else lines.push({ text: '  (not sent)', dim: true });
  });
  if (run?.ended) lines.push({ text: '' }, { text: `Ended: ${run.ended}`, dim: true });
  for (const j of run?.judges ?? []) {
    const verdict = j.error ?? `score ${j.score!.toFixed(2)} (threshold ${j.threshold})${j.reason ? `: ${j.reason}` : ''}`;
    lines.push({ text: '' }, { text: `Judge ${j.passed ? '✓' : '✗'} ${j.rubric}`, bold: true, color: j.passed ? theme.good : theme.error }, ...indent(verdict));
  }
  if (r.runs.length > 1) {
    lines.push({ text: '' }, { text: `Samples: ${r.runs.filter((x) => x.passed).length} of ${r.runs.length} passed`, bold: true });
    r.runs.forEach((x, i) => {
      const scores = (x.judges ?? []).map((j) => (j.score === undefined ? 'judge error' : j.score.toFixed(2))).join(', ');
      lines.push(...indent(`${i + 1}. ${x.passed ? '✓' : '✗'}${scores ? ` scores ${scores}` : ''}`, x.passed ? theme.good : theme.error));
    });
  }
  return lines;
}

export function TestResultDetail({ route, width, height }: ScreenProps<Extract<Route, { name: 'test-result' }>>) {
  const theme = useTheme();
  const result = useConsole((s) => s.tests.results.find((r) => resultId(r) === route.id));
  const view = useTopView();
  const lines = result
    ? resultLines(theme, result, width)
    : [{ text: 'Not in the latest run (it is running again, or the file changed). Esc goes back.', dim: true }];
  useDetailKeys({
    lines: lines.length,
    height,
  });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
