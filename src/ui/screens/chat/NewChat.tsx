// `n` on the Chat screen: pick the assistant, give the session a name if you like, start it.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useActions, useConsole } from '../../../store/index.js';
import { Picker } from '../../components/Picker.js';
import { TextInput } from '../../components/TextInput.js';
import { ErrorState, Loading } from '../../components/Status.js';
import { Spinner } from '../../components/Spinner.js';
import { Priority, useWaitKeys } from '../../hooks/keypress.js';
import { useBindings } from '../../hooks/bindings.js';
import { Command } from '../../keymap.js';
import type { ScreenProps } from '../shared.js';
import { activeWord } from '../../../format/words.js';
import { escapeLine } from '../../../format/escape.js';
import { useTheme } from '../../hooks/theme-context.js';

export function NewChat({ route, width, height }: ScreenProps<{ name: 'chat-new' }>) {
  const theme = useTheme();
  const assistants = useConsole((s) => s.assistants);
  const actions = useActions();
  const [assistantId, setAssistantId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const start = useConsole((s) => (assistantId ? s.chat.starts[assistantId] : undefined));
  const starting = start?.status === 'loading';

  // While the session starts, every key waits, in order, for the conversation's input that takes this screen's place.
  useWaitKeys(starting ? 'waiting' : 'ready');
  useBindings(
    ['prompt'],
    {
      [Command.Cancel]: () => setAssistantId(null),
      [Command.Accept]: assistantId !== null && (() => void actions.startChat(assistantId, name, route)),
    },
    { priority: Priority.Overlay, active: assistantId !== null },
  );

  if (!assistants.data && assistants.status === 'error') return <ErrorState what="assistants" message={assistants.error} />;
  if (!assistants.data) return <Loading what="assistants" />;
  if (assistantId === null) {
    return (
      <Picker
        title="New chat — pick the assistant"
        items={assistants.data.map((a) => ({ id: a.id, label: a.name ?? a.id, detail: a.status === false ? activeWord(false) : undefined }))}
        width={width}
        height={height}
        onChoose={([id]) => id && setAssistantId(id)}
        onCancel={actions.back}
      />
    );
  }
  const chosen = assistants.data.find((a) => a.id === assistantId);
  return (
    <Box flexDirection="column">
      <Text bold>New chat with {escapeLine(chosen?.name ?? assistantId)}</Text>
      <Text>
        <Text color={theme.warning}>Name (optional): </Text>
        <TextInput value={name} onChange={setName} focus={!starting} placeholder="a name to find it by" width={Math.max(10, width - 17)} />
      </Text>
      {starting ? (
        <Text>
          <Spinner /> Starting the session…
        </Text>
      ) : start?.status === 'error' ? (
        <Text color={theme.error} wrap="wrap">
          Could not start the chat: {escapeLine(start.error ?? '')}
        </Text>
      ) : null}
      <Text dimColor>Enter start · Esc pick another assistant</Text>
    </Box>
  );
}
