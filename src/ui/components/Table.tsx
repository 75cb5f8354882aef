// A windowed table: renders only the rows in view; columns drop by priority when the terminal is
// narrow; cells are truncated with an ellipsis and padded in terminal cells, so a long or wide
// (CJK, emoji) value never breaks the grid.
import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { layoutColumns, type Column } from '../../format/column.js';
import { fitColumns, headerLine, rowLine, tableBodyHeight } from '../../format/table-text.js';
import { useTableAt } from '../hooks/table-at.js';
import { useCapabilities, useTheme } from '../hooks/theme-context.js';

export { layoutColumns, tableBodyHeight };

/** One row's line. Memoized: a cursor move re-renders only the two rows whose highlight changed. */
const Row = memo(function Row({ text, selected, marker, color }: { text: string; selected: boolean; marker: boolean; color?: string }) {
  return (
    <Text inverse={selected} color={color} wrap="truncate">
      {marker ? markerOf(selected) : ''}
      {text}
    </Text>
  );
});

/** Without colour the selected row is also marked in a column of its own (inverse may not show). */
export const markerOf = (selected: boolean) => (selected ? '› ' : '  ');
const MARKER_WIDTH = 2;

/** At most this many formatted lines are kept (the cache is dropped wholesale past it). */
const LINES_KEPT = 1000;

/**
 * Rows are objects the store replaces (never mutates) when they change, so a row's formatted
 * line is kept by identity for as long as the columns and width stay the same: a keypress that
 * only moves the cursor formats no cells, and scrolling by one formats one row. Screens that
 * build their columns on each render simply start a fresh cache each time.
 */
export function Table<T extends object>(props: {
  columns: Column<T>[];
  rows: T[];
  cursor: number;
  scroll: number;
  height: number;
  width: number;
  rowKey: (row: T) => string;
  /** A row's colour (a call's state), on a colour terminal. */
  colorOf?: (row: T) => string | undefined;
  /** Widths from the rows in view, not all the rows given (a window of a long log, which moves as it scrolls). */
  fitToView?: boolean;
  /**
   * The short-id length of the whole list these rows show part of (short-id.ts shortIdLengthOf): a
   * list filtered or windowed shows the ids the palette resolves among all of it. Default: of the rows.
   */
  idLength?: number;
  /**
   * The rows the widths are measured on, when not the rows shown: a `/`-filtered list measures the
   * whole list, so typing a filter never reflows it, and a column of low priority (the ID) that fits
   * only beside the few rows left never takes a name's width.
   */
  measured?: readonly T[];
}) {
  const theme = useTheme();
  const { rows, cursor, height } = props;
  const marker = !useCapabilities().color;
  const width = props.width - (marker ? MARKER_WIDTH : 0);
  const bodyHeight = tableBodyHeight(height);
  // The stored scroll keeps the cursor in view; clamp again in case the window shrank.
  const stored = Math.min(props.scroll, Math.max(0, rows.length - bodyHeight));
  const scroll = cursor >= stored + bodyHeight ? cursor - bodyHeight + 1 : Math.min(stored, cursor);
  const visible = rows.slice(scroll, scroll + bodyHeight);
  // Widths by content: measured again when the rows change (a filter, a sync) or, fitted to the view, when it scrolls; not on a cursor move.
  const fitView = props.fitToView ? scroll : -1;
  const cols = useMemo(
    () => fitColumns(props.columns, fitView >= 0 ? rows.slice(fitView, fitView + bodyHeight) : (props.measured ?? rows), width, props.idLength),
    [props.columns, rows, width, fitView, bodyHeight, props.idLength, props.measured],
  );
  const shape = cols.map((c) => `${c.col.header}:${c.width}:${c.idLength ?? ''}`).join(' ');
  // Lines of the rows drawn lately, valid while the columns and their widths stay: scrolling through a
  // 100,000-call log keeps no line for every row it passed.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `shape` stands for `cols`: a new layout of the same widths keeps the lines
  const lines = useMemo(() => new Map<T, string>(), [props.columns, shape]);
  const at = useTableAt(scroll, cursor);
  const lineOf = (row: T) => {
    let text = lines.get(row);
    if (text === undefined) {
      if (lines.size >= LINES_KEPT) lines.clear();
      text = rowLine(cols, row);
      lines.set(row, text);
    }
    return text;
  };
  return (
    <Box ref={at} flexDirection="column" height={height} width={props.width}>
      <Text bold color={theme.accent}>
        {marker ? markerOf(false) : ''}
        {headerLine(cols)}
      </Text>
      {visible.map((row, i) => (
        <Row key={props.rowKey(row)} text={lineOf(row)} selected={scroll + i === cursor} marker={marker} color={props.colorOf?.(row)} />
      ))}
    </Box>
  );
}
