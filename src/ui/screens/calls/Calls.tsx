// The call log, from the archive: a calls-per-day chart for the filters, a status line (count,
// filters, how fresh the archive is), then the table, newest first or in the order O chose. The
// store holds a window of rows around the cursor and syncs the archive in the background while the
// log is on top.
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import type { Call } from '../../../api/schemas.js';
import { Box, Text } from 'ink';
import { escapeLine } from '../../../format/escape.js';
import { useActions, useConsole, useConsoleShallow } from '../../../store/index.js';
import { CALL_SORT_COLUMNS } from '../../../store/calls.js';
import { scrollFor } from '../../../store/navigation.js';
import { markSorted } from '../../../format/table-text.js';
import { shortIdLengthOf } from '../../../format/short-id.js';
import { Table, tableBodyHeight } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useLasting } from '../../hooks/useLasting.js';
import { useKeyGap } from '../../hooks/useKeyGap.js';
import { useSelection } from '../../hooks/selection.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { useAssistantName, type ScreenProps } from '../shared.js';
import { CHART_ROWS, LIVE_MARK, callColor, callLogLayout, callColumns, callFilterWords, callStatusText, chartText, syncWords } from './log-text.js';
import { useCapabilities, useTheme } from '../../hooks/theme-context.js';

const callKey = (c: Call) => c.id;

/** Memoized: the cursor moves on every keypress, the per-day counts only when a sync lands. */
const CallsChart = memo(function CallsChart({ perDay, width, filtered }: { perDay: { day: string; count: number }[]; width: number; filtered: boolean }) {
  const theme = useTheme();
  const chart = useMemo(() => chartText(perDay, width, filtered), [perDay, width, filtered]);
  return (
    <Box flexDirection="column" height={CHART_ROWS + 1}>
      {chart.rows.map((row, i) => (
        <Text key={i} color={theme.good} wrap="truncate">
          {row || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {chart.legend}
      </Text>
    </Box>
  );
});

/** The index in the rows held of the first row on screen: the table's own clamp (Table.tsx), over those rows. */
function firstShown(log: { from: number; calls: readonly Call[] }, cursor: number, scroll: number, body: number): number {
  const stored = Math.min(Math.max(0, scroll - log.from), Math.max(0, log.calls.length - body));
  return Math.max(0, scrollFor(cursor - log.from, stored, body));
}

export function Calls({ width, height }: ScreenProps<{ name: 'calls' }>) {
  const theme = useTheme();
  const { color } = useCapabilities();
  const colorOf = useCallback((c: Call) => callColor(theme, c), [theme]);
  // Not the window of rows the store holds around the screen: a read ahead moves it in a key gap
  // (store/calls.ts), and only the rows on screen (below) decide whether this draws again.
  const log = useConsoleShallow(({ callLog: { calls: _calls, positions: _positions, from: _from, ...rest } }) => rest);
  const sync = useConsoleShallow((s) => ({ ...s.archiveSync }));
  // The live refresh's sync takes a moment every few seconds: "syncing…" only for one that lasts.
  const slowSync = useLasting(sync.running);
  const numbers = useConsole((s) => s.numbers.data);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  // "synced 40 s ago" moves on while nothing else changes (in a key gap: useKeyGap.ts).
  const [now, setNow] = useState(() => Date.now());
  const inKeyGap = useKeyGap();
  useEffect(() => {
    const t = setInterval(() => inKeyGap(() => setNow(Date.now())), 10_000);
    t.unref?.();
    return () => clearInterval(t);
  }, [inKeyGap]);
  // Kept until the names they look up change: the table then keeps each row's formatted line, so
  // a keypress formats no cells.
  // The header shows the order the rows are in: the archive's, or the `/` matches' (sorted as the walk finds them).
  const sort = view.sort;
  // The sorted column is kept however narrow the window (cost is otherwise the first to go).
  const columns = useMemo(
    () =>
      markSorted(
        callColumns(assistantName, numbers, color).map((col) => (col.header === sort?.column ? { ...col, priority: 1 } : col)),
        sort,
      ),
    [assistantName, numbers, color, sort],
  );
  const { chart: showChart, tableHeight } = callLogLayout(height);
  // The store holds rows `from`…`from + calls.length - 1` of `total`, around the cursor.
  const cursor = Math.min(view.cursor, Math.max(0, log.total - 1));
  // The rows on screen, where the table puts them (its own clamp, over the rows held), kept as the
  // same array while they are the same calls.
  const body = tableBodyHeight(tableHeight);
  const shown = useConsoleShallow(({ callLog: l }) => {
    const top = firstShown(l, cursor, view.scroll, body);
    return l.calls.slice(top, top + body);
  });
  const shownFrom = useConsole(({ callLog: l }) => l.from + firstShown(l, cursor, view.scroll, body));
  const selected = shown[cursor - shownFrom];
  // Short ids unique among every row held, which the palette's `:calls <id>` looks in first.
  const idLength = useConsole(({ callLog: l }) => shortIdLengthOf(l.calls));
  const empty = log.total === 0;
  // The first screen of an archive that holds nothing yet: keys wait for the first page.
  const loading = log.status === 'idle' || (empty && sync.running && !log.filtering && !view.filter);
  // Not known while the rows held are not the cursor's yet (a `/` scan still walking to it): keys then wait, not "no call here".
  useSelection(loading || (!selected && !empty) ? undefined : { row: selected });

  useListKeys({
    empty: 'no call here',
    count: log.total,
    height: tableHeight,
    loading,
    bindings: {
      [Command.Refresh]: () => void actions.loadCalls({ force: true }),
      [Command.Sort]: () => actions.cycleSort(CALL_SORT_COLUMNS),
      [Command.Open]: () => void (selected && actions.push({ name: 'call', id: selected.id })),
      [Command.RawJson]: () => void (selected && actions.showCallJson(selected.id)),
    },
  });

  const filters = callFilterWords(log.form, assistantName, numbers);
  const status = (
    <Text dimColor wrap="truncate">
      {log.live ? <Text color={theme.good}>{LIVE_MARK.live}</Text> : <Text color={theme.warning}>{LIVE_MARK.paused}</Text>}
      {callStatusText({
        filters,
        total: log.total,
        cursor,
        complete: sync.complete,
        filtering: log.filtering,
        sync: syncWords({ ...sync, running: slowSync }, now),
      })}
      {log.error ? <Text color={theme.error}>{`  ${escapeLine(log.error)}`}</Text> : ''}
    </Text>
  );
  if (log.status === 'idle') return <Loading what="the call log" />;
  if (log.status === 'error') return <ErrorState what="the call archive" message={log.error} hint={log.hint} logged={log.logged} />;
  if (empty && sync.running && !view.filter) return <Loading what={`the call log (${syncWords(sync, now)})`} />;
  // Nothing archived and the service refused: the error, not an empty log.
  if (empty && sync.error && !view.filter && !filters) return <ErrorState what="the call log" message={sync.error} hint={sync.hint} />;
  return (
    <Box flexDirection="column" height={height}>
      {showChart && <CallsChart perDay={log.perDay} width={width} filtered={!!filters || !!view.filter} />}
      {status}
      {empty ? (
        <Empty text={log.filtering ? 'Filtering…' : view.filter || filters ? 'No calls match these filters.' : 'No calls yet. Press o to place one.'} />
      ) : (
        <Table
          columns={columns}
          rows={shown}
          cursor={cursor - shownFrom}
          scroll={0}
          height={tableHeight}
          width={width}
          rowKey={callKey}
          colorOf={colorOf}
          fitToView
          idLength={idLength}
        />
      )}
    </Box>
  );
}
