// The call log's text as plain functions (no Ink): the calls-per-day chart, its legend, the status
// line and the table's columns, shared by the Calls screen and the frame drawn before Ink has
// loaded (src/ui/start.ts), which shows the archive's first rows when the console opens on the log.
import type { Call, PhoneNumber } from '../../../api/schemas.js';
import { callCost, callDuration, numberDid, shown } from '../../../api/records.js';
import type { StatGroup } from '../../../store/archive.js';
import type { CallFilterForm } from '../../../store/calls.js';
import { ago } from '../../../store/cached.js';
import type { Column } from '../../../format/column.js';
import { count, grouped } from '../../../format/words.js';
import type { Palette } from '../../theme.js';
import { dateTime, duration, moneyColumn, truncate } from '../../../format/display.js';

const BARS = '▁▂▃▄▅▆▇█';
export const CHART_ROWS = 3;

/**
 * The call log's rows in a body `height` rows tall: the chart and its legend, the status line,
 * then the table (its header and at least two rows). Too short for all of it, the chart goes
 * first: the table's header is never the row that is cut.
 */
export function callLogLayout(height: number): { chart: boolean; tableHeight: number } {
  const chart = height >= CHART_ROWS + 1 + 1 + 3;
  return { chart, tableHeight: Math.max(3, height - 1 - (chart ? CHART_ROWS + 1 : 0)) };
}

/** The bar chart's text rows, top first: one column per day, eighth-block resolution. */
export function chartRows(counts: number[], rows = CHART_ROWS): string[] {
  const max = Math.max(1, ...counts);
  const heights = counts.map((n) => (n === 0 ? 0 : Math.max(1, Math.round((n / max) * rows * 8))));
  return Array.from({ length: rows }, (_, i) => {
    const base = (rows - 1 - i) * 8;
    return heights
      .map((h) => {
        const fill = Math.max(0, Math.min(8, h - base));
        return (fill === 0 ? ' ' : BARS[fill - 1]) + ' ';
      })
      .join('');
  });
}

/** Every day from the first to the last with a zero row for days without calls, so the chart's rows are evenly spaced days. */
export function everyDay(days: StatGroup[]): StatGroup[] {
  const sorted = [...days].filter((d) => /^\d{4}-\d\d-\d\d$/.test(d.key)).sort((a, b) => (a.key < b.key ? -1 : 1));
  if (sorted.length === 0) return [];
  const byKey = new Map(sorted.map((d) => [d.key, d]));
  const out: StatGroup[] = [];
  const last = sorted[sorted.length - 1].key;
  for (let t = Date.parse(`${sorted[0].key}T00:00:00Z`); out.length <= 3660; t += 86_400_000) {
    const key = new Date(t).toISOString().slice(0, 10);
    out.push(byKey.get(key) ?? { key, calls: 0, minutes: 0, cost: 0 });
    if (key >= last) break;
  }
  return out;
}

/** The chart for the last days that fit `width` (two cells a day): its bar rows and its legend. */
export function chartText(perDay: { day: string; count: number }[], width: number, filtered = false): { rows: string[]; legend: string } {
  const days = everyDay(perDay.map((d) => ({ key: d.day, calls: d.count, minutes: 0, cost: 0 }))).slice(-Math.max(1, Math.floor((width - 2) / 2)));
  const max = Math.max(0, ...days.map((d) => d.calls));
  return {
    rows: chartRows(days.map((d) => d.calls)),
    legend: days.length
      ? truncate(`calls/day ${days[0].key} → ${days[days.length - 1].key} · busiest day ${max} · S: stats`, width)
      : filtered
        ? 'calls/day: no calls match the filters'
        : 'calls/day: no calls in the archive yet',
  };
}

