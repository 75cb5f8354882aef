// A keyboard form: text (the one TextInput, one line or several), number (validated as you type),
// choice (←/→/Space cycle in place; Enter lists the options in an ink-select-input list; a free
// choice also takes a typed value: its last option, "type another…", turns it into a text input), toggle.
// Long forms scroll around the focused field. Tab/↓ next, Shift-Tab/↑ previous, Ctrl-S or Enter on
// the last row saves, Esc cancels (asking first when something changed).
import { useState, type ReactElement } from 'react';
import { Box, Text } from 'ink';
import { Priority, useHoldKeys } from '../hooks/keypress.js';
import { useBindings } from '../hooks/bindings.js';
import { useDialogOpen, useOptionalActions } from '../../store/index.js';
import { Command } from '../keymap.js';
import { TextInput, inputRows } from './TextInput.js';
import { TextArea } from './TextArea.js';
import { MaskedInput } from './MaskedInput.js';
import { ChoiceList } from './ChoiceList.js';
import { truncate, wrapText } from '../../format/display.js';
import { cellWidth } from '../../format/cells.js';
import { escapeLine, escapeText } from '../../format/escape.js';
import { useTheme } from '../hooks/theme-context.js';

/** Rows a focused multi-line field shows before it scrolls. */
const MULTILINE_ROWS = 5;

/** What Tab made of a text field: the new text, and the names it could still become when several match. */
interface Completion {
  value: string;
  choices: string[];
}

export type FormValues = Record<string, string | boolean>;
export interface Option {
  value: string;
  label?: string;
}

interface Base {
  key: string;
  label: string;
  hint?: string;
  /** A group title printed above this field. */
  group?: string;
}
export type Field =
  | (Base & {
      kind: 'text';
      required?: boolean;
      multiline?: boolean;
      /** A secret (an API key): drawn masked, never shown (components/MaskedInput.tsx). */
      mask?: boolean;
      validate?: (v: string) => string | null;
      complete?: (v: string) => Completion | null;
    })
  | (Base & { kind: 'number'; integer?: boolean; min?: number; max?: number; required?: boolean })
  /** free: the options are suggestions; any typed value is kept (the list ends with "type another…"). */
  | (Base & { kind: 'select'; options: (values: FormValues) => Option[]; free?: boolean })
  | (Base & { kind: 'toggle' });

/** The error of one field's current value, or null. */
function fieldError(f: Field, values: FormValues): string | null {
  const v = values[f.key];
  if (f.kind === 'text') {
    const s = String(v ?? '');
    if (f.required && !s.trim()) return `${f.label} is required`;
    return s.trim() && f.validate ? f.validate(s.trim()) : null;
  }
  if (f.kind === 'number') {
    const s = String(v ?? '').trim();
    if (!s) return f.required ? `${f.label} is required` : null;
    const n = Number(s);
    if (!Number.isFinite(n)) return `${f.label} must be a number`;
    if (f.integer && !Number.isInteger(n)) return `${f.label} must be a whole number`;
    if (f.min !== undefined && n < f.min) return `${f.label} must be at least ${f.min}`;
    if (f.max !== undefined && n > f.max) return `${f.label} must be at most ${f.max}`;
  }
  return null;
}

/** The value of a free choice's last option, which turns the field into a text input. */
export const TYPE_ANOTHER = '\u0000type another';

/**
 * Values with every select pointing at an option that exists (a provider change resets its
 * model). A free choice keeps any value typed into it; given the values `before` a change, one
 * that was a listed option of those values and is none of the new ones is reset like any other.
 * `typing`: the free choice being typed into, whose value (even empty) is kept as it is.
 */
export function normalize(fields: Field[], values: FormValues, before?: FormValues, typing?: string): FormValues {
  const out = { ...values };
  for (const f of fields) {
    if (f.kind !== 'select' || f.key === typing) continue;
    const opts = f.options(out);
    const v = out[f.key];
    if (opts.some((o) => o.value === v)) continue;
    const typed = f.free && typeof v === 'string' && v !== '' && !(before && f.options(before).some((o) => o.value === v));
    if (!typed) out[f.key] = opts[0]?.value ?? '';
  }
  return out;
}

/** A choice field's options as shown: a free one also lists the value typed into it and, last, "type another…". */
export function choicesOf(f: Field & { kind: 'select' }, values: FormValues): Option[] {
  const opts = f.options(values);
  if (!f.free) return opts;
  const v = String(values[f.key] ?? '');
  const typed = v && !opts.some((o) => o.value === v) ? [{ value: v, label: `${v} (typed)` }] : [];
  return [...opts, ...typed, { value: TYPE_ANOTHER, label: 'type another…' }];
}

