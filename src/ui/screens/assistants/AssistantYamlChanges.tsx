// After `E`: what the edit in $EDITOR changes, field by field (prompts as a unified diff), the
// same lines `switchboard assistants diff` prints. Enter applies (store: applyAssistantEdit),
// Esc discards.
import { useMemo } from 'react';
import type { Route } from '../../../store/index.js';
import { useConsole } from '../../../store/index.js';
import { changeLines } from '../../../ascode/diff.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { wrapText } from '../../../format/display.js';
import type { ScreenProps } from '../shared.js';
import { useTheme } from '../../hooks/theme-context.js';
import type { Palette } from '../../theme.js';

const colorOf = (theme: Palette, line: string): string | undefined =>
  line.startsWith('@@') ? theme.accent : line.startsWith('-') ? theme.error : line.startsWith('+') ? theme.good : undefined;

/** One change line, wrapped to the width (a prompt line can be long), each part in the line's colour; diff lines indented. */
const wrapped = (theme: Palette, line: string, indent: string, width: number): Line[] => {
  const color = indent ? colorOf(theme, line) : undefined;
  return wrapText(line, Math.max(10, width - indent.length)).map((text) => ({ text: indent + text, ...(color ? { color } : {}) }));
};

export function AssistantYamlChanges({ width, height }: ScreenProps<Extract<Route, { name: 'assistant-yaml' }>>) {
  const theme = useTheme();
  const edit = useConsole((s) => s.assistantEdit);
  const view = useTopView();
  const lines = useMemo<Line[]>(() => {
    if (!edit) return [{ text: 'Nothing to review.', dim: true }];
    const head: Line[] = [{ text: `Changes to ${edit.name} (${edit.id})`, bold: true }];
    if (edit.status === 'applying') head.push({ text: 'Applying…', dim: true });
    if (edit.error) head.push({ text: edit.error, color: theme.error });
    head.push({ text: '' });
    const body = edit.changes.flatMap((c) => changeLines(c).flatMap((l, i) => wrapped(theme, l, i === 0 ? '' : '  ', width)));
    return [...head, ...body];
  }, [theme, edit, width]);
  useDetailKeys({
    lines: lines.length,
    height,
  });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
