// A short list to choose one item from (the confirm dialog, a form's choice field), drawn with
// ink-select-input's own Indicator and Item, its cursor moved here as its SelectInput moves it
// (↑/↓ at an end wrap round; a list longer than `limit` rotates through the rows shown). Not its
// SelectInput: that reads keys with Ink's useInput, beside the dispatcher. While open the list has
// every key: ↑/↓ (k/j) move, Enter or a digit chooses, Esc cancels; `bindings` add the owner's
// (the dialog's y/n). Long lists that filter and scroll use Picker instead.
import { useReducer, useRef } from 'react';
import { Box } from 'ink';
import { Indicator, Item } from 'ink-select-input';
import { Priority } from '../hooks/keypress.js';
import { useBindings, type Bindings } from '../hooks/bindings.js';
import { Command } from '../keymap.js';
import { truncate } from '../../format/display.js';

export interface Choice<V> {
  label: string;
  value: V;
}

/** Where the cursor is: which row of those shown, and how far the list is rotated (SelectInput's two numbers). */
interface Cursor {
  rotation: number;
  row: number;
}

/** The list rotated by `steps` (positive: the last items come first). */
function rotated<T>(items: T[], steps: number): T[] {
  const n = items.length;
  const s = n === 0 ? 0 : ((steps % n) + n) % n;
  return s === 0 ? items : [...items.slice(n - s), ...items.slice(0, n - s)];
}

export function ChoiceList<V>(props: {
  choices: Choice<V>[];
  initial?: V;
  width: number;
  /** Rows shown at most; a longer list rotates through them. */
  limit?: number;
  onChoose: (value: V) => void;
  onCancel: () => void;
  /** The owner's commands in the 'dialog' context, beside the list's own. */
  bindings?: Bindings;
}) {
  const { choices } = props;
  const rotates = props.limit !== undefined && choices.length > props.limit;
  const shown = rotates ? Math.min(props.limit!, choices.length) : choices.length;
  const last = shown - 1;
  const start = (): Cursor => {
    const i = Math.max(
      0,
      choices.findIndex((c) => c.value === props.initial),
    );
    return { rotation: i > last ? last - i : 0, row: Math.min(i, last) };
  };
  // Keys can come faster than a render (a burst in one read): each move builds on the last.
  const cursor = useRef<Cursor | undefined>(undefined);
  cursor.current ??= start();
  // Other choices (by value): the cursor starts over at the top, as SelectInput's does.
  const values = useRef(choices.map((c) => c.value));
  if (values.current.length !== choices.length || values.current.some((v, i) => v !== choices[i]!.value)) {
    values.current = choices.map((c) => c.value);
    cursor.current = { rotation: 0, row: 0 };
  }
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const visible = () => (rotates ? rotated(choices, cursor.current!.rotation).slice(0, shown) : choices);
  const move = (by: -1 | 1) => {
    const { rotation, row } = cursor.current!;
    const atEnd = by < 0 ? row === 0 : row === last;
    // At an end: a rotating list turns under the cursor, a short one wraps the cursor round.
    if (!atEnd) cursor.current = { rotation, row: row + by };
    else if (rotates) cursor.current = { rotation: rotation - by, row };
    else cursor.current = { rotation, row: by < 0 ? last : 0 };
    rerender();
  };

  const choose = (item: Choice<V> | undefined) => item && props.onChoose(item.value);
  // Modal: nothing underneath sees keys.
  useBindings(
    ['dialog'],
    {
      [Command.Cancel]: props.onCancel,
      [Command.PreviousChoice]: () => move(-1),
      [Command.NextChoice]: () => move(1),
      [Command.Choose]: () => choose(visible()[cursor.current!.row]),
      [Command.ChooseByNumber]: (digit) => choose(visible()[Number(digit) - 1]),
      ...props.bindings,
    },
    { priority: Priority.Overlay, modal: true },
  );
  return (
    <Box flexDirection="column">
      {visible().map((c, i) => (
        <Box key={String(choices.indexOf(c))}>
          <Indicator isSelected={i === cursor.current!.row} />
          <Item isSelected={i === cursor.current!.row} label={truncate(c.label, props.width - 2)} />
        </Box>
      ))}
    </Box>
  );
}