/** The call log's filters in words ("assistant Support, from 7d"), for the status lines. */
export function callFilterWords(f: CallFilterForm, assistantName: (id: string) => string, numbers: PhoneNumber[] | undefined): string {
  return [
    f.assistantId && `assistant ${assistantName(f.assistantId)}`,
    f.phoneNumberId && `number ${numberDid(numbers?.find((n) => n.id === f.phoneNumberId)) ?? f.phoneNumberId}`,
    f.from && `from ${f.from}`,
    f.to && `to ${f.to}`,
    f.id && `id ${f.id}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** "synced 40 s ago", "syncing… (synced 3 min ago)": how fresh the archive is. */
export function syncWords(sync: { running: boolean; lastAt?: number; error?: string; phase?: string; complete: boolean }, now = Date.now()): string {
  const last = sync.lastAt ? `synced ${ago(now - sync.lastAt)}` : 'never synced';
  if (sync.running) return `${sync.phase === 'backfill' ? 'fetching older calls' : 'syncing'}… (${last})`;
  if (sync.error) return `sync failed: ${sync.error} (${last})`;
  return last;
}

/** The status line after its live mark: filters, how many calls (+ while the history is still coming), how fresh. */
export function callStatusText(o: { filters: string; total: number; cursor: number; complete: boolean; filtering: boolean; sync: string }): string {
  const place = o.total > 0 ? ` · ${Math.min(o.cursor, o.total - 1) + 1}/${grouped(o.total)}` : '';
  return (
    `  ${o.filters ? 'filters: ' + o.filters : 'no filters (f)'} ` +
    ` ${count(o.total, 'call')}${o.complete || o.filtering ? '' : '+'}${place}${o.filtering ? ' · filtering…' : ''}  ${o.sync}`
  );
}

export const LIVE_MARK = { live: '● live', paused: '❚❚ paused' } as const;

/** Where a call is, as its row shows it: waiting (queued, ringing), live, ended, or failed (never answered, or an error). */
type CallState = 'waiting' | 'live' | 'ended' | 'failed';

function callState(c: Pick<Call, 'status' | 'endedReason'>): CallState | undefined {
  if (c.status === 'queued' || c.status === 'ringing') return 'waiting';
  if (c.status === 'in-progress') return 'live';
  if (c.status === 'failed' || (c.status === 'ended' && /did-not-answer|busy|error|fail/i.test(c.endedReason ?? ''))) return 'failed';
  return c.status === 'ended' ? 'ended' : undefined;
}

/** Each state's colour (its name in the theme), and its glyph where colour is off (ASCII through the glyph table). */
const CALL_STATE_LOOK: Record<CallState, { color?: 'warning' | 'good' | 'error'; glyph: string }> = {
  waiting: { color: 'warning', glyph: '○' },
  live: { color: 'good', glyph: '●' },
  ended: { glyph: '✓' },
  failed: { color: 'error', glyph: '✗' },
};

/** A call row's colour by its state, in the palette's colours. */
export function callColor(theme: Palette, c: Call): string | undefined {
  const s = callState(c);
  const name = s && CALL_STATE_LOOK[s].color;
  return name && theme[name];
}

/** The STATUS cell: without colour, the state's glyph first, so the states still stand apart. */
function statusCell(c: Call, color: boolean): string {
  const s = callState(c);
  return color || !s ? (c.status ?? '—') : `${CALL_STATE_LOOK[s].glyph} ${c.status ?? '—'}`;
}

/** The call log's columns; names of assistants and numbers come from the lists the console holds. */
export function callColumns(assistantName: (id: string | null | undefined) => string, numbers: PhoneNumber[] | undefined, color: boolean): Column<Call>[] {
  return [
    { header: 'CREATED', width: 16, priority: 1, value: (c) => dateTime(c.createdAt), sortBy: (c) => Date.parse(c.createdAt) },
    { header: 'ID', width: 8, priority: 5, grow: true, id: true, value: (c) => c.id },
    { header: 'TYPE', width: 8, priority: 6, value: (c) => (shown(c.type) ?? '—').replace(/PhoneCall$/, '') },
    { header: 'STATUS', width: 11, priority: 1, value: (c) => statusCell(c, color), sortBy: (c) => c.status },
    { header: 'ASSISTANT', width: 12, priority: 2, grow: true, value: (c) => assistantName(c.assistantId) },
    { header: 'NUMBER', width: 13, priority: 7, value: (c) => numberDid(numbers?.find((n) => n.id === c.phoneNumberId)) ?? c.phoneNumberId ?? '—' },
    { header: 'CUSTOMER', width: 13, priority: 3, value: (c) => c.customer?.number ?? '—' },
    { header: 'NAME', width: 10, priority: 8, grow: true, hideWhenSame: true, value: (c) => c.customer?.name ?? '' },
    { header: 'DUR', width: 6, priority: 4, align: 'right', value: (c) => duration(callDuration(c)), sortBy: (c) => callDuration(c) },
    {
      header: 'COST',
      width: 7,
      priority: 9,
      align: 'right',
      value: (c) => (callCost(c) === undefined && c.cost != null ? (shown(c.cost) ?? '') : moneyColumn(callCost(c))),
      sortBy: (c) => callCost(c),
    },
  ];
}
