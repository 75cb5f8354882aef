// Widths in terminal cells, as Ink measures them (string-width): CJK and emoji take 2 cells,
// combining marks 0, a ZWJ sequence is one glyph. Cutting and wrapping walk grapheme clusters
// once, so their cost is linear in the text (cli-truncate and wrap-ansi re-measure as they go,
// which is slow on a long prompt), and never split a glyph.
//
// Text made only of NARROW characters (printable ASCII, Latin, Greek, Cyrillic, the dashes,
// quotes and box-drawing lines the console draws with) is one cell and one glyph a UTF-16 unit:
// measured and cut without segmenting. That is most text, and all of the first frame's chrome: the
// frame drawn before Ink loads never pays for ICU's segmenter (making the first one is slow) nor
// string-width's first call (which compiles its Unicode property expressions).
import stringWidth from 'string-width';

let segmenter: Intl.Segmenter | undefined;
/** The text's grapheme clusters; the one segmenter is made on first use. */
export function graphemes(text: string): Intl.Segments {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);
}

/**
 * Characters that are one cell and a glyph of their own, whatever follows them (no combining
 * marks, no zero-width or format characters, no emoji presentation, nothing wide): each one's
 * width is string-width's (test/format/cells.test.ts checks every one).
 */
export const NARROW = new RegExp(
  String.raw`^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482` +
    String.raw`\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u27f0-\u27ff\u2800-\u28ff]*$`,
);

/** Display cells the text takes on a terminal (no control characters expected: escape first). */
export function cellWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  if (text.length <= 256) return stringWidth(text);
  // string-width re-measures each glyph with regular expressions: on a long text, sum the glyphs.
  let w = 0;
  for (const { segment } of graphemes(text)) w += glyphWidth(segment);
  return w;
}

// Widths of single glyphs, which repeat: string-width costs microseconds a call.
const glyphWidths = new Map<string, number>();
/** Cells one grapheme cluster takes. */
export function glyphWidth(glyph: string): number {
  let w = glyphWidths.get(glyph);
  if (w === undefined) {
    if (glyphWidths.size >= 4096) glyphWidths.clear();
    w = stringWidth(glyph);
    glyphWidths.set(glyph, w);
  }
  return w;
}

/** The text cut to at most `width` cells, ending in … when cut. */
export function truncateCells(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return text;
  if (width === 1) return '…';
  if (NARROW.test(text)) return text.slice(0, width - 1) + '…';
  let used = 0;
  let end = 0;
  for (const { segment, index } of graphemes(text)) {
    const w = glyphWidth(segment);
    if (used + w > width - 1) break;
    used += w;
    end = index + segment.length;
  }
  return text.slice(0, end) + '…';
}

/** The text cut and padded with spaces to exactly `width` cells. */
export function padCells(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = truncateCells(text, width);
  const fill = ' '.repeat(Math.max(0, width - cellWidth(t)));
  return align === 'right' ? fill + t : t + fill;
}

/** A word in pieces of at most `width` cells (a wide glyph never split), with the last piece's width. */
function breakWord(word: string, width: number): { pieces: string[]; lastWidth: number } {
  const pieces: string[] = [];
  if (NARROW.test(word)) {
    for (let i = 0; i < word.length; i += width) pieces.push(word.slice(i, i + width));
    if (pieces.length === 0) pieces.push('');
    return { pieces, lastWidth: pieces[pieces.length - 1].length };
  }
  let start = 0;
  let used = 0;
  for (const { segment, index } of graphemes(word)) {
    const w = glyphWidth(segment);
    if (used + w > width && index > start) {
      pieces.push(word.slice(start, index));
      start = index;
      used = 0;
    }
    used += w;
  }
  pieces.push(word.slice(start));
  return { pieces, lastWidth: used };
}

/**
 * Word-wraps each line of the text to lines of at most `width` cells, breaking long words; keeps
 * blank lines and each line's indentation (JSON stays indented).
 */
export function wrapCells(text: string, width: number): string[] {
  const out: string[] = [];
  for (const whole of text.split('\n')) {
    // A line's leading spaces stay, on each line it wraps to, while they leave room for text.
    let indent = /^ */.exec(whole)![0];
    if (indent.length >= width - 1) indent = '';
    const para = whole.slice(indent.length);
    const w = Math.max(1, width - indent.length);
    const first = out.length;
    wrapLine(para, w, out);
    if (indent) for (let i = first; i < out.length; i++) out[i] = indent + out[i];
  }
  return out;
}

function wrapLine(para: string, w: number, out: string[]): void {
  let line = '';
  let lineWidth = 0;
  for (const word of para.split(' ')) {
    let rest = word;
    let restWidth: number;
    // A word longer than the line in code units may be wider in cells: measure it by breaking it (one pass).
    if (word.length > w) {
      const { pieces, lastWidth } = breakWord(word, w);
      rest = pieces.pop()!;
      restWidth = lastWidth;
      if (pieces.length > 0) {
        if (line) out.push(line);
        for (const p of pieces) out.push(p);
        line = '';
        lineWidth = 0;
      }
    } else restWidth = cellWidth(word);
    if (restWidth > w) {
      // A short word of wide glyphs (CJK, emoji): break it too.
      const { pieces, lastWidth } = breakWord(word, w);
      rest = pieces.pop()!;
      restWidth = lastWidth;
      if (line) out.push(line);
      for (const p of pieces) out.push(p);
      line = '';
      lineWidth = 0;
    }
    if (!line) {
      line = rest;
      lineWidth = restWidth;
    } else if (lineWidth + 1 + restWidth <= w) {
      line += ' ' + rest;
      lineWidth += 1 + restWidth;
    } else {
      out.push(line);
      line = rest;
      lineWidth = restWidth;
    }
  }
  out.push(line);
}
