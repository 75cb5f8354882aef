// The app's frame: header (target, profile, connection, breadcrumbs), key-hint footer, flash line.
import { Box, Text } from 'ink';
import { useConsole, useConsoleShallow } from '../../store/index.js';
import { KEYMAP, bindingsFor, type KeyContext } from '../keymap.js';
import { truncate } from '../format.js';
import { titleOf } from '../screens/registry.js';

export function Header({ width }: { width: number }) {
  const target = useConsole((s) => s.target);
  const connection = useConsole((s) => s.connection);
  const crumbs = useConsoleShallow((s) => s.stack.map(titleOf));
  const where = target.kind === 'sandbox' ? `sandbox ${target.baseUrl}` : `${target.baseUrl}${target.maskedKey ? ` (${target.maskedKey})` : ''}`;
  const conn = { online: ['●', 'green'], offline: ['●', 'red'], unauthorized: ['●', 'red'], connecting: ['○', 'yellow'] }[connection];
  const left = `Switchboard │ ${where} │ profile ${target.profile} │ `;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" backgroundColor="blue" color="white">
        {truncate(left, width - 14)}
        <Text color={conn[1]}>{conn[0]}</Text> {connection}
      </Text>
      <Text wrap="truncate" dimColor>
        {truncate(crumbs.join(' › '), width)}
      </Text>
    </Box>
  );
}

export function Footer({ contexts, width }: { contexts: KeyContext[]; width: number }) {
  // The screen's own keys first: on a narrow terminal the global ones are the ones to drop.
  const all = bindingsFor(contexts, { footerOnly: true });
  const isGlobal = (h: (typeof all)[number]) => KEYMAP[h.command].contexts.includes('global');
  const hints = [...all.filter((h) => !isGlobal(h)), ...all.filter(isGlobal)];
  let line = '';
  for (const h of hints) {
    const piece = `${h.keys} ${h.hint}`;
    if ([...line].length + piece.length + 3 > width) break;
    line += (line ? ' · ' : '') + piece;
  }
  return (
    <Text wrap="truncate" dimColor>
      {line}
    </Text>
  );
}

export function FlashLine({ width }: { width: number }) {
  const flash = useConsole((s) => s.flash);
  if (!flash) return <Text> </Text>;
  return (
    <Text wrap="truncate" color={flash.kind === 'error' ? 'red' : 'green'}>
      {truncate(flash.text, width)}
    </Text>
  );
}
