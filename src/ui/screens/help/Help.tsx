// `?` help and `y` raw JSON: scrolled text views. Help is generated from the keymap table: the keys
// of the screen it was opened on first (its route's contexts, as the dispatcher reads them), then
// every section; `/` filters its rows as you type.
import { useMemo } from 'react';
import type { Route } from '../../../store/index.js';
import { useActions, useConsole } from '../../../store/index.js';
import { wrapText } from '../../../format/display.js';
import { escapeLine } from '../../../format/escape.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import type { Keymap } from '../../keymap.js';
import { useKeymap, useRoutes } from '../../hooks/keymap-context.js';
import type { RouteRegistry } from '../routes.js';
import type { ScreenProps } from '../shared.js';
import { useTheme } from '../../hooks/theme-context.js';
import type { Palette } from '../../theme.js';

type Row = ReturnType<Keymap['bindingsFor']>[number];

/**
 * Help's lines. `on`: the screen help was opened on; its own keys come first (those a key reaches
 * there, less the global ones, which are next), then each of the keymap's sections with what is left.
 * `filter`: only rows whose keys, description or section name hold it (case-insensitive).
 * `disabled`: the keys of `on` that are off now, with why (its spec's `disabled`), said beside them.
 */
export function helpLines(
  theme: Palette,
  keymap: Keymap,
  routes: RouteRegistry,
  on?: Route,
  filter = '',
  disabled: ReadonlyMap<string, string> = new Map(),
): Line[] {
  const sections: { title: string; rows: Row[] }[] = [];
  const shown = new Set<string>();
  if (on) {
    const rows = keymap
      .bindingsFor(routes.spec(on).contexts, { reachable: true })
      .filter((b) => !keymap.binding(b.command)!.contexts.includes('global'))
      .map((b) => (disabled.has(b.command) ? { ...b, hint: `${b.hint} (off: ${escapeLine(disabled.get(b.command)!)})` } : b));
    sections.push({ title: `This screen: ${routes.title(on)}`, rows });
    for (const b of rows) shown.add(b.command);
  }
  for (const s of keymap.sections) sections.push({ title: s.title, rows: keymap.bindingsFor(s.contexts).filter((b) => !shown.has(b.command)) });
  const want = filter.trim().toLowerCase();
  const lines: Line[] = [];
  for (const s of sections) {
    const titleHit = want !== '' && s.title.toLowerCase().includes(want);
    const rows = want && !titleHit ? s.rows.filter((b) => `${b.keys} ${b.hint}`.toLowerCase().includes(want)) : s.rows;
    if (!rows.length) continue;
    const marks = want ? [want] : undefined;
    lines.push({ text: s.title, bold: true, color: theme.accent, marks });
    for (const b of rows) lines.push({ text: `  ${b.keys.padEnd(22)} ${b.hint}`, marks });
    lines.push({ text: '' });
  }
  if (!lines.length) lines.push({ text: `No key matches "${filter}" (Esc clears the filter).`, dim: true });
  return lines;
}

export function Help({ width, height }: ScreenProps<{ name: 'help' }>) {
  const theme = useTheme();
  const view = useTopView();
  // The screen under help on the stack: the one `?` (or :help) was pressed on.
  const on = useConsole((s) => s.stack[s.stack.length - 2]);
  const keymap = useKeymap();
  const routes = useRoutes();
  const actions = useActions();
  // Why the keys of the screen under help are off, as one string (a re-render only when that changes).
  const reasons = useConsole((state) => (on ? JSON.stringify([...routes.disabled(on, { state, actions })]) : '[]'));
  const lines = useMemo(
    () => helpLines(theme, keymap, routes, on, view.filter, new Map(JSON.parse(reasons) as [string, string][])),
    [theme, keymap, routes, on, view.filter, reasons],
  );
  useDetailKeys({ lines: lines.length, height });
  const scroll = Math.min(view.scroll, Math.max(0, lines.length - height + 1));
  return <ScrollView lines={lines} scroll={scroll} height={height} width={width} />;
}

export function JsonView({ route, width, height }: ScreenProps<Extract<Route, { name: 'json' }>>) {
  const view = useTopView();
  // Whole strings, wrapped to the width (indented as the JSON is), never cut with …: this view is where the full value is read.
  const lines: Line[] = useMemo(
    () => [{ text: route.title, bold: true }, ...wrapText(JSON.stringify(route.value, null, 2) ?? 'undefined', width).map((text) => ({ text }))],
    [route.title, route.value, width],
  );
  useDetailKeys({ lines: lines.length, height });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}

export function MessageView({ route, width, height }: ScreenProps<Extract<Route, { name: 'message' }>>) {
  const view = useTopView();
  const lines: Line[] = useMemo(() => wrapText(route.text, width).map((text) => ({ text })), [route.text, width]);
  useDetailKeys({ lines: lines.length, height });
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
