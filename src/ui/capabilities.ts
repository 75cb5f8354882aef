// What the console's terminal can show, decided once as it starts (terminal.ts, when start.ts
// takes the terminal) from the flags and the environment: colour (NO_COLOR, --no-color,
// FORCE_COLOR), a UTF-8 locale (LC_ALL, LC_CTYPE, LANG). (TERM=dumb is refused before the console
// starts: src/commands/console.ts.) A value handed down, never a module's state: to React through
// context (hooks/theme-context.tsx, useCapabilities), to the frame drawn before Ink as an argument.
// Free of React and Ink: start.ts reads it before they load.
import { cellWidth, graphemes } from '../format/cells.js';

export interface Capabilities {
  /** Colours on. Off, the console draws no colour at all (text styles such as inverse and bold stay) and lists mark their selected row with a marker column. */
  color: boolean;
  /** The locale is UTF-8. Off, every frame is written in ASCII through GLYPHS. */
  unicode: boolean;
}

/** A colour terminal with a UTF-8 locale: what a component drawn with no console above it assumes. */
export const FULL_CAPABILITIES: Readonly<Capabilities> = { color: true, unicode: true };

/** The locale's character set is UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set says so (none set: assumed UTF-8). */
export function isUtf8Locale(env: NodeJS.ProcessEnv = process.env): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return !locale || /utf-?8/i.test(locale);
}

/** The smallest window the console draws in; below it, one line asks for a bigger one. */
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 10;

/**
 * The one glyph table: each non-ASCII character the console draws, as one ASCII character of the
 * same width, for a terminal whose locale is not UTF-8. Box borders, status marks, separators, the
 * ellipsis, the spinner (its frames turn as | / - \) and the chart's bars.
 */
const GLYPHS: Readonly<Record<string, string>> = {
  // Borders (round and single boxes)
  '╭': '+',
  '╮': '+',
  '╰': '+',
  '╯': '+',
  '┌': '+',
  '┐': '+',
  '└': '+',
  '┘': '+',
  '─': '-',
  '│': '|',
  // Status and selection marks, separators
  '●': '*',
  '○': 'o',
  '•': '*',
  '›': '>',
  '‹': '<',
  '❯': '>',
  '·': '.',
  '…': '~',
  '—': '-',
  '–': '-',
  '×': 'x',
  '↵': '/',
  '⏎': '/',
  '↑': '^',
  '▲': '^',
  '▼': 'v',
  '↓': 'v',
  '←': '<',
  '→': '>',
  '❚': '|',
  '✓': 'v',
  '✗': 'x',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  // The spinner's frames
  '⠋': '|',
  '⠙': '/',
  '⠹': '-',
  '⠸': '\\',
  '⠼': '|',
  '⠴': '/',
  '⠦': '-',
  '⠧': '\\',
  '⠇': '|',
  '⠏': '/',
  // The chart's bars, lowest to highest
  '▁': '_',
  '▂': '.',
  '▃': ':',
  '▄': '-',
  '▅': '=',
  '▆': '+',
  '▇': '*',
  '█': '#',
};

const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Text for a terminal whose locale is not UTF-8: glyphs from GLYPHS, anything else not ASCII (a
 * name in another script) as one ? a cell it takes, so columns stay where they were.
 */
export function asciiText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = '';
  for (const { segment } of graphemes(text)) {
    if (!NON_ASCII.test(segment)) out += segment;
    else out += GLYPHS[segment] ?? '?'.repeat(cellWidth(segment));
  }
  return out;
}
