// Loading, empty and error states, the same on every screen.
import { Box, Text } from 'ink';
import { escapeLine } from '../../format/escape.js';
import { Spinner } from './Spinner.js';

export function Loading({ what }: { what: string }) {
  return (
    <Text>
      <Spinner /> Loading {what}…
    </Text>
  );
}

export function ErrorState({ what, message, hint }: { what: string; message?: string; hint?: string }) {
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
