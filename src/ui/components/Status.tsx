// Loading, empty and error states, the same on every screen.
import { Box, Text } from 'ink';
import { escapeLine } from '../../format/escape.js';
import { Spinner } from './Spinner.js';
import { useConsole } from '../../store/index.js';
import { wrapText } from '../../format/display.js';
import { truncateCells } from '../../format/cells.js';
import { useWaitKeys } from '../hooks/keypress.js';
import { useTheme } from '../hooks/theme-context.js';

/** `what` often names a record (a session id, an assistant's name): it is escaped here, once for every caller. */
export function Loading({ what }: { what: string }) {
  return (
    <Text>
      <Spinner /> Loading {escapeLine(what)}…
    </Text>
  );
}

/** Lines of an error message an error state shows at most; a longer one ends in … (and is in the debug log: `logged`). */
const ERROR_LINES = 3;

/** The api's hint when nothing answers, which for the embedded sandbox is not the user's to fix. */
const NOT_RUNNING = 'check that the service is running';

export function ErrorState({ what, message, hint: given, logged }: { what: string; message?: string; hint?: string; logged?: string }) {
  const theme = useTheme();
  // Keys typed ahead for this screen go to its own keys (r retries), not the global ones.
  useWaitKeys('failed');
  const width = useConsole((s) => s.columns);
  const all = wrapText(message ?? 'unknown error', Math.max(10, width));
  const lines =
    all.length <= ERROR_LINES ? all : [...all.slice(0, ERROR_LINES - 1), `${truncateCells(all[ERROR_LINES - 1], Math.max(10, width) - 1).replace(/…$/, '')}…`];
  const sandbox = useConsole((s) => s.target.kind === 'sandbox');
  const hint = sandbox && given?.startsWith(NOT_RUNNING) ? 'the embedded sandbox is not answering; the console starts it again and retries by itself' : given;
  return (
    <Box flexDirection="column">
      <Text color={theme.error} bold>
        Could not load {escapeLine(what)}
      </Text>
      {lines.map((line, i) => (
        <Text key={i} color={theme.error} wrap="truncate">
          {line}
        </Text>
      ))}
      {logged ? <Text wrap="truncate">{`full text in ${logged}`}</Text> : null}
      {hint ? <Text wrap="wrap">{escapeLine(hint)}</Text> : null}
      <Text dimColor>Press r to retry.</Text>
    </Box>
  );
}

/** `text` may name service records (an assistant, a file id): escaped here. */
export function Empty({ text }: { text: string }) {
  return <Text dimColor>{escapeLine(text)}</Text>;
}
