// The one text-editing model behind every input (after gemini-cli's text-buffer): pure functions
// over { text, cursor }, where cursor is an index into text that always sits on a grapheme
// boundary (an emoji, a ZWJ sequence or a letter with combining marks moves and deletes as one).
// Line keys (Home/End, Ctrl-U, Ctrl-K) work on the logical line the cursor is on; layout turns
// the text into rows of terminal cells for a box `width` cells wide and says where the cursor is.
import { glyphWidth, graphemes } from '../format/cells.js';

export interface TextBuffer {
  text: string;
  cursor: number;
}

export type EditOp =
  'left' | 'right' | 'wordLeft' | 'wordRight' | 'lineStart' | 'lineEnd' | 'deleteBefore' | 'deleteAt' | 'killToLineStart' | 'killToLineEnd' | 'killWordBefore';

/** Code units either side of the cursor looked at to find a grapheme boundary (a ZWJ family is 11). */
const SPAN = 64;
const simple = (c: number) => c >= 0x20 && c < 0x7f;

/** The grapheme boundary before `i` (0 at the start). */
function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  if (simple(text.charCodeAt(i - 1)) && (i < 2 || simple(text.charCodeAt(i - 2)) || text.charCodeAt(i - 2) === 10)) return i - 1;
  const lo = Math.max(0, i - SPAN);
  let last = lo;
  for (const { index } of graphemes(text.slice(lo, i))) last = lo + index;
  return last;
}

/** The grapheme boundary after `i` (text.length at the end). */
export function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (simple(text.charCodeAt(i)) && (i + 1 >= text.length || simple(text.charCodeAt(i + 1)) || text.charCodeAt(i + 1) === 10)) return i + 1;
  const segments = graphemes(text.slice(i, i + SPAN));
  const first = segments[Symbol.iterator]().next();
  return first.done ? text.length : i + first.value.segment.length;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const isWord = (text: string, i: number) => WORD.test(text[i] ?? '');
const isSpace = (text: string, i: number) => /\s/.test(text[i] ?? '');

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}
function lineEnd(text: string, cursor: number): number {
  const n = text.indexOf('\n', cursor);
  return n < 0 ? text.length : n;
}

/** The buffer with `insert` typed at the cursor. */
export function insertText(b: TextBuffer, insert: string): TextBuffer {
  if (!insert) return b;
  return { text: b.text.slice(0, b.cursor) + insert + b.text.slice(b.cursor), cursor: b.cursor + insert.length };
}

/** The buffer after one editing key. */
export function edit(b: TextBuffer, op: EditOp): TextBuffer {
  const { text } = b;
  const cursor = Math.max(0, Math.min(text.length, b.cursor));
  const cut = (from: number, to: number): TextBuffer => ({ text: text.slice(0, from) + text.slice(to), cursor: from });
  switch (op) {
    case 'left':
      return { text, cursor: prevBoundary(text, cursor) };
    case 'right':
      return { text, cursor: nextBoundary(text, cursor) };
    case 'wordLeft': {
      // Back over what is not a word, then to the start of the word (readline's backward-word).
      let i = cursor;
      while (i > 0 && !isWord(text, i - 1)) i--;
      while (i > 0 && isWord(text, i - 1)) i--;
      return { text, cursor: i };
    }
    case 'wordRight': {
      // Forward over what is not a word, then to the end of the word (readline's forward-word).
      let i = cursor;
      while (i < text.length && !isWord(text, i)) i++;
      while (i < text.length && isWord(text, i)) i++;
      return { text, cursor: i };
    }
    case 'lineStart':
      return { text, cursor: lineStart(text, cursor) };
    case 'lineEnd':
      return { text, cursor: lineEnd(text, cursor) };
    case 'deleteBefore':
      return cursor === 0 ? { text, cursor } : cut(prevBoundary(text, cursor), cursor);
    case 'deleteAt':
      return cursor === text.length ? { text, cursor } : { text: text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor };
    case 'killToLineStart': {
      // At the start of a line, join it to the one above (as Backspace would).
      const from = lineStart(text, cursor);
      return from === cursor ? edit({ text, cursor }, 'deleteBefore') : cut(from, cursor);
    }
    case 'killToLineEnd': {
      const to = lineEnd(text, cursor);
      return to === cursor ? edit({ text, cursor }, 'deleteAt') : cut(cursor, to);
    }
    case 'killWordBefore': {
      // Ctrl-W as in a shell: the blanks before the cursor, then the non-blanks before them.
      let i = cursor;
      while (i > 0 && isSpace(text, i - 1)) i--;
      while (i > 0 && !isSpace(text, i - 1)) i--;
      return cut(i, cursor);
    }
  }
}

