// A multi-line text input (the system prompt): the one TextInput, multi-line, where Enter adds a
// line; Tab and Esc go to the form, and ↑/↓ too once at the first/last row.
import { TextInput } from './TextInput.js';

export function TextArea(props: {
  value: string;
  onChange: (v: string) => void;
  focus: boolean;
  placeholder?: string;
  /** What to show instead of the value while not focused. */
  display?: string;
  /** Tab handler; return true when used. */
  onTab?: () => boolean;
  /** Cells wide. */
  width: number;
  /** Rows shown; a longer value scrolls around the cursor. */
  rows: number;
}) {
  return <TextInput {...props} multiline enterAddsLine />;
}
