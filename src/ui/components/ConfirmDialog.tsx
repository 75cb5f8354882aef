// The confirm dialog the store holds (actions.confirm): a two-item choice list (↑/↓ and Enter),
// y runs it, n/Esc cancels. Its keys are in the footer (the keymap's 'dialog' context).
import { Box, Text } from 'ink';
import { Command, commandFor } from '../keymap.js';
import { useActions, useConsole } from '../../store/index.js';
import type { ConfirmDialog as Dialog } from '../../store/ui.js';
import { truncate, wrapText } from '../format.js';
import { ChoiceList } from './ChoiceList.js';

const boxWidth = (width: number) => Math.min(width, 70);
// The border and padding take two columns each side.
const messageLines = (dialog: Dialog, width: number) => wrapText(dialog.message, boxWidth(width) - 4);

/** Rows the dialog takes: border, title, message, the two choices. */
export function dialogHeight(dialog: Dialog, width: number): number {
  return 2 + 1 + messageLines(dialog, width).length + 2;
}

export function ConfirmDialog({ width }: { width: number }) {
  const dialog = useConsole((s) => s.dialog);
  const actions = useActions();
  if (!dialog) return null;
  const answer = (yes: boolean) => void actions.answerDialog(yes);
  return (
    <Box borderStyle="round" borderColor="yellow" flexDirection="column" paddingX={1} width={boxWidth(width)} flexShrink={0}>
      <Text bold color="yellow">
        {truncate(dialog.title, boxWidth(width) - 4)}
      </Text>
      {messageLines(dialog, width).map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      <ChoiceList
        choices={[
          { label: dialog.confirmLabel, value: true },
          { label: 'cancel', value: false },
        ]}
        width={boxWidth(width) - 4}
        onChoose={answer}
        onCancel={() => answer(false)}
        onKey={(input, key) => {
          const cmd = commandFor(input, key, ['dialog']);
          if (cmd === Command.Confirm) answer(true);
          else if (cmd === Command.Decline) answer(false);
          else return false;
          return true;
        }}
      />
    </Box>
  );
}