/** One screen row of a laid-out text: text[start, end), `width` cells. */
export interface Row {
  start: number;
  end: number;
  width: number;
}

/**
 * The text as rows of at most `width` cells: each line word-wrapped (a row breaks after a blank
 * where it can, inside a word where it must; a wide glyph is never split). Linear in the text.
 */
export function wrapRows(text: string, width: number): Row[] {
  const w = Math.max(1, width);
  const rows: Row[] = [];
  let lineFrom = 0;
  for (;;) {
    const nl = text.indexOf('\n', lineFrom);
    const lineTo = nl < 0 ? text.length : nl;
    wrapLine(text, lineFrom, lineTo, w, rows);
    if (nl < 0) break;
    lineFrom = nl + 1;
  }
  return rows;
}

function wrapLine(text: string, from: number, to: number, w: number, rows: Row[]) {
  let start = from;
  let used = 0;
  // Just after the last blank on this row, and the cells from there.
  let brk = -1;
  let sinceBrk = 0;
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    const next = simple(c) ? i + 1 : nextBoundary(text, i);
    const gw = simple(c) ? 1 : glyphWidth(text.slice(i, next));
    if (used + gw > w && i > start) {
      if (brk > start) {
        rows.push({ start, end: brk, width: used - sinceBrk });
        start = brk;
        used = sinceBrk;
      } else {
        rows.push({ start, end: i, width: used });
        start = i;
        used = 0;
      }
      brk = -1;
      sinceBrk = 0;
    }
    used += gw;
    sinceBrk += gw;
    if (c === 32) {
      brk = next;
      sinceBrk = 0;
    }
    i = next;
  }
  rows.push({ start, end: to, width: used });
}

/** Cells from `from` to `to` in the text. */
export function cellsBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to;) {
    const c = text.charCodeAt(i);
    if (simple(c)) {
      n++;
      i++;
      continue;
    }
    const next = nextBoundary(text, i);
    n += glyphWidth(text.slice(i, next));
    i = next;
  }
  return n;
}

/** The row the cursor is on and its column in cells. A cursor at a wrap point is at the start of the next row. */
export function cursorAt(text: string, rows: Row[], cursor: number): { row: number; col: number } {
  let r = 0;
  // Binary search: the last row starting at or before the cursor.
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].start <= cursor) {
      r = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return { row: r, col: cellsBetween(text, rows[r].start, Math.min(cursor, rows[r].end)) };
}

/** The cursor one row up (-1) or down (+1) at about the same column, or null at the first / last row. */
export function verticalMove(text: string, rows: Row[], cursor: number, dir: -1 | 1): number | null {
  const { row, col } = cursorAt(text, rows, cursor);
  const target = rows[row + dir];
  if (!target) return null;
  let i = target.start;
  let used = 0;
  while (i < target.end) {
    const next = nextBoundary(text, i);
    const gw = glyphWidth(text.slice(i, next));
    if (used + gw > col) break;
    used += gw;
    i = next;
  }
  // The end of a wrapped row is the start of the next one: stay on this row.
  if (i === target.end && row + dir + 1 < rows.length && rows[row + dir + 1].start === i && i > target.start) i = prevBoundary(text, i);
  return i;
}

/** The text from `from` for at most `cells` cells (a wide glyph that would not fit is left out), and where it stops. */
export function sliceCells(text: string, from: number, cells: number): { text: string; end: number } {
  let i = from;
  let used = 0;
  while (i < text.length) {
    const next = nextBoundary(text, i);
    const gw = glyphWidth(text.slice(i, next));
    if (used + gw > cells) break;
    used += gw;
    i = next;
  }
  return { text: text.slice(from, i), end: i };
}

/** The index `cells` cells after `from` (not splitting a glyph; rounding up). */
export function skipCells(text: string, from: number, cells: number): number {
  let i = from;
  let used = 0;
  while (i < text.length && used < cells) {
    const next = nextBoundary(text, i);
    used += glyphWidth(text.slice(i, next));
    i = next;
  }
  return i;
}
