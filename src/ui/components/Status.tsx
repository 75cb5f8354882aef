// Loading, empty and error states, the same on every screen.
import { Box, Text } from 'ink';
import { escapeLine } from '../../format/escape.js';
import { Spinner } from './Spinner.js';
import { useConsole } from '../../store/index.js';

export function Loading({ what }: { what: string }) {
  return (
    <Text>
      <Spinner /> Loading {what}…
    </Text>
  );
}

/** The api's hint when nothing answers, which for the embedded sandbox is not the user's to fix. */
const NOT_RUNNING = 'check that the service is running';

export function ErrorState({ what, message, hint: given }: { what: string; message?: string; hint?: string }) {
  const sandbox = useConsole((s) => s.target.kind === 'sandbox');
  const hint = sandbox && given?.startsWith(NOT_RUNNING) ? 'the embedded sandbox is not answering; the console starts it again and retries by itself' : given;
  return (
    <Box flexDirection="column">
      <Text color="red" bold>
        Could not load {escapeLine(what)}
      </Text>
      <Text color="red" wrap="wrap">
        {escapeLine(message ?? 'unknown error')}
      </Text>
      {hint ? <Text wrap="wrap">{escapeLine(hint)}</Text> : null}
      <Text dimColor>Press r to retry.</Text>
    </Box>
  );
}

export function Empty({ text }: { text: string }) {
  return <Text dimColor>{text}</Text>;
}
