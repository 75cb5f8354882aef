// A short list to choose one item from (the confirm dialog, a form's choice field): ink-select-input,
// fed by the console's dispatcher through a private stdin (forwarded-keys.tsx says why). While open
// it has every key: ↑/↓ (k/j) move, Enter or a digit chooses, Esc cancels; `bindings` add the
// owner's (the dialog's y/n). Long lists that filter and scroll use Picker instead.
import SelectInput from 'ink-select-input';
import { Priority } from '../hooks/keypress.js';
import { useBindings, type Bindings } from '../hooks/bindings.js';
import { Command } from '../keymap.js';
import { truncate } from '../../format/display.js';
import { ForwardedStdin, KEY_BYTES, useForwardedKeys } from './forwarded-keys.js';

export interface Choice<V> {
  label: string;
  value: V;
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
  const { context, send } = useForwardedKeys();
  // Modal: nothing underneath sees keys.
  useBindings(
    ['dialog'],
    {
      [Command.Cancel]: props.onCancel,
      [Command.PreviousChoice]: () => send(KEY_BYTES.up),
      [Command.NextChoice]: () => send(KEY_BYTES.down),
      [Command.Choose]: () => send(KEY_BYTES.enter),
      [Command.ChooseByNumber]: (digit) => send(digit),
      ...props.bindings,
    },
    { priority: Priority.Overlay, modal: true },
  );
  const items = props.choices.map((c, i) => ({ key: String(i), label: truncate(c.label, props.width - 2), value: c.value }));
  const initialIndex = Math.max(0, props.choices.findIndex((c) => c.value === props.initial));
  return (
    <ForwardedStdin context={context}>
      <SelectInput items={items} initialIndex={initialIndex} limit={props.limit} onSelect={(item) => props.onChoose(item.value)} />
    </ForwardedStdin>
  );
}
