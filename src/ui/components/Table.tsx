// A windowed table: renders only the rows in view; columns drop by priority when the terminal is
// narrow; cells are truncated with an ellipsis so a long value never breaks the grid.
import { Box, Text } from 'ink';
import { pad } from '../format.js';

export interface Column<T> {
  title: string;
  /** Minimum width in characters. */
  width: number;
  /** 1 = always shown; higher numbers drop first when space runs out. */
  priority: number;
  /** Takes a share of the spare width. */
  grow?: boolean;
  align?: 'left' | 'right';
  value: (row: T) => string;
}

const GAP = 2;

/** Which columns fit in `width`, and how wide each is. Exported for tests. */
export function layoutColumns<T>(columns: Column<T>[], width: number): { col: Column<T>; width: number }[] {
  const byPriority = [...columns].sort((a, b) => a.priority - b.priority);
  const chosen = new Set<Column<T>>();
  let used = 0;
  for (const c of byPriority) {
    const need = c.width + (chosen.size ? GAP : 0);
    if (used + need > width && chosen.size) continue;
    chosen.add(c);
    used += need;
  }
  const visible = columns.filter((c) => chosen.has(c));
  const growers = visible.filter((c) => c.grow);
  const spare = Math.max(0, width - used);
  return visible.map((c) => {
    const share = growers.length ? Math.floor(spare / growers.length) + (c === growers[0] ? spare % growers.length : 0) : 0;
    return { col: c, width: Math.min(c.width + (c.grow ? share : 0), Math.max(1, width)) };
  });
}

export function Table<T>(props: { columns: Column<T>[]; rows: T[]; cursor: number; scroll: number; height: number; width: number; rowKey: (row: T) => string }) {
  const { rows, cursor, height, width } = props;
  const cols = layoutColumns(props.columns, width);
  const bodyHeight = Math.max(1, height - 1);
  // The stored scroll keeps the cursor in view; clamp again in case the window shrank.
  let scroll = Math.min(props.scroll, Math.max(0, rows.length - bodyHeight));
  if (cursor >= scroll + bodyHeight) scroll = cursor - bodyHeight + 1;
  if (cursor < scroll) scroll = cursor;
  const visible = rows.slice(scroll, scroll + bodyHeight);
  const line = (cells: string[]) => cells.join(' '.repeat(GAP));
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text bold color="cyan">
        {line(cols.map(({ col, width: w }) => pad(col.title, w, col.align)))}
      </Text>
      {visible.map((row, i) => {
        const selected = scroll + i === cursor;
        return (
          <Text key={props.rowKey(row)} inverse={selected} wrap="truncate">
            {line(cols.map(({ col, width: w }) => pad(col.value(row), w, col.align)))}
          </Text>
        );
      })}
    </Box>
  );
}
