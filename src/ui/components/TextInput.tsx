// The console's text input, one line or several, on the one editing model (../text-buffer.ts).
// While focused it takes every printable key as text (so single-letter shortcuts are off) and the
// keymap's editing keys (the 'input' context: ←/→, Alt-←/→ and Alt-b/f by word, Home/End and
// Ctrl-A/E, Backspace, Delete, Ctrl-U/K/W; in several lines ↑/↓ and the new-line keys); Enter, Tab
// (without a completion), Esc and ↑/↓ at the first/last row fall through to the form or screen.
// Not focused, it is plain text.
//
// Own-made rather than ink-text-input, which the stack names: that one counts UTF-16 code units
// (its cursor splits an emoji and its scrolling can't count cells), edits one line only, has no
// word or kill keys, and keeps its cursor where no one else can set it (src/README.md, Text inputs).
// It draws only the masked API key (MaskedInput.tsx).
import { useReducer, useRef } from 'react';
import { Box, Text } from 'ink';
import { Priority } from '../hooks/keypress.js';
import { useBindings, type Bindings } from '../hooks/bindings.js';
import { Command, type KeyContext } from '../keymap.js';
import { graphemes, truncateCells } from '../../format/cells.js';
import {
  cellsBetween,
  cursorAt,
  edit,
  insertText,
  nextBoundary,
  skipCells,
  sliceCells,
  verticalMove,
  wrapRows,
  type EditOp,
  type TextBuffer,
} from '../text-buffer.js';

const MASK = '•';
const INPUT: KeyContext[] = ['input'];

const OPS: Partial<Record<Command, EditOp>> = {
  [Command.CursorLeft]: 'left',
  [Command.CursorRight]: 'right',
  [Command.WordLeft]: 'wordLeft',
  [Command.WordRight]: 'wordRight',
  [Command.LineStart]: 'lineStart',
  [Command.LineEnd]: 'lineEnd',
  [Command.DeleteBefore]: 'deleteBefore',
  [Command.DeleteAt]: 'deleteAt',
  [Command.KillToLineStart]: 'killToLineStart',
  [Command.KillToLineEnd]: 'killToLineEnd',
  [Command.KillWordBefore]: 'killWordBefore',
};

/** Screen rows a multi-line input `width` cells wide needs for this text (one cell kept for the cursor). */
export function inputRows(text: string, width: number): number {
  return wrapRows(tabsAsSpaces(text), Math.max(1, width - 1)).length;
}

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
  /** Cells for the input: a longer value scrolls (sideways, or by rows when multi-line) around the cursor. */
  width?: number;
  /** Several lines: a paste keeps its lines, Alt-Enter/Ctrl-J add one, rows wrap and ↑/↓ move between them. */
  multiline?: boolean;
  /** Multi-line: Enter adds a line too (the system prompt; in the chat, Enter sends). */
  enterAddsLine?: boolean;
  /** Multi-line: at most this many rows show; more scroll. */
  rows?: number;
}) {
  const { value, focus } = props;
  // Keys can come faster than the parent re-renders (a burst in one read): each edit builds on the
  // last one, not on the possibly stale prop. A value changed from outside (recalled input, a
  // completion, a cleared line) puts the cursor at its end, as a shell does.
  const buf = useRef<TextBuffer>({ text: value, cursor: value.length });
  const sent = useRef(value);
  if (sent.current !== value) {
    sent.current = value;
    buf.current = { text: value, cursor: value.length };
  }
  const wasFocused = useRef(focus);
  if (focus && !wasFocused.current) buf.current = { text: value, cursor: value.length };
  wasFocused.current = focus;
  const scroll = useRef(0);
  // A cursor move changes no value: render again so the cursor (and a long value) moves.
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const width = props.width;
  const multiline = props.multiline ?? false;

  const apply = (next: TextBuffer) => {
    const changed = next.text !== buf.current.text;
    buf.current = next;
    if (changed) {
      sent.current = next.text;
      props.onChange(next.text);
    }
    rerender();
  };

  const bindings: Bindings = Object.fromEntries(Object.entries(OPS).map(([cmd, op]) => [cmd, () => apply(edit(buf.current, op))]));
  if (multiline) {
    const newLine = () => apply(insertText(buf.current, '\n'));
    bindings[Command.NewLine] = newLine;
    if (props.enterAddsLine) bindings[Command.LineBreak] = newLine;
    if (width !== undefined) {
      // ↑ on the first row (↓ on the last) is not the input's: the chat recalls, a form moves.
      const row = (dir: -1 | 1) => () => {
        const { text, cursor } = buf.current;
        const to = verticalMove(tabsAsSpaces(text), wrapRows(tabsAsSpaces(text), Math.max(1, width - 1)), cursor, dir);
        if (to === null) return false;
        apply({ text, cursor: to });
      };
      bindings[Command.LineUp] = row(-1);
      bindings[Command.LineDown] = row(1);
    }
  }
  if (props.onTab) bindings[Command.Complete] = props.onTab;
  useBindings(INPUT, bindings, {
    priority: Priority.TextInput,
    active: focus,
    onText: (text) => apply(insertText(buf.current, text)),
    onPaste: (text) => (apply(insertText(buf.current, pastedText(text, multiline, props.enterAddsLine))), true),
  });

  // A hint is cut to the box (in cells): wrapped, it would run into the row below it.
  const placeholder = props.placeholder && width !== undefined ? truncateCells(props.placeholder, Math.max(1, width - 1)) : props.placeholder;
  if (!focus) {
    const shown = props.display ?? (props.mask ? masked(value) : value);
    if (!shown && placeholder) return <Text dimColor>{placeholder}</Text>;
    return <Text>{shown}</Text>;
  }
  const shown = props.mask ? maskedBuffer(buf.current) : buf.current;
  // A tab (kept in a pasted prompt) shows as one space: same length, so indexes still match.
  const text = tabsAsSpaces(shown.text);
  const cursor = shown.cursor;
  if (!text && placeholder) {
    const first = graphemes(placeholder)[Symbol.iterator]().next().value?.segment ?? '';
    return (
      <Text>
        <Text inverse>{first}</Text>
        <Text dimColor>{placeholder.slice(first.length)}</Text>
      </Text>
    );
  }
  if (multiline && width !== undefined) return <Rows text={text} cursor={cursor} width={width} rows={props.rows ?? 3} scroll={scroll} />;

  const total = cellsBetween(text, 0, text.length) + 1;
  if (width === undefined || total <= width) {
    scroll.current = 0;
    return <WithCursor text={text} cursor={cursor} from={0} cells={Infinity} />;
  }
  // Sideways scroll: '…' in the first column when scrolled, then a window that keeps the cursor in view.
  const view = width - 1;
  const at = cellsBetween(text, 0, cursor);
  if (at - scroll.current >= view) scroll.current = at - view + 1;
  if (at < scroll.current) scroll.current = at;
  scroll.current = Math.max(0, Math.min(scroll.current, total - view));
  const from = skipCells(text, 0, scroll.current);
  return (
    <Text>
      {scroll.current > 0 ? '…' : ' '}
      <WithCursor text={text} cursor={Math.max(cursor, from)} from={from} cells={view} />
    </Text>
  );
}

