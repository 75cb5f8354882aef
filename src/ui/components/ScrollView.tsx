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
  const top = Math.max(0, Math.min(scroll, lines.length - height));
  const more = lines.length > height ? ` ${top + 1}-${Math.min(lines.length, top + height)}/${lines.length}` : '';
  return (
    <Box flexDirection="column" height={height} width={width}>
      {lines.slice(top, top + height - (more ? 1 : 0)).map((l, i) => (
        <Text key={i} color={l.color} bold={l.bold} dimColor={l.dim} wrap="truncate">
          {truncate(l.text, width) || ' '}
        </Text>
      ))}
      {more ? <Text dimColor>{`↑↓ scroll${more}`}</Text> : null}
    </Box>
  );
}
