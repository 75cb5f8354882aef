// A single- or multi-line text input. While focused it takes every printable key (so single-letter
// shortcuts are off), Backspace, and — when multi-line — Enter; other keys fall through to the form.
import { useRef } from 'react';
import { Text } from 'ink';
import { Priority, useKeypress } from '../hooks/keypress.js';

export function TextInput(props: {
  value: string;
  onChange: (v: string) => void;
  focus: boolean;
  multiline?: boolean;
  placeholder?: string;
  mask?: boolean;
  /** What to show instead of the value (a multi-line field shows its current line). */
  display?: string;
  /** Tab handler (e.g. path completion); return true when used. */
  onTab?: () => boolean;
}) {
  const { focus, multiline } = props;
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
        if (!multiline) return false;
        onChange(value + '\n');
        return true;
      }
      if (key.tab && props.onTab) return props.onTab();
      if (key.escape || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return false;
      if (key.ctrl || key.meta) return false;
      if (!input) return false;
      // A paste arrives as one string; keep newlines only in multi-line inputs.
      const text = multiline ? input.replace(/\r\n?/g, '\n') : input.replace(/[\r\n]+/g, ' ');
      onChange(value + text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ''));
      return true;
    },
    { priority: Priority.TextInput, active: focus },
  );
  const value = props.value;
  const shown = props.display ?? (props.mask ? '•'.repeat(value.length) : value);
  if (!shown && props.placeholder && !focus) return <Text dimColor>{props.placeholder}</Text>;
  return (
    <Text>
      {shown}
      {focus ? <Text inverse> </Text> : null}
    </Text>
  );
}
