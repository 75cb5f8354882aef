// The stats view: calls, minutes and cost per day as a bar chart with a labelled line per day,
// then per assistant as a table, for the call log's active filters, from the archive (the store
// asks it; this screen only lays the numbers out). `m` switches what the bars measure.
import { useMemo, useState } from 'react';
import { useActions, useConsole, useConsoleShallow } from '../../../store/index.js';
import type { StatGroup } from '../../../store/archive.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { ErrorState, Loading } from '../../components/Status.js';
import { useSelection } from '../../hooks/selection.js';
import type { StatsSelection } from './spec.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { moneyColumn, truncate } from '../../../format/display.js';
import { padCells } from '../../../format/cells.js';
import { useAssistantName, type ScreenProps } from '../shared.js';
import { callFilterWords, everyDay } from './log-text.js';
import { grouped } from '../../../format/words.js';
import { useTheme } from '../../hooks/theme-context.js';
import type { Palette } from '../../theme.js';

export type Metric = 'calls' | 'minutes' | 'cost';
const METRICS: Metric[] = ['calls', 'minutes', 'cost'];
const EIGHTHS = ' ▏▎▍▌▋▊▉';

/** A bar of `value / max` of `width` cells, at eighth-cell resolution; any value above zero shows. Exported for tests. */
export function bar(value: number, max: number, width: number): string {
  if (value <= 0 || max <= 0 || width <= 0) return ''.padEnd(Math.max(0, width));
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  const full = Math.floor(eighths / 8);
  const part = eighths % 8;
  return ('█'.repeat(full) + (part ? EIGHTHS[part] : '')).padEnd(width);
}

const minutes = (g: Pick<StatGroup, 'minutes'>) => `${g.minutes.toFixed(1)} min`;
const figure = (g: StatGroup, m: Metric) => (m === 'calls' ? g.calls : m === 'minutes' ? g.minutes : g.cost);
const numbers = (g: StatGroup) => `${grouped(g.calls).padStart(9)} calls ${minutes(g).padStart(12)} ${moneyColumn(g.cost).padStart(10)}`;
/** The per-assistant table's figures, each right under its header (ASSISTANT_FIGURES). */
const figures = (g: StatGroup) => `${grouped(g.calls).padStart(9)}  ${g.minutes.toFixed(1).padStart(10)}  ${moneyColumn(g.cost).padStart(10)}`;
const ASSISTANT_FIGURES = `${'CALLS'.padStart(9)}  ${'MINUTES'.padStart(10)}  ${'COST'.padStart(10)}`;
const LATENCY_FIGURES = `${'P50 TURN'.padStart(9)}  ${'P95 TURN'.padStart(9)}`;
/** A group's turn latency percentiles under LATENCY_FIGURES; blank where its records carry none. */
const latencyFigures = (g: StatGroup) =>
  g.latency ? `${`${Math.round(g.latency.p50)}`.padStart(9)}  ${`${Math.round(g.latency.p95)}`.padStart(9)}` : `${'—'.padStart(9)}  ${'—'.padStart(9)}`;

/** The view's lines: the chart (one labelled line per day), the total, and the table per assistant. Exported for tests. */
export function statsLines(
  theme: Palette,
  stats: { byDay: StatGroup[]; byAssistant: StatGroup[]; total: StatGroup },
  metric: Metric,
  width: number,
  assistantName: (id: string) => string,
  filters: string,
): Line[] {
  const lines: Line[] = [];
  const days = everyDay(stats.byDay);
  const label = (d: string) => `${d} ${new Date(`${d}T12:00:00Z`).toUTCString().slice(0, 3)}`;
  const numbersWidth = 9 + 7 + 12 + 1 + 10 + 1;
  const barWidth = Math.max(4, width - 15 - numbersWidth - 2);
  const max = Math.max(0, ...days.map((d) => figure(d, metric)));
  const others = METRICS.filter((m) => m !== metric).join(' / ');
  lines.push({
    text: `${metric === 'calls' ? 'Calls' : metric === 'minutes' ? 'Minutes' : 'Cost'} per day · m: ${others} · ${filters}`,
    bold: true,
    color: theme.accent,
  });
  if (days.length === 0) lines.push({ text: '  no calls', dim: true });
  for (const d of days)
    lines.push({ text: `${label(d.key)}  ${bar(figure(d, metric), max, barWidth)} ${numbers(d)}`, color: d.calls ? undefined : theme.muted });
  lines.push({ text: `${padCells('total', 14)}  ${''.padEnd(barWidth)} ${numbers(stats.total)}`, bold: true });
  // Where the records carry the platform's performance metrics: the turn latency, per day and per assistant.
  const latency = stats.total.latency !== undefined;
  if (latency) {
    lines.push({ text: '' }, { text: 'Turn latency per day (ms)', bold: true, color: theme.accent });
    lines.push({ text: `${''.padEnd(14)}  ${LATENCY_FIGURES}`, bold: true });
    for (const d of days) if (d.latency) lines.push({ text: `${label(d.key)}  ${latencyFigures(d)}` });
    lines.push({ text: `${padCells('total', 14)}  ${latencyFigures(stats.total)}`, bold: true });
  }
  lines.push({ text: '' }, { text: 'Per assistant', bold: true, color: theme.accent });
  const header = latency ? `${ASSISTANT_FIGURES}  ${LATENCY_FIGURES}` : ASSISTANT_FIGURES;
  const nameWidth = Math.max(10, width - header.length - 2);
  lines.push({ text: `${padCells('ASSISTANT', nameWidth)}  ${header}`, bold: true });
  const rows = [...stats.byAssistant].sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1));
  for (const g of rows) {
    const name = padCells(truncate(g.key ? assistantName(g.key) : '(no assistant)', nameWidth), nameWidth);
    lines.push({ text: `${name}  ${figures(g)}${latency ? `  ${latencyFigures(g)}` : ''}` });
  }
  if (rows.length === 0) lines.push({ text: '  no calls', dim: true });
  return lines;
}

export function CallStats({ width, height }: ScreenProps<{ name: 'call-stats' }>) {
  const theme = useTheme();
  const stats = useConsole((s) => s.callStats);
  const { form } = useConsoleShallow((s) => ({ form: s.callLog.form }));
  const numbersList = useConsole((s) => s.numbers.data);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  const [metric, setMetric] = useState<Metric>('calls');
  const filters = callFilterWords(form, assistantName, numbersList);
  const lines = useMemo(
    () => (stats.data ? statsLines(theme, stats.data, metric, width, assistantName, filters ? `filters: ${filters}` : 'all calls') : []),
    [theme, stats.data, metric, width, assistantName, filters],
  );
  // The spec's m / Tab switches the chart this screen holds.
  useSelection<StatsSelection>({ nextMetric: () => setMetric((m) => METRICS[(METRICS.indexOf(m) + 1) % METRICS.length]) });
  useDetailKeys({
    lines: lines.length,
    height,
    bindings: { [Command.Refresh]: () => void actions.loadCallStats({ force: true }) },
  });
  if (!stats.data && stats.status === 'error') return <ErrorState what="the stats" message={stats.error} hint={stats.hint} />;
  if (!stats.data) return <Loading what="the stats" />;
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
