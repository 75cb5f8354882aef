// The app's frame: header (target, profile, connection, breadcrumbs), key-hint footer, flash line.
import { Box, Text } from 'ink';
import { useConsole, useConsoleShallow } from '../../store/index.js';
import type { KeyContext } from '../keymap.js';
import { CONNECTION_MARK, flashLines, footerLine, headerLeft } from '../chrome-text.js';
import { truncate } from '../format.js';
import { titleOf } from '../screens/registry.js';

export function Header({ width }: { width: number }) {
  const target = useConsole((s) => s.target);
  const connection = useConsole((s) => s.connectionState);
  const crumbs = useConsoleShallow((s) => s.stack.map(titleOf));
  const conn = CONNECTION_MARK[connection];
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" backgroundColor="blue" color="white">
        {headerLeft(target, width)}
        <Text color={conn.color}>{conn.mark}</Text> {connection}
      </Text>
      <Text wrap="truncate" dimColor>
        {truncate(crumbs.join(' › '), width)}
      </Text>
    </Box>
  );
}

export function Footer({ contexts, width }: { contexts: KeyContext[]; width: number }) {
  const line = footerLine(contexts, width);
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
        <Text key={i} wrap="truncate" color={flash.kind === 'error' ? 'red' : 'green'}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
