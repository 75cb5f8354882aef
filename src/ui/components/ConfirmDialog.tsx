// The confirm dialog the store holds (actions.confirm): y/Enter runs it, n/Esc cancels.
import { Box, Text } from 'ink';
import { Priority, useKeypress } from '../hooks/keypress.js';
import { Command, commandFor } from '../keymap.js';
import { useActions, useConsole } from '../../store/index.js';

export function ConfirmDialog({ width }: { width: number }) {
  const dialog = useConsole((s) => s.dialog);
  const actions = useActions();
  useKeypress(
    (input, key) => {
      const cmd = commandFor(input, key, ['dialog']);
      if (cmd === Command.Confirm) void actions.answerDialog(true);
      else if (cmd === Command.Cancel || input === 'n') void actions.answerDialog(false);
      return true; // a dialog is modal: nothing underneath sees keys
    },
    { priority: Priority.Overlay, active: dialog !== null },
  );
  if (!dialog) return null;
  return (
    <Box borderStyle="round" borderColor="yellow" flexDirection="column" paddingX={1} width={Math.min(width, 70)}>
      <Text bold color="yellow">
        {dialog.title}
      </Text>
      <Text wrap="wrap">{dialog.message}</Text>
      <Text>
        <Text bold>y</Text>/Enter {dialog.confirmLabel} · <Text bold>n</Text>/Esc cancel
      </Text>
    </Box>
  );
}
