// A scrolled block of pre-wrapped lines (details, JSON, help). The scroll offset is the route's
// view state, so coming back restores it. Each line is service text: escaped and cut to the width here.
import { Box, Text } from 'ink';
import { truncate } from '../../format/display.js';
import { useTheme } from '../hooks/theme-context.js';

export interface Line {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  /** Words to highlight in this line (case-insensitive): a search's match. */
  marks?: string[];
}

/** The line cut into plain and marked pieces (the text is already escaped and cut). Exported for tests. */
export function markPieces(text: string, marks: string[]): { text: string; hit: boolean }[] {
  const words = marks.map((m) => m.toLowerCase()).filter(Boolean);
  if (!words.length) return [{ text, hit: false }];
  const lower = text.toLowerCase();
  const out: { text: string; hit: boolean }[] = [];
  let at = 0;
  while (at < text.length) {
    let best = -1;
    let len = 0;
    for (const w of words) {
      const i = lower.indexOf(w, at);
      if (i >= 0 && (best < 0 || i < best)) {
        best = i;
        len = w.length;
      }
    }
    if (best < 0) break;
    if (best > at) out.push({ text: text.slice(at, best), hit: false });
    out.push({ text: text.slice(best, best + len), hit: true });
    at = best + len;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}

export function ScrollView({ lines, scroll, height, width }: { lines: Line[]; scroll: number; height: number; width: number }) {
  const theme = useTheme();
  // With more lines than fit, the last row says where we are, so height - 1 rows show lines (the
  // last line included once scrolled to the end).
  const room = lines.length > height ? Math.max(1, height - 1) : height;
  const top = Math.max(0, Math.min(scroll, lines.length - room));
  const more = lines.length > height ? ` ${top + 1}-${Math.min(lines.length, top + room)}/${lines.length}` : '';
  return (
    <Box flexDirection="column" height={height} width={width}>
      {lines.slice(top, top + room).map((l, i) => (
        <Text key={i} color={l.color} bold={l.bold} dimColor={l.dim} wrap="truncate">
          {l.marks
            ? markPieces(truncate(l.text, width), l.marks).map((p, j) =>
                p.hit ? (
                  <Text key={j} color={theme.warning} bold inverse>
                    {p.text}
                  </Text>
                ) : (
                  p.text
                ),
              )
            : truncate(l.text, width) || ' '}
        </Text>
      ))}
      {more ? <Text dimColor>{`↑↓ scroll${more}`}</Text> : null}
    </Box>
  );
}
