// A small key=value editor for a session's variable values ({{name}} in the assistant's prompt and
// first message). One line per variable (blank lines are dropped); Enter adds a line (and saves
// from an empty last line), ↑/↓ move, Ctrl-S saves, Esc cancels.
import { useState } from 'react';
import { Box, Text } from 'ink';
import type { Variables } from '../../../store/chat.js';
import { TextInput } from '../../components/TextInput.js';
import { Priority } from '../../hooks/keypress.js';
import { useBindings } from '../../hooks/bindings.js';
import { Command } from '../../keymap.js';
import { truncate } from '../../../format/display.js';
import { useTheme } from '../../hooks/theme-context.js';

const LINE = /^\s*([\w.-]+)\s*=(.*)$/;

/** The variables of the editor's lines (blank lines skipped), or the first bad line named. */
export function parseVariables(lines: string[]): { vars: Variables } | { error: string } {
  const vars: Variables = {};
  for (const [i, raw] of lines.entries()) {
    if (!raw.trim()) continue;
    const m = LINE.exec(raw);
    if (!m) return { error: `Line ${i + 1} ("${truncate(raw.trim(), 30)}") is not key=value; a key is letters, digits, _ . or -` };
    vars[m[1]] = m[2].trim();
  }
  return { vars };
}

export function VariablesEditor(props: { initial: Variables; width: number; onSave: (vars: Variables) => void; onCancel: () => void }) {
  const theme = useTheme();
  const [lines, setLines] = useState(() => [...Object.entries(props.initial).map(([k, v]) => `${k}=${v}`), '']);
  const [focus, setFocus] = useState(() => lines.length - 1);
  const [error, setError] = useState<string | null>(null);

  const save = () => {
    const r = parseVariables(lines);
    if ('error' in r) setError(r.error);
    else props.onSave(r.vars);
  };
  useBindings(
    ['form'],
    {
      [Command.Cancel]: props.onCancel,
      [Command.Submit]: save,
      [Command.NextField]: () => setFocus((f) => Math.min(lines.length - 1, f + 1)),
      [Command.PrevField]: () => setFocus((f) => Math.max(0, f - 1)),
      // Enter: a new line after this one; on an empty last line, save.
      [Command.FieldEnter]: () => {
        if (focus === lines.length - 1 && !lines[focus].trim()) save();
        else {
          setLines((ls) => [...ls.slice(0, focus + 1), '', ...ls.slice(focus + 1)]);
          setFocus(focus + 1);
        }
      },
    },
    { priority: Priority.Overlay },
  );
  const edit = (v: string) => {
    setError(null);
    setLines((ls) => ls.map((l, i) => (i === focus ? v : l)));
  };
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={theme.warning} paddingX={1} width={Math.min(props.width, 72)}>
      <Text bold>Variables — sent with every message of this session</Text>
      {lines.map((l, i) => (
        <Text key={i}>
          <Text color={i === focus ? theme.warning : undefined}>{i === focus ? '› ' : '  '}</Text>
          {i === focus ? (
            <TextInput value={l} onChange={edit} focus placeholder="name=value" width={Math.max(10, Math.min(props.width, 72) - 6)} />
          ) : (
            <Text>{l || ' '}</Text>
          )}
        </Text>
      ))}
      {error ? <Text color={theme.error}>{error}</Text> : null}
      <Text dimColor>Enter new line · ↑↓ move · Ctrl-S save · Esc cancel</Text>
    </Box>
  );
}
