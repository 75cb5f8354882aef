// The call log: a calls-per-day chart over the loaded range, then the table, newest first.
// Older pages load as the cursor nears the end; the store refreshes it live while it is on top.
import { memo, useEffect, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { Call } from '../../../api/schemas.js';
import { useActions, useConsole, useConsoleShallow } from '../../../store/index.js';
import type { Column } from '../../../format/column.js';
import { Table } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { useAnchoredCursor } from '../../hooks/useAnchoredCursor.js';
import { Command } from '../../keymap.js';
import { dateTime, duration, money, truncate } from '../../format.js';
import { filterRows, type ScreenProps } from '../shared.js';
import { useAssistantName } from '../numbers/Numbers.js';

const BARS = '▁▂▃▄▅▆▇█';
const callKey = (c: Call) => c.id;

/** A UTC timestamp as the service writes it (`2026-11-01T10:00:00.000Z`): its hour prefix is a bucket key. */
const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:.*Z$/;
const DAY = /^\d{4}-\d\d-\d\d$/;

/**
 * Calls per local day, oldest day first, every day in the range present (zeros included).
 * Runs whenever a page arrives on logs of 100k calls, so it counts by the UTC hour prefix of
 * createdAt (a string slice) and formats only one date per distinct hour, not one per call
 * (in a zone with a half-hour offset, a day boundary falls mid-bucket and that hour counts whole).
 */
export function callsPerDay(calls: Pick<Call, 'createdAt'>[]): { day: string; count: number }[] {
  const perHour = new Map<string, number>();
  // The log is sorted, so neighbours mostly share an hour: count runs, touch the map once per run.
  let run = '';
  let n = 0;
  for (const c of calls) {
    const at = c.createdAt;
    if (n > 0 && (run.length === 13 ? at.startsWith(run) && at.endsWith('Z') : at === run)) {
      n++;
      continue;
    }
    if (n > 0) perHour.set(run, (perHour.get(run) ?? 0) + n);
    run = UTC_ISO.test(at) ? at.slice(0, 13) : at;
    n = 1;
  }
  if (n > 0) perHour.set(run, (perHour.get(run) ?? 0) + n);
  const counts = new Map<string, number>();
  for (const [hour, k] of perHour) {
    const d = dateTime(hour.length === 13 ? `${hour}:00:00Z` : hour).slice(0, 10);
    if (!DAY.test(d)) continue; // no readable createdAt: no day to chart it on
    counts.set(d, (counts.get(d) ?? 0) + k);
  }
  const days = [...counts.keys()].sort();
  if (days.length === 0) return [];
  const out: { day: string; count: number }[] = [];
  for (let d = new Date(`${days[0]}T12:00:00`); ; d.setDate(d.getDate() + 1)) {
    const key = dateTime(d.toISOString()).slice(0, 10);
    out.push({ day: key, count: counts.get(key) ?? 0 });
    if (key >= days[days.length - 1] || out.length > 400) break;
  }
  return out;
}

const CHART_ROWS = 3;

/** The bar chart's text rows, top first: one column per day, eighth-block resolution. Exported for tests. */
export function chartRows(counts: number[], rows = CHART_ROWS): string[] {
  const max = Math.max(1, ...counts);
  const heights = counts.map((n) => (n === 0 ? 0 : Math.max(1, Math.round((n / max) * rows * 8))));
  return Array.from({ length: rows }, (_, i) => {
    const base = (rows - 1 - i) * 8;
    return heights.map((h) => {
      const fill = Math.max(0, Math.min(8, h - base));
      return (fill === 0 ? ' ' : BARS[fill - 1]) + ' ';
    }).join('');
  });
}

/** Memoized: the cursor moves on every keypress, the loaded calls only when a page arrives. */
export const CallsChart = memo(function CallsChart({ calls, width }: { calls: Call[]; width: number }) {
  const perDay = useMemo(() => callsPerDay(calls), [calls]);
  const days = perDay.slice(-Math.max(1, Math.floor((width - 2) / 2)));
  const max = Math.max(0, ...days.map((d) => d.count));
  return (
    <Box flexDirection="column" height={CHART_ROWS + 1}>
      {chartRows(days.map((d) => d.count)).map((row, i) => (
        <Text key={i} color="green" wrap="truncate">
          {row || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {days.length ? truncate(`calls/day ${days[0].day} → ${days[days.length - 1].day} · busiest day ${max} · ${calls.length} calls loaded`, width) : 'calls/day: no calls loaded'}
      </Text>
    </Box>
  );
});

export function Calls({ width, height }: ScreenProps<{ name: 'calls' }>) {
  const log = useConsoleShallow((s) => ({ ...s.callLog }));
  const numbers = useConsole((s) => s.numbers.data);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  // Kept until the names they look up change: the table then keeps each row's formatted line, so
  // a keypress formats no cells, and the filter runs over the log only when it or the log changes.
  const columns = useMemo<Column<Call>[]>(
    () => [
      { header: 'CREATED', width: 16, priority: 1, value: (c) => dateTime(c.createdAt) },
      { header: 'TYPE', width: 8, priority: 5, value: (c) => (c.type ?? '—').replace(/PhoneCall$/, '') },
      { header: 'STATUS', width: 11, priority: 1, value: (c) => c.status ?? '—' },
      { header: 'ASSISTANT', width: 12, priority: 2, grow: true, value: (c) => assistantName(c.assistantId) },
      { header: 'NUMBER', width: 13, priority: 6, value: (c) => numbers?.find((n) => n.id === c.phoneNumberId)?.did ?? c.phoneNumberId ?? '—' },
      { header: 'CUSTOMER', width: 13, priority: 3, value: (c) => c.customer?.number ?? '—' },
      { header: 'NAME', width: 10, priority: 7, grow: true, value: (c) => c.customer?.name ?? '' },
      { header: 'DUR', width: 6, priority: 4, align: 'right', value: (c) => duration(c.durationSeconds) },
      { header: 'COST', width: 7, priority: 8, align: 'right', value: (c) => money(c.cost) },
    ],
    [assistantName, numbers],
  );
  const rows = useMemo(() => filterRows(log.calls, columns, view.filter), [log.calls, columns, view.filter]);
  const tableHeight = Math.max(3, height - CHART_ROWS - 2);
  // The cursor stays on its call when a refresh adds calls above it.
  const { cursor, scroll, anchor } = useAnchoredCursor(rows, callKey, tableHeight);
  const selected = rows[cursor];

  // Near the end of what is loaded: fetch the next older page (the store ignores repeats).
  useEffect(() => {
    if (log.status === 'ready' && !log.exhausted && rows.length - cursor <= 5) void actions.loadMoreCalls();
  }, [cursor, rows.length, log.status, log.exhausted, actions]);

  useListKeys({
    contexts: ['list', 'calls'],
    count: rows.length,
    height: tableHeight,
    anchor,
    loading: log.status === 'idle' || (log.status === 'loading' && log.calls.length === 0),
    onCommand(cmd) {
      if (cmd === Command.Refresh) return void actions.loadCalls({ force: true }), true;
      if (cmd === Command.CallFilters) return actions.push({ name: 'call-filters' }), true;
      if (cmd === Command.ToggleLive) return actions.toggleLive(), true;
      if (cmd === Command.Outbound) return actions.push({ name: 'call-outbound' }), true;
      if (!selected) return false;
      if (cmd === Command.Open) return actions.push({ name: 'call', id: selected.id }), true;
      if (cmd === Command.RawJson) return void actions.showCallJson(selected.id), true;
      return false;
    },
  });

  const f = log.form;
  const filters = [f.assistantId && `assistant ${assistantName(f.assistantId)}`, f.phoneNumberId && `number ${numbers?.find((n) => n.id === f.phoneNumberId)?.did ?? f.phoneNumberId}`, f.from && `from ${f.from}`, f.to && `to ${f.to}`, f.id && `id ${f.id}`].filter(Boolean);
  const status = (
    <Text dimColor wrap="truncate">
      {log.live ? <Text color="green">● live</Text> : <Text color="yellow">❚❚ paused</Text>}
      {`  ${filters.length ? 'filters: ' + filters.join(', ') : 'no filters (f)'}  ${rows.length} calls${log.exhausted ? '' : '+'}`}
      {log.loadingMore ? ' · loading older…' : ''}
      {log.error && log.status === 'ready' ? <Text color="red">{`  refresh failed: ${log.error}`}</Text> : ''}
    </Text>
  );
  if (log.status === 'idle' || (log.status === 'loading' && log.calls.length === 0)) return <Loading what="the call log" />;
  if (log.status === 'error') return <ErrorState what="the call log" message={log.error} hint={log.hint} />;
  return (
    <Box flexDirection="column" height={height}>
      <CallsChart calls={log.calls} width={width} />
      {status}
      {rows.length === 0 ? (
        <Empty text={view.filter || filters.length ? 'No calls match these filters.' : 'No calls yet. Press o to place one.'} />
      ) : (
        <Table columns={columns} rows={rows} cursor={cursor} scroll={scroll} height={tableHeight} width={width} rowKey={callKey} />
      )}
    </Box>
  );
}