export function Form(props: {
  title: string;
  fields: Field[];
  initial: FormValues;
  submitLabel: string;
  width: number;
  height: number;
  onSubmit: (values: FormValues) => Promise<void> | void;
  onCancel: () => void;
  /** Errors from outside (the service's 400 naming a field), by field key: shown under their fields until changed. */
  errors?: Record<string, string>;
}) {
  const theme = useTheme();
  const { fields, width } = props;
  const [values, setValues] = useState<FormValues>(() => normalize(fields, props.initial));
  const [focus, setFocus] = useState(0);
  const [busy, setBusy] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  // The focused choice field's options are listed (Enter) until one is chosen or Esc.
  const [choosing, setChoosing] = useState(false);
  // The free choice being typed into ("type another…"), and its value before, for Esc.
  const [typing, setTyping] = useState<{ key: string; was: string | boolean } | null>(null);
  const submitRow = fields.length;
  const current = fields[focus];
  // The errors given from outside, each until its field changes; a new set focuses its first field.
  const [outside, setOutside] = useState<{ given?: Record<string, string>; left: Record<string, string> }>({ left: {} });
  if (props.errors !== outside.given) {
    const left = { ...(props.errors ?? {}) };
    setOutside({ given: props.errors, left });
    const first = fields.findIndex((f) => left[f.key]);
    if (first >= 0) {
      setFocus(first);
      setTyping(null);
    }
  }
  const moveFocus = (to: (f: number) => number) => {
    setTyping(null);
    setChoosing(false);
    setFocus(to);
  };

  // The names a Tab completion could still become, listed under the field until it changes.
  const [choices, setChoices] = useState<{ key: string; list: string[] } | null>(null);
  const set = (key: string, v: string | boolean) => {
    setChoices(null);
    if (outside.left[key] !== undefined) setOutside((o) => ({ ...o, left: Object.fromEntries(Object.entries(o.left).filter(([k]) => k !== key)) }));
    const typed = v === TYPE_ANOTHER || typing?.key === key;
    if (v === TYPE_ANOTHER) {
      // The field becomes a text input, empty, until focus leaves it (Esc gives back what it had).
      setTyping({ key, was: values[key] ?? '' });
      v = '';
    }
    const value = v;
    setValues((old) => normalize(fields, { ...old, [key]: value }, old, typed ? key : undefined));
  };
  const actions = useOptionalActions();
  // Esc on a changed form asks first; an unchanged one just leaves, and so does a form of one line
  // (a path to upload): typing it again costs less than the question.
  const [opened] = useState(() => normalize(fields, props.initial));
  const oneLine = fields.length === 1 && fields[0].kind === 'text' && !fields[0].multiline;
  const changed = !oneLine && fields.some((f) => (values[f.key] ?? '') !== (opened[f.key] ?? ''));
  // While a dialog asks (discard, or one the submit opened), the form's inputs take no keys (an n is the dialog's).
  const [discarding, setAsking] = useState(false);
  const asking = useDialogOpen() || discarding;
  const cancel = () => {
    if (!changed || !actions) return props.onCancel();
    setAsking(true);
    const n = fields.filter((f) => (values[f.key] ?? '') !== (opened[f.key] ?? '')).length;
    actions.confirm({
      title: 'Discard your changes?',
      message: `${n} changed field${n === 1 ? '' : 's'} in "${props.title}" would be lost.`,
      confirmLabel: 'discard the changes',
      onConfirm: props.onCancel,
      onDecline: () => setAsking(false),
    });
  };
  const submit = async () => {
    const firstBad = fields.findIndex((f) => fieldError(f, values));
    if (firstBad >= 0) {
      setShowErrors(true);
      moveFocus(() => firstBad);
      return;
    }
    setTyping(null);
    setBusy(true);
    try {
      await props.onSubmit(values);
    } finally {
      setBusy(false);
    }
  };
  const cycle = (dir: number) => {
    if (!current) return;
    if (current.kind === 'toggle') set(current.key, !values[current.key]);
    if (current.kind === 'select') {
      if (typing?.key === current.key) return; // the arrows are the text input's
      const opts = choicesOf(current, values);
      const i = opts.findIndex((o) => o.value === values[current.key]);
      set(current.key, opts[(i + dir + opts.length) % opts.length]?.value ?? '');
    }
  };

  const typingHere = typing !== null && typing.key === current?.key;
  // ← → Space cycle a toggle or a choice only: on a text field they are the input's (the footer offers them only here).
  const cycles = current?.kind === 'toggle' || (current?.kind === 'select' && !typingHere);
  // While saving, every key waits and then goes on in order (to the form if the save failed, else to
  // the screen it leaves for): typed into the form, it would change values already sent.
  useHoldKeys(busy);
  // While a dialog asks, the keys are its.
  useBindings(
    ['form'],
    busy
      ? {}
      : {
          // Esc while typing a free choice gives back what it had; else leave (asking first when changed).
          [Command.Cancel]: () => {
            if (!typingHere) return cancel();
            setValues((old) => ({ ...old, [typing.key]: typing.was }));
            setTyping(null);
          },
          [Command.Submit]: () => void submit(),
          [Command.NextField]: () => moveFocus((f) => Math.min(submitRow, f + 1)),
          [Command.PrevField]: () => moveFocus((f) => Math.max(0, f - 1)),
          [Command.OptionPrevious]: cycles && (() => cycle(-1)),
          [Command.Toggle]: cycles && (() => cycle(1)),
          [Command.FieldEnter]: () => {
            if (current?.kind === 'select' && !typingHere) setChoosing(true);
            else if (focus === submitRow) void submit();
            else moveFocus((f) => f + 1);
          },
        },
    { priority: Priority.Overlay, active: busy || !asking, modal: busy },
  );

  const labelWidth = Math.min(28, Math.floor(width / 3));
  const listRows = Math.max(2, Math.min(8, props.height - 6));
  const valueWidth = Math.max(10, width - labelWidth - 2);
  // Each field renders as one or more lines; scroll so the focused one is in view.
  const blocks = fields.map((f, i) => {
    const err = (showErrors || f.kind === 'number' ? fieldError(f, values) : null) ?? outside.left[f.key] ?? null;
    const focused = i === focus && !asking;
    const v = values[f.key];
    // One entry per terminal row (a taller element is followed by nulls for its other rows).
    const lines: (ReactElement | null)[] = [];
    if (f.group)
      lines.push(
        <Text key={`${f.key}-g`} bold color={theme.accent}>
          {f.group}
        </Text>,
      );
    let valueEl: ReactElement;
    // Rows the value takes (a focused multi-line value is taller).
    let tall = 1;
    let after: (ReactElement | null)[] = [];
    if (f.kind === 'text' || f.kind === 'number') {
      const s = String(v ?? '');
      const complete = f.kind === 'text' && f.complete ? f.complete : undefined;
      // Tab completes; with several matches it lists them and stays in the field.
      const onTab = complete
        ? () => {
            const c = complete(s);
            if (c === null) return false;
            if (c.value !== s) set(f.key, c.value);
            setChoices(c.choices.length > 1 ? { key: f.key, list: c.choices } : null);
            return true;
          }
        : undefined;
      // A multi-line value is a box of up to five rows while focused (it scrolls around the cursor), its first line otherwise.
      if (f.kind === 'text' && f.mask) {
        valueEl = <MaskedInput value={s} width={valueWidth} onChange={(nv) => set(f.key, nv)} focus={focused} placeholder={f.hint} />;
      } else if (f.kind === 'text' && f.multiline) {
        // Service text is edited as shown: escaped (a value left alone is saved unchanged).
        const shown = escapeText(s);
        let display: string | undefined;
        if (focused) {
          const rows = Math.min(MULTILINE_ROWS, inputRows(shown, valueWidth));
          valueEl = <TextArea value={shown} width={valueWidth} rows={rows} onChange={(nv) => set(f.key, nv)} focus placeholder={f.hint} onTab={onTab} />;
          tall = rows;
        } else {
          const wrapped = wrapText(s, valueWidth - 1);
          display = truncate(wrapped[0] ?? '', valueWidth - 2) + (wrapped.length > 1 ? ' …' : '');
          valueEl = (
            <TextArea
              value={shown}
              width={valueWidth}
              rows={1}
              display={display}
              onChange={(nv) => set(f.key, nv)}
              focus={false}
              placeholder={f.hint}
              onTab={onTab}
            />
          );
        }
      } else {
        // One row per field: a long value scrolls sideways while focused and shows its start otherwise.
        const shown = escapeLine(s);
        const display = cellWidth(shown) > valueWidth - 1 ? truncate(shown, valueWidth) : undefined;
        valueEl = (
          <TextInput value={shown} display={display} width={valueWidth} onChange={(nv) => set(f.key, nv)} focus={focused} placeholder={f.hint} onTab={onTab} />
        );
      }
    } else if (f.kind === 'select' && typing?.key === f.key && focused) {
      // A free choice being typed into: one row of text, as a text field.
      const s = String(v ?? '');
      const shown = escapeLine(s);
      const display = cellWidth(shown) > valueWidth - 1 ? truncate(shown, valueWidth) : undefined;
      valueEl = (
        <TextInput
          value={shown}
          display={display}
          width={valueWidth}
          onChange={(nv) => set(f.key, nv)}
          focus
          placeholder="type a value; Esc gives back the list"
        />
      );
    } else if (f.kind === 'select') {
      const opts = choicesOf(f, values);
      const i = opts.findIndex((o) => o.value === v);
      const o = opts[i];
      valueEl = (
        <Text>
          {focused ? '‹ ' : ''}
          {truncate(o ? escapeLine(o.label ?? o.value) : '(none)', valueWidth - 12)}
          {focused ? ` ›  ${i + 1}/${opts.length}` : ''}
        </Text>
      );
      if (focused && choosing && opts.length > 0) {
        const rows = Math.min(opts.length, listRows);
        after = [
          <Box key={`${f.key}-list`} marginLeft={labelWidth + 2} height={rows}>
            <ChoiceList
              choices={opts.map((x) => ({ label: x.label ?? x.value, value: x.value }))}
              initial={v}
              width={valueWidth}
              limit={listRows}
              onChoose={(value) => {
                set(f.key, value);
                setChoosing(false);
              }}
              onCancel={() => setChoosing(false)}
            />
          </Box>,
          ...Array.from({ length: rows - 1 }, () => null),
        ];
      }
    } else {
      valueEl = <Text>{v ? '[x] yes' : '[ ] no'}</Text>;
    }
    lines.push(
      <Box key={f.key} height={tall}>
        <Box width={labelWidth + 2} flexShrink={0}>
          <Text color={focused ? theme.warning : undefined} bold={focused}>
            {`${focused ? '› ' : '  '}${truncate(f.label, labelWidth)}`}
          </Text>
        </Box>
        <Box width={valueWidth}>{valueEl}</Box>
      </Box>,
      ...Array.from({ length: tall - 1 }, () => null),
    );
    lines.push(...after);
    if (focused && choices?.key === f.key) {
      const shownChoices = wrapText(choices.list.join('  '), valueWidth).slice(0, 3);
      shownChoices.forEach((l, n) =>
        lines.push(
          <Text key={`${f.key}-c${n}`} color={theme.accent}>
            {' '.repeat(labelWidth + 2)}
            {l}
          </Text>,
        ),
      );
    }
    if (focused && (f.kind === 'text' || f.kind === 'number') && f.hint && v)
      lines.push(
        <Text key={`${f.key}-h`} dimColor>
          {' '.repeat(labelWidth + 2)}
          {truncate(f.hint, valueWidth)}
        </Text>,
      );
    // Whole, wrapped under its field: nothing else on a form shows it (the `!` of the message view types here).
    if (err)
      wrapText(err, valueWidth).forEach((l, n) =>
        lines.push(
          <Text key={`${f.key}-e${n}`} color={theme.error}>
            {' '.repeat(labelWidth + 2)}
            {l}
          </Text>,
        ),
      );
    return lines;
  });
  blocks.push([
    <Text key="submit" inverse={focus === submitRow} color={focus === submitRow ? theme.good : undefined}>
      {busy ? '  … working' : `  [ ${props.submitLabel} ]`}
    </Text>,
  ]);
  const bodyHeight = Math.max(3, props.height - 2);
  const start = blocks.slice(0, focus).reduce((n, b) => n + b.length, 0);
  const all = blocks.flat();
  const focusLen = blocks[focus]?.length ?? 1;
  let scroll = 0;
  if (start + focusLen > bodyHeight) scroll = start + focusLen - bodyHeight;
  return (
    <Box flexDirection="column" height={props.height} width={width}>
      <Text bold>
        {escapeLine(props.title)}
        <Text dimColor>{`  (${focus < submitRow ? focus + 1 : submitRow}/${submitRow})`}</Text>
      </Text>
      {all.slice(scroll, scroll + bodyHeight)}
    </Box>
  );
}
