// The app's frame: header (target, profile, connection, breadcrumbs), key-hint footer, flash line.
import { Box, Text } from 'ink';
import { topRoute, useConsole, useConsoleShallow } from '../../store/index.js';
import type { Freshness } from '../../store/routes.js';
import { cellWidth } from '../../format/cells.js';
import { escapeLine } from '../../format/escape.js';
import type { KeyContext } from '../keymap.js';
import { useLiveCommands } from '../hooks/bindings.js';
import { useLasting } from '../hooks/useLasting.js';
import { CONNECTION_MARK, flashLines, footerLine, headerLeft, routeFooter } from '../chrome-text.js';
import { truncate } from '../../format/display.js';
import { freshnessOf, titleOf } from '../screens/routes.js';
import { theme } from '../theme.js';

export function Header({ width }: { width: number }) {
  const target = useConsole((s) => s.target);
  const connection = useConsole((s) => s.connectionState);
  const crumbs = useConsoleShallow((s) => s.stack.map(titleOf));
  const now = useConsoleShallow((s) => freshnessOf(topRoute(s), s));
  // A refresh that ends at once (the live call log's, every few seconds) leaves the mark off.
  const slow = useLasting(now.state === 'refreshing');
  const fresh: Freshness = now.state === 'refreshing' && !slow ? { state: 'fresh' } : now;
  const conn = CONNECTION_MARK[connection];
  const trail = truncate(crumbs.join(' › '), width);
  const mark = freshnessText(fresh);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" backgroundColor={theme().headerBg} color={theme().headerText}>
        {headerLeft(target, width)}
        <Text color={theme()[conn.color]}>{conn.mark}</Text> {connection}
      </Text>
      <Text wrap="truncate">
        <Text dimColor>{trail}</Text>
        {mark ? (
          <Text color={fresh.state === 'stale' ? theme().warning : undefined} dimColor={fresh.state !== 'stale'}>
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
  const live = useLiveCommands(route);
  const readOnly = useConsole((s) => s.target.readOnly === true);
  const line = footerLine(live ?? routeFooter(contexts, readOnly), width, contexts);
  return (
    <Text wrap="truncate" dimColor>
      {line}
    </Text>
  );
}

export function FlashLine({ width }: { width: number }) {
  const flash = useConsole((s) => s.flash);
  const lines = flashLines(flash, width);
  if (!flash) return <Text> </Text>;
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate" color={flash.kind === 'error' ? theme().error : theme().good}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
