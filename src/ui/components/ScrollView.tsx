// A scrolled block of pre-wrapped lines (details, JSON, help). The scroll offset is the route's
// view state, so coming back restores it. Each line is service text: escaped and cut to the width here.
import { Box, Text } from 'ink';
import { truncate } from '../format.js';

export interface Line {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

export function ScrollView({ lines, scroll, height, width }: { lines: Line[]; scroll: number; height: number; width: number }) {
  // When the lines don't fit, the last row is the position line, so height - 1 rows show text
  // and the last of them can scroll into view (useDetailKeys scrolls to lines - height + 1).
  const shown = lines.length > height ? Math.max(1, height - 1) : height;
  const top = Math.max(0, Math.min(scroll, lines.length - shown));
  const more = lines.length > height ? ` ${top + 1}-${Math.min(lines.length, top + shown)}/${lines.length}` : '';
  return (
    <Box flexDirection="column" height={height} width={width}>
      {lines.slice(top, top + shown).map((l, i) => (
        <Text key={i} color={l.color} bold={l.bold} dimColor={l.dim} wrap="truncate">
          {truncate(l.text, width) || ' '}
        </Text>
      ))}
      {more ? <Text dimColor>{`↑↓ scroll${more}`}</Text> : null}
    </Box>
  );
}
