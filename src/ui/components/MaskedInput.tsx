// The masked API-key field: ink-text-input draws it, with its `mask`, the one case that component
// serves fully (a secret shows no glyph to place a cursor on, and a key is one line of ASCII).
// Its keys come from our dispatcher like every input's, never from Ink's useInput: it is drawn
// unfocused (so it reads no key) and this component edits the value with the text buffer's
// operations. The cursor stays at the end, as in a shell's password prompt: typing and a paste
// append, Backspace and Ctrl-U/Ctrl-W delete; nothing else of the key is ever shown.
import { useRef } from 'react';
import { truncateCells } from '../../format/cells.js';
import InkTextInput from 'ink-text-input';
import { Text } from 'ink';
import { Priority } from '../hooks/keypress.js';
import { useBindings } from '../hooks/bindings.js';
import { Command, type KeyContext } from '../keymap.js';
import { edit, insertText, type EditOp } from '../text-buffer.js';

const MASK = '•';
const INPUT: KeyContext[] = ['input'];
const OPS: Partial<Record<Command, EditOp>> = {
  [Command.DeleteBefore]: 'deleteBefore',
  [Command.KillToLineStart]: 'killToLineStart',
  // A key is one word: Ctrl-W clears it as Ctrl-U does.
  [Command.KillWordBefore]: 'killToLineStart',
};

export function MaskedInput(props: { value: string; onChange: (v: string) => void; focus: boolean; width: number; placeholder?: string }) {
  const { value, focus } = props;
  // Each key of a burst builds on the last one's value, not on a prop the parent has not re-rendered yet.
  const latest = useRef(value);
  const sent = useRef(value);
  if (sent.current !== value) latest.current = sent.current = value;
  const change = (next: string) => {
    if (next === latest.current) return;
    latest.current = sent.current = next;
    props.onChange(next);
  };
  const atEnd = () => ({ text: latest.current, cursor: latest.current.length });
  useBindings(INPUT, Object.fromEntries(Object.entries(OPS).map(([cmd, op]) => [cmd, () => change(edit(atEnd(), op).text)])), {
    priority: Priority.TextInput,
    active: focus,
    onText: (text) => change(insertText(atEnd(), text).text),
    // A pasted key loses its whitespace (the line break copied with it).
    onPaste: (text) => (change(insertText(atEnd(), text.replace(/\s+/g, '')).text), true),
  });
  // A key longer than the box shows its last bullets (ink-text-input would wrap it).
  const room = Math.max(1, props.width - 2);
  const shown = value.length > room ? value.slice(-room) : value;
  const noop = () => undefined;
  return (
    <Text>
      {value.length > room ? '…' : ''}
      <InkTextInput value={shown} mask={MASK} focus={false} showCursor={false} onChange={noop} />
      {focus ? <Text inverse> </Text> : ''}
      {/* Ours, not its placeholder: that one is coloured by chalk, beside the console's own colours (hooks/theme-context.tsx). */}
      {/* Cut to the box in cells: wrapped, it would run into the row below (the form's save button). */}
      {!focus && !value && props.placeholder ? <Text dimColor>{truncateCells(props.placeholder, Math.max(1, props.width - 1))}</Text> : ''}
    </Text>
  );
}
