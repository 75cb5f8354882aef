// A single-line text input: ink-text-input, fed by the console's dispatcher through a private
// stdin (forwarded-keys.tsx says why). While focused it takes every printable key (so
// single-letter shortcuts are off) and the keymap's editing keys (the 'input' context); Enter,
// Tab, ↑/↓ and Esc fall through to the form. Not focused, it is plain text.
import { useReducer, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import InkTextInput from 'ink-text-input';
import { Priority, useKeypress } from '../hooks/keypress.js';
import { Command, commandFor } from '../keymap.js';
import { ForwardedStdin, KEY_BYTES, useForwardedKeys } from './forwarded-keys.js';

const MASK = '•';

export function TextInput(props: {
  value: string;
  onChange: (v: string) => void;
  focus: boolean;
  placeholder?: string;
  /** Show • for each character (keys, secrets). */
  mask?: boolean;
  /** What to show instead of the value while not focused. */
  display?: string;
  /** Tab handler (e.g. path completion); return true when used. */
  onTab?: () => boolean;
  /** Columns for the input: a longer value scrolls sideways around the cursor. */
  width?: number;
  /** A paste keeps its lines (the chat draft); otherwise they are joined into one. */
  multiline?: boolean;
}) {
  const { value, focus } = props;
  const { context, send } = useForwardedKeys();
  // ink-text-input keeps its cursor to itself; this copy (same rules) lets the console keep the
  // cursor inside the value (ink-text-input lets ← at the start go to -1, and typing then lands
  // before the last character), build Home/End/Delete from its keys, and scroll a long value.
  const cursor = useRef(value.length);
  // A value changed from outside (recalled input, a completion, a cleared line) starts a fresh
  // ink-text-input, whose cursor starts at the end, as a shell puts it.
  const sent = useRef(value);
  const [generation, setGeneration] = useState(0);
  if (sent.current !== value) {
    sent.current = value;
    cursor.current = value.length;
    setGeneration((g) => g + 1);
  }
  // Focusing mounts a fresh ink-text-input, cursor at the end.
  const wasFocused = useRef(focus);
  if (focus && !wasFocused.current) cursor.current = value.length;
  wasFocused.current = focus;
  const scroll = useRef(0);
  // A cursor move changes no value: render again so a long value scrolls with it.
  const [, cursorMoved] = useReducer((n: number) => n + 1, 0);

  const move = (to: number) => {
    const target = Math.max(0, Math.min(sent.current.length, to));
    while (cursor.current > target) {
      cursor.current--;
      send(KEY_BYTES.left);
    }
    while (cursor.current < target) {
      cursor.current++;
      send(KEY_BYTES.right);
    }
    cursorMoved();
  };
  const deleteBefore = () => {
    if (cursor.current === 0) return;
    cursor.current--;
    send(KEY_BYTES.backspace);
  };

  const insert = (text: string) => {
    if (!text) return;
    cursor.current += text.length;
    send(text);
  };

  useKeypress(
    (input, key) => {
      const cmd = commandFor(input, key, ['input']);
      if (cmd === Command.CursorLeft) move(cursor.current - 1);
      else if (cmd === Command.CursorRight) move(cursor.current + 1);
      else if (cmd === Command.LineStart) move(0);
      else if (cmd === Command.LineEnd) move(sent.current.length);
      else if (cmd === Command.DeleteBefore) deleteBefore();
      else if (cmd === Command.DeleteAt) {
        if (cursor.current < sent.current.length) {
          move(cursor.current + 1);
          deleteBefore();
        }
      } else if (key.tab && props.onTab) return props.onTab();
      else if (key.ctrl || key.meta || key.escape || key.return || key.tab || !input) return false;
      else insert(input.replace(/[\x00-\x1f\x7f]/g, ''));
      return true;
    },
    { priority: Priority.TextInput, active: focus, onPaste: (text) => (insert(pastedText(text, props.multiline ?? false)), true) },
  );

  const onChange = (v: string) => {
    sent.current = v;
    props.onChange(v);
  };

  if (!focus) {
    const shown = props.display ?? (props.mask ? MASK.repeat(value.length) : value);
    if (!shown && props.placeholder) return <Text dimColor>{props.placeholder}</Text>;
    return <Text>{shown}</Text>;
  }
  const input = (
    <ForwardedStdin context={context}>
      <InkTextInput key={generation} value={value} onChange={onChange} placeholder={props.placeholder} mask={props.mask ? MASK : undefined} />
    </ForwardedStdin>
  );
  const chars = [...value].length;
  const width = props.width;
  if (width === undefined || chars + 1 <= width) {
    scroll.current = 0;
    return input;
  }
  // Sideways scroll: '…' in the first column, then a window that keeps the cursor in view.
  const view = width - 1;
  const at = [...value.slice(0, cursor.current)].length;
  if (at - scroll.current >= view) scroll.current = at - view + 1;
  if (at < scroll.current) scroll.current = at;
  scroll.current = Math.max(0, Math.min(scroll.current, chars + 1 - view));
  return (
    <Box width={width}>
      <Text>{scroll.current > 0 ? '…' : ' '}</Text>
      <Box width={view} overflowX="hidden">
        <Box marginLeft={-scroll.current} width={chars + 1} flexShrink={0}>
          {input}
        </Box>
      </Box>
    </Box>
  );
}

/** Pasted text as an input takes it: line breaks kept as \n (multi-line) or joined by a space, tabs as spaces, no other control characters. */
export function pastedText(text: string, multiline: boolean): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(/[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/g, '');
  return multiline ? lines : lines.replace(/\n+/g, ' ');
}
