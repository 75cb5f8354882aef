// A short list to choose one item from (the confirm dialog, a form's choice field): ink-select-input,
// fed by the console's dispatcher through a private stdin (forwarded-keys.tsx says why). While open
// it has every key: ↑/↓ (k/j) move, Enter or a digit chooses, Esc cancels; `onKey` may take keys
// first (the dialog's y/n). Long lists that filter and scroll use Picker instead.
import SelectInput from 'ink-select-input';
import type { Key } from 'ink';
import { Priority, useKeypress } from '../hooks/keypress.js';
import { Command, commandFor } from '../keymap.js';
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
  /** Keys to handle before the list's own; return true when used. */
  onKey?: (input: string, key: Key) => boolean;
}) {
  const { context, send } = useForwardedKeys();
  useKeypress(
    (input, key) => {
      if (props.onKey?.(input, key)) return true;
      // Several keys can arrive in one string ("jj"): one at a time.
      for (const ch of input && !key.ctrl && !key.meta ? [...input] : [input]) {
        const cmd = commandFor(ch, key, ['dialog']);
        if (cmd === Command.Cancel) return props.onCancel(), true;
        if (cmd === Command.PreviousChoice) send(KEY_BYTES.up);
        else if (cmd === Command.NextChoice) send(KEY_BYTES.down);
        else if (cmd === Command.Choose) send(KEY_BYTES.enter);
        else if (/^[1-9]$/.test(ch)) send(ch);
      }
      return true; // modal: nothing underneath sees keys
    },
    { priority: Priority.Overlay },
  );
  const items = props.choices.map((c, i) => ({ key: String(i), label: truncate(c.label, props.width - 2), value: c.value }));
  const initialIndex = Math.max(0, props.choices.findIndex((c) => c.value === props.initial));
  return (
    <ForwardedStdin context={context}>
      <SelectInput items={items} initialIndex={initialIndex} limit={props.limit} onSelect={(item) => props.onChoose(item.value)} />
    </ForwardedStdin>
  );
}