/** text[from…] for at most `cells` cells, the glyph at the cursor (or a space at the end) inverse. */
function WithCursor({ text, cursor, from, to, cells }: { text: string; cursor: number; from: number; to?: number; cells: number }) {
  const end = to ?? text.length;
  const before = text.slice(from, cursor);
  const glyphEnd = Math.min(end, nextBoundary(text, cursor));
  const glyph = cursor < end ? text.slice(cursor, glyphEnd) : ' ';
  const left = cells === Infinity ? Infinity : cells - cellsBetween(text, from, cursor) - (cursor < end ? cellsBetween(text, cursor, glyphEnd) : 1);
  const after = left === Infinity ? text.slice(glyphEnd, end) : sliceCells(text.slice(0, end), glyphEnd, Math.max(0, left)).text;
  return (
    <Text>
      {before}
      <Text inverse>{glyph}</Text>
      {after}
    </Text>
  );
}

/** A multi-line value: its rows wrapped to the width, a window of `rows` of them that keeps the cursor's row in view. */
function Rows({ text, cursor, width, rows, scroll }: { text: string; cursor: number; width: number; rows: number; scroll: { current: number } }) {
  const all = wrapRows(text, Math.max(1, width - 1));
  const at = cursorAt(text, all, cursor).row;
  const height = Math.max(1, Math.min(rows, all.length));
  if (at >= scroll.current + height) scroll.current = at - height + 1;
  if (at < scroll.current) scroll.current = at;
  scroll.current = Math.max(0, Math.min(scroll.current, all.length - height));
  const shown = all.slice(scroll.current, scroll.current + height);
  return (
    <Box flexDirection="column" width={width} height={height}>
      {shown.map((r, i) =>
        scroll.current + i === at ? (
          <WithCursor key={i} text={text} cursor={cursor} from={r.start} to={r.end} cells={Infinity} />
        ) : (
          <Text key={i}>{text.slice(r.start, r.end) || ' '}</Text>
        ),
      )}
    </Box>
  );
}

function masked(text: string): string {
  return MASK.repeat([...graphemes(text)].length);
}
function maskedBuffer(b: TextBuffer): TextBuffer {
  return { text: masked(b.text), cursor: [...graphemes(b.text.slice(0, b.cursor))].length };
}

/**
 * Pasted text as an input takes it: line breaks kept as \n (multi-line) or joined by a space, tabs
 * kept (a prompt) or as spaces, no other control characters.
 */
function pastedText(text: string, multiline: boolean, keepTabs = false): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, keepTabs ? '\t' : ' ')
    .replace(/[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g, '');
  return multiline ? lines : lines.replace(/\n+/g, ' ');
}

function tabsAsSpaces(text: string): string {
  return text.includes('\t') ? text.replace(/\t/g, ' ') : text;
}
