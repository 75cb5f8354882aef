// Placeholder until the Chat screen lands (its own issue): replace this file's export in the registry.
import { Box, Text } from 'ink';
import { useConsole } from '../../../store/index.js';
import type { ScreenProps } from '../shared.js';

export function ChatPlaceholder({ route }: ScreenProps<{ name: 'chat'; sessionId?: string; assistantId?: string }>) {
  const name = useConsole((s) => (route.assistantId ? (s.assistants.data?.find((a) => a.id === route.assistantId)?.name ?? route.assistantId) : undefined));
  return (
    <Box flexDirection="column">
      <Text bold>Chat — coming</Text>
      <Text dimColor>
        {name ? `Chatting with ${name} arrives with the Chat screen.` : route.sessionId ? `Session ${route.sessionId} will open here.` : 'Live chat with an assistant arrives with the Chat screen.'}
      </Text>
    </Box>
  );
}
