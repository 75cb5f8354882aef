// The app's frame: header (target, profile, connection, breadcrumbs), key-hint footer, flash line.
import { Box, Text } from 'ink';
import { topRoute, useActions, useConsole, useConsoleShallow } from '../../store/index.js';
import type { Freshness } from '../../store/routes.js';
import { cellWidth } from '../../format/cells.js';
import { escapeLine } from '../../format/escape.js';
import type { KeyContext } from '../keymap.js';
import { useLiveCommands } from '../hooks/bindings.js';
import { useLasting } from '../hooks/useLasting.js';
import { useKeymap, useRoutes } from '../hooks/keymap-context.js';
import { CONNECTION_MARK, flashLines, footerLine, headerLeft, historyTail, routeFooter } from '../chrome-text.js';
import { truncate } from '../../format/display.js';
import { useTheme } from '../hooks/theme-context.js';

export function Header({ width }: { width: number }) {
  const theme = useTheme();
  const target = useConsole((s) => s.target);
  const connection = useConsole((s) => s.connectionState);
  const history = useConsole((s) => s.archiveSync.history);
  const routes = useRoutes();
  const crumbs = useConsoleShallow((s) => s.stack.map(routes.title));
  const now = useConsoleShallow((s) => routes.freshness(topRoute(s), s));
  // A refresh that ends at once (the live call log's, every few seconds) leaves the mark off.
  const slow = useLasting(now.state === 'refreshing');
  const fresh: Freshness = now.state === 'refreshing' && !slow ? { state: 'fresh' } : now;
  const conn = CONNECTION_MARK[connection];
  const trail = truncate(crumbs.join(' › '), width);
  const mark = freshnessText(fresh);
  const left = headerLeft(target, width);
  const tail = historyTail(history, width - cellWidth(`${left}${conn.mark} ${connection}`));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" backgroundColor={theme.headerBg} color={theme.headerText}>
        {left}
        <Text color={theme[conn.color]}>{conn.mark}</Text> {connection}
        {tail}
      </Text>
      <Text wrap="truncate">
        <Text dimColor>{trail}</Text>
        {mark ? (
          <Text color={fresh.state === 'stale' ? theme.warning : undefined} dimColor={fresh.state !== 'stale'}>
            {truncate(mark, Math.max(0, width - cellWidth(trail)))}
          </Text>
        ) : (
          ''
        )}
      </Text>
    </Box>
  );
}

/** The breadcrumbs' tail: whether the screen's data is being fetched again, or stale since a refresh failed. */
function freshnessText(f: Freshness): string {
  if (f.state === 'refreshing') return '  ⟳ refreshing…';
  if (f.state === 'stale') return `  ⚠ stale: refresh failed: ${escapeLine(f.error ?? 'no answer')} (r retries)`;
  return '';
}

/** The keys bound and enabled in front; until the screen of `route` (its routeKey) has bound its keys, its route's (`contexts`). */
export function Footer({ route, contexts, width }: { route: string; contexts: readonly KeyContext[]; width: number }) {
  const keymap = useKeymap();
  const routes = useRoutes();
  const actions = useActions();
  const live = useLiveCommands(route);
  // Why the route's own keys are off (its spec), as one string: until its screen has bound its keys, the footer says it from the spec.
  const reasons = useConsole((state) => (live ? '[]' : JSON.stringify([...routes.disabled(topRoute(state), { state, actions })])));
  const readOnly = useConsole((s) => s.target.readOnly === true);
  const topLevel = useConsole((s) => s.stack.length === 1);
  const line = footerLine(
    keymap,
    live?.commands ?? routeFooter(keymap, contexts, readOnly, topLevel),
    width,
    contexts,
    live?.disabled ?? new Map(JSON.parse(reasons) as [string, string][]),
  );
  return (
    <Text wrap="truncate" dimColor>
      {line}
    </Text>
  );
}

/** `bang`: `!` opens the last message whole here (the screen has the global keys); else the flash wraps whole. */
export function FlashLine({ width, bang }: { width: number; bang: boolean }) {
  const theme = useTheme();
  const flash = useConsole((s) => s.flash);
  const lines = flashLines(flash, width, bang);
  if (!flash) return <Text> </Text>;
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate" color={flash.kind === 'error' ? theme.error : theme.good}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
