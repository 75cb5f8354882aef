// The confirm dialog the store holds (actions.confirm): a two-item choice list (↑/↓ and Enter),
// y runs it, n/Esc cancels. Its keys are in the footer (the keymap's 'dialog' context).
import { Box, Text } from 'ink';
import { Command } from '../keymap.js';
import { useActions, useConsole } from '../../store/index.js';
import type { ConfirmDialog as Dialog } from '../../store/ui.js';
import { truncate, wrapText } from '../../format/display.js';
import { truncateCells } from '../../format/cells.js';
import { ChoiceList } from './ChoiceList.js';
import { useTheme } from '../hooks/theme-context.js';

const boxWidth = (width: number) => Math.min(width, 70);
// The border and padding take two columns each side.
const messageLines = (dialog: Dialog, width: number) => wrapText(dialog.message, boxWidth(width) - 4);

/** Rows the dialog takes when it has room: border, title, message, the two choices. */
export function dialogHeight(dialog: Dialog, width: number): number {
  return 2 + 1 + messageLines(dialog, width).length + 2;
}

/** `height`: the rows it may take (app.tsx); a message longer than what is left is cut, ending in …. */
export function ConfirmDialog({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const dialog = useConsole((s) => s.dialog);
  const actions = useActions();
  if (!dialog) return null;
  const answer = (yes: boolean) => void actions.answerDialog(yes);
  // Inside the border: the two choices first, then the title, then as much of the message as fits.
  const inside = Math.max(0, height - 2);
  const showTitle = inside >= 3;
  const room = Math.max(0, inside - 3);
  const all = messageLines(dialog, width);
  const lines =
    all.length <= room ? all : room === 0 ? [] : [...all.slice(0, room - 1), `${truncateCells(all[room - 1], boxWidth(width) - 5).replace(/…$/, '')}…`];
  return (
    <Box
      borderStyle="round"
      borderColor={theme.warning}
      flexDirection="column"
      paddingX={1}
      width={boxWidth(width)}
      height={height}
      overflow="hidden"
      flexShrink={0}
    >
      {showTitle ? (
        <Text bold color={theme.warning}>
          {truncate(dialog.title, boxWidth(width) - 4)}
        </Text>
      ) : null}
      {lines.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      <ChoiceList
        choices={[
          { label: dialog.confirmLabel, value: true },
          { label: 'cancel', value: false },
        ]}
        initial={!dialog.cancelFirst}
        width={boxWidth(width) - 4}
        onChoose={answer}
        onCancel={() => answer(false)}
        bindings={{ [Command.Confirm]: () => answer(true), [Command.Decline]: () => answer(false) }}
      />
    </Box>
  );
}
