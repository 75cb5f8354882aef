// `?` help and `y` raw JSON: scrolled text views. Help is generated from the keymap table.
import { useMemo } from 'react';
import type { Route } from '../../../store/index.js';
import { wrapText } from '../../../format/display.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { HELP_SECTIONS, bindingsFor } from '../../keymap.js';
import type { ScreenProps } from '../shared.js';

/** One section per HELP_SECTIONS entry, each listing every key live in its contexts (a key live in two sections is in both, as in the README's table). */
export function helpLines(): Line[] {
  const lines: Line[] = [];
  for (const s of HELP_SECTIONS) {
    const rows = bindingsFor(s.contexts);
    if (!rows.length) continue;
    lines.push({ text: s.title, bold: true, color: 'cyan' });
    for (const b of rows) lines.push({ text: `  ${b.keys.padEnd(22)} ${b.hint}` });
    lines.push({ text: '' });
  }
  return lines;
}

export function Help({ width, height }: ScreenProps<{ name: 'help' }>) {
  const view = useTopView();
  const lines = helpLines();
  useDetailKeys({ contexts: ['detail'], lines: lines.length, height });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}

export function JsonView({ route, width, height }: ScreenProps<Extract<Route, { name: 'json' }>>) {
  const view = useTopView();
  // Whole strings, wrapped to the width (indented as the JSON is), never cut with …: this view is where the full value is read.
  const lines: Line[] = useMemo(
    () => [{ text: route.title, bold: true }, ...wrapText(JSON.stringify(route.value, null, 2) ?? 'undefined', width).map((text) => ({ text }))],
    [route.title, route.value, width],
  );
  useDetailKeys({ contexts: ['detail'], lines: lines.length, height });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
