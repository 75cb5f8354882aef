// The call log, from the archive: a calls-per-day chart for the filters, a status line (count,
// filters, how fresh the archive is), then the table, newest first. The store holds a window of
// rows around the cursor and syncs the archive in the background while the log is on top.
import { memo, useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import type { Call, PhoneNumber } from '../../../api/schemas.js';
import type { CallFilterForm } from '../../../store/calls.js';
import { ago } from '../../../store/cached.js';
import { escapeLine } from '../../../format/escape.js';
import { useActions, useConsole, useConsoleShallow } from '../../../store/index.js';
import type { Column } from '../../../format/column.js';
import { Table } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { dateTime, duration, money, truncate } from '../../format.js';
import { count } from '../../../format/words.js';
import type { ScreenProps } from '../shared.js';
import { useAssistantName } from '../numbers/Numbers.js';
import { everyDay } from './CallStats.js';

const BARS = '▁▂▃▄▅▆▇█';
const callKey = (c: Call) => c.id;

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

/** Memoized: the cursor moves on every keypress, the per-day counts only when a sync lands. */
export const CallsChart = memo(function CallsChart({ perDay, width }: { perDay: { day: string; count: number }[]; width: number }) {
  const days = useMemo(() => everyDay(perDay.map((d) => ({ key: d.day, calls: d.count, minutes: 0, cost: 0 }))), [perDay]).slice(-Math.max(1, Math.floor((width - 2) / 2)));
  const max = Math.max(0, ...days.map((d) => d.calls));
  return (
    <Box flexDirection="column" height={CHART_ROWS + 1}>
      {chartRows(days.map((d) => d.calls)).map((row, i) => (
        <Text key={i} color="green" wrap="truncate">
          {row || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {days.length ? truncate(`calls/day ${days[0].key} → ${days[days.length - 1].key} · busiest day ${max} · S: stats`, width) : 'calls/day: no calls in the archive yet'}
      </Text>
    </Box>
  );
});

/** The call log's filters in words ("assistant Support, from 7d"), for the status lines. */
export function callFilterWords(f: CallFilterForm, assistantName: (id: string) => string, numbers: PhoneNumber[] | undefined): string {
  return [
    f.assistantId && `assistant ${assistantName(f.assistantId)}`,
    f.phoneNumberId && `number ${numbers?.find((n) => n.id === f.phoneNumberId)?.did ?? f.phoneNumberId}`,
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

export function Calls({ width, height }: ScreenProps<{ name: 'calls' }>) {
  const log = useConsoleShallow((s) => ({ ...s.callLog }));
  const sync = useConsoleShallow((s) => ({ ...s.archiveSync }));
  const numbers = useConsole((s) => s.numbers.data);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  // "synced 40 s ago" moves on while nothing else changes.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 10_000);
    t.unref?.();
    return () => clearInterval(t);
  }, []);
  // Kept until the names they look up change: the table then keeps each row's formatted line, so
  // a keypress formats no cells.
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
  const tableHeight = Math.max(3, height - CHART_ROWS - 2);
  // The store holds rows `from`…`from + calls.length - 1` of `total`, around the cursor.
  const cursor = Math.min(view.cursor, Math.max(0, log.total - 1));
  const selected = log.calls[cursor - log.from];
  const empty = log.total === 0;

  useListKeys({
    contexts: ['list', 'calls'],
    count: log.total,
    height: tableHeight,
    // The first screen of an archive that holds nothing yet: keys wait for the first page.
    loading: log.status === 'idle' || (empty && sync.running && !log.filtering && !view.filter),
    onCommand(cmd) {
      if (cmd === Command.Refresh) return void actions.loadCalls({ force: true }), true;
      if (cmd === Command.CallFilters) return actions.push({ name: 'call-filters' }), true;
      if (cmd === Command.ToggleLive) return actions.toggleLive(), true;
      if (cmd === Command.Outbound) return actions.push({ name: 'call-outbound' }), true;
      if (cmd === Command.Search) return actions.openPalette('search '), true;
      if (cmd === Command.Stats) return actions.push({ name: 'call-stats' }), true;
      if (!selected) return false;
      if (cmd === Command.Open) return actions.push({ name: 'call', id: selected.id }), true;
      if (cmd === Command.RawJson) return void actions.showCallJson(selected.id), true;
      if (cmd === Command.OpenAssistant) return openAssistantOf(selected, actions), true;
      return false;
    },
  });

  const filters = callFilterWords(log.form, assistantName, numbers);
  const status = (
    <Text dimColor wrap="truncate">
      {log.live ? <Text color="green">● live</Text> : <Text color="yellow">❚❚ paused</Text>}
      {`  ${filters ? 'filters: ' + filters : 'no filters (f)'}  ${count(log.total, 'call')}${sync.complete || log.filtering ? '' : '+'}`}
      {log.filtering ? ' · filtering…' : ''}
      {`  ${syncWords(sync, now)}`}
      {log.error ? <Text color="red">{`  ${escapeLine(log.error)}`}</Text> : ''}
    </Text>
  );
  if (log.status === 'idle') return <Loading what="the call log" />;
  if (log.status === 'error') return <ErrorState what="the call archive" message={log.error} hint={log.hint} logged={log.logged} />;
  if (empty && sync.running && !view.filter) return <Loading what={`the call log (${syncWords(sync, now)})`} />;
  // Nothing archived and the service refused: the error, not an empty log.
  if (empty && sync.error && !view.filter && !filters) return <ErrorState what="the call log" message={sync.error} hint={sync.hint} />;
  return (
    <Box flexDirection="column" height={height}>
      <CallsChart perDay={log.perDay} width={width} />
      {status}
      {empty ? (
        <Empty text={log.filtering ? 'Filtering…' : view.filter || filters ? 'No calls match these filters.' : 'No calls yet. Press o to place one.'} />
      ) : (
        <Table columns={columns} rows={log.calls} cursor={cursor - log.from} scroll={Math.max(0, view.scroll - log.from)} height={tableHeight} width={width} rowKey={callKey} />
      )}
    </Box>
  );
}

/** `a` on a call: its assistant's page (a call placed without one says so). */
export function openAssistantOf(call: Pick<Call, 'assistantId'>, actions: { push(r: { name: 'assistant'; id: string }): void; flash(text: string, kind?: 'info' | 'error'): void }) {
  if (call.assistantId) actions.push({ name: 'assistant', id: call.assistantId });
  else actions.flash('This call has no assistant', 'error');
}
