// A multi-line text input (the system prompt): Enter adds a line, Backspace deletes the last
// character, printable keys and pastes (lines kept) append; Tab, arrows and Esc fall through to the form.
// Own-made: ink-text-input edits a single line only (Enter submits there).
import { useRef } from 'react';
import { Text } from 'ink';
import { Priority, useKeypress } from '../hooks/keypress.js';

export function TextArea(props: {
  value: string;
  onChange: (v: string) => void;
  focus: boolean;
  placeholder?: string;
  /** What to show instead of the value (the form shows the line being typed on). */
  display?: string;
  /** Tab handler; return true when used. */
  onTab?: () => boolean;
}) {
  const { focus } = props;
  // Keys can arrive faster than React re-renders (a paste, a held Backspace): build each change on
  // the last one we sent rather than on the possibly stale prop.
  const latest = useRef(props.value);
  latest.current = props.value;
  const onChange = (v: string) => {
    latest.current = v;
    props.onChange(v);
  };
  useKeypress(
    (input, key) => {
      const value = latest.current;
      if (key.backspace || key.delete) {
        onChange([...value].slice(0, -1).join(''));
        return true;
      }
      if (key.return) {
        onChange(value + '\n');
        return true;
      }
      if (key.tab && props.onTab) return props.onTab();
      if (key.escape || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return false;
      if (key.ctrl || key.meta) return false;
      if (!input) return false;
      onChange(value + input.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ''));
      return true;
    },
    {
      priority: Priority.TextInput,
      active: focus,
      onPaste: (text) => (onChange(latest.current + text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g, '')), true),
    },
  );
  const shown = props.display ?? props.value;
  if (!shown && props.placeholder && !focus) return <Text dimColor>{props.placeholder}</Text>;
  return (
    <Text>
      {shown}
      {focus ? <Text inverse> </Text> : null}
    </Text>
  );
}
