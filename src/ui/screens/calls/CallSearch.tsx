// Full-text search over the archive (`s` on the call log, or `:search <text>`): matching calls,
// newest first (or as O sorts the hits loaded; `/` filters them), each with a one-line snippet
// around the match, the match highlighted. Enter opens the call scrolled to the match. Service
// text is escaped part by part and cut in terminal cells.
import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { SnippetPart } from '../../../store/archive.js';
import { useActions, useConsole } from '../../../store/index.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useSelection } from '../../hooks/selection.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { truncate } from '../../../format/display.js';
import { fitColumns, headerLine, markSorted, rowLine, sortRows } from '../../../format/table-text.js';
import { CALL_SORT_COLUMNS } from '../../../store/calls.js';
import { callColumns, callFilterWords } from './log-text.js';
import { placeWords } from '../lists.js';
import { escapeLine } from '../../../format/escape.js';
import { cellWidth, truncateCells } from '../../../format/cells.js';
import { filterRows, useAssistantName, type ScreenProps } from '../shared.js';
import { useCapabilities, useTheme } from '../../hooks/theme-context.js';

/**
 * A snippet's parts escaped (each part on its own, so a highlight can never be forged by what the
 * text holds) and cut to `width` cells, ending in … when cut. Exported for tests.
 */
export function fitSnippet(parts: SnippetPart[], width: number): SnippetPart[] {
  const out: SnippetPart[] = [];
  let left = Math.max(0, width);
  for (const p of parts) {
    if (left <= 0) break;
    const text = escapeLine(p.text);
    const w = cellWidth(text);
    if (w <= left) {
      out.push({ text, hit: p.hit });
      left -= w;
    } else {
      out.push({ text: truncateCells(text, left), hit: p.hit });
      left = 0;
    }
  }
  return out;
}

const Hit = memo(function Hit({ head, parts, selected, width }: { head: string; parts: SnippetPart[]; selected: boolean; width: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width}>
      <Text inverse={selected} wrap="truncate">
        {head}
      </Text>
      <Text wrap="truncate">
        {'    '}
        {fitSnippet(parts, width - 4).map((p, i) =>
          p.hit ? (
            <Text key={i} color={theme.warning} bold inverse>
              {p.text}
            </Text>
          ) : (
            <Text key={i} dimColor>
              {p.text}
            </Text>
          ),
        )}
      </Text>
    </Box>
  );
});

export function CallSearch({ route, width, height }: ScreenProps<{ name: 'call-search'; text: string }>) {
  const theme = useTheme();
  const res = useConsole((s) => s.searches[route.text]);
  const numbers = useConsole((s) => s.numbers.data);
  const form = useConsole((s) => s.callLog.form);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  const found = res?.hits;
  // The hits' calls in the call log's columns, fitted to these calls; a header line above them.
  const { color } = useCapabilities();
  const columns = useMemo(() => callColumns(assistantName, numbers, color), [assistantName, numbers, color]);
  // The hits loaded, filtered (`/`) and sorted (O) by their calls' columns.
  const hits = useMemo(() => {
    const all = found ?? [];
    const byId = new Map(all.map((h) => [h.call.id, h]));
    const calls = sortRows(
      filterRows(
        all.map((h) => h.call),
        columns,
        view.filter,
      ),
      columns,
      view.sort,
    );
    return calls.length === all.length && !view.sort ? all : calls.map((c) => byId.get(c.id)!);
  }, [found, columns, view.filter, view.sort]);
  const cols = useMemo(
    () =>
      fitColumns(
        markSorted(
          columns.map((col) => (col.header === view.sort?.column ? { ...col, priority: 1 } : col)),
          view.sort,
        ),
        (found ?? []).map((h) => h.call),
        width,
      ),
    [columns, found, width, view.sort],
  );
  const listHeight = Math.max(2, height - 2);
  // Two lines a hit; the keys' window is in hits (useListKeys takes a table's height, header included).
  const perScreen = Math.max(1, Math.floor(listHeight / 2));
  const selected = hits[Math.min(view.cursor, hits.length - 1)];
  useSelection(res && res.status !== 'loading' ? { row: selected?.call } : undefined);
  useListKeys({
    count: hits.length,
    height: perScreen + 1,
    bindings: {
      [Command.Refresh]: () => actions.searchCalls(route.text),
      [Command.Open]: () => void (selected && actions.push({ name: 'call', id: selected.call.id, match: route.text })),
      [Command.RawJson]: () => void (selected && actions.showCallJson(selected.call.id)),
      [Command.Sort]: () => actions.cycleSort(CALL_SORT_COLUMNS),
    },
  });
  if (!res) return <Loading what="the search" />;
  if (res.status === 'error') return <ErrorState what="the search" message={res.error} />;
  const scroll = Math.max(0, Math.min(view.scroll, hits.length - perScreen));
  const top = view.cursor < scroll ? view.cursor : view.cursor >= scroll + perScreen ? view.cursor - perScreen + 1 : scroll;
  const shown = hits.slice(top, top + perScreen);
  const loaded = found?.length ?? 0;
  const more = res.total > loaded ? ` (the newest ${loaded} shown)` : '';
  // The search is of the calls the log's filters let through (`calls search` has none): said first, before the line is cut.
  const filters = callFilterWords(form, assistantName, numbers);
  const among = filters ? ` among the call log's filters (${filters}; f there changes them)` : '';
  const matched = hits.length < loaded ? `${hits.length} of them match /${view.filter.trim()}` : '';
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(
          [
            `${res.total} call${res.total === 1 ? '' : 's'} mention ${route.text}${among}${more}`,
            matched,
            placeWords({ cursor: view.cursor, shown: hits.length }),
          ]
            .filter(Boolean)
            .join(' · ') + ' · Enter opens the call at the match · s searches again',
          width,
        )}
      </Text>
      {hits.length ? (
        <Text bold color={theme.accent} wrap="truncate">
          {headerLine(cols)}
        </Text>
      ) : null}
      {hits.length === 0 ? (
        <Empty
          text={
            loaded > 0
              ? `No call found matches /${truncate(view.filter.trim(), Math.max(10, width - 40))}.`
              : `No archived call${filters ? ` the call log's filters let through (${filters})` : ''} mentions ` +
                `${truncate(route.text, Math.max(10, width - 40))}. Words, "a phrase" and prefix* are understood.`
          }
        />
      ) : (
        shown.map((h, i) => {
          const c = h.call;
          return <Hit key={c.id} head={truncate(rowLine(cols, c), width)} parts={h.parts} selected={top + i === view.cursor} width={width} />;
        })
      )}
    </Box>
  );
}
