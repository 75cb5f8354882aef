// Service text as terminal text. Names, prompts, messages, transcripts, file names and error
// messages come from the network: every control character in them (ESC and so CSI/OSC, BEL,
// BS, CR, DEL, C1) is shown as \x1b etc. so it can never drive the terminal. This is the one
// escaping function; both the console (src/ui) and the commands (src/commands) import it, and
// it lives in this leaf because neither layer may import the other.

// C0 except TAB and LF, DEL, C1.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI) reorder the text
// around them, so a name can show as another (and a cell's neighbours move): shown as <U+202E>.
// The line and paragraph separators (U+2028, U+2029) break a line on some terminals.
const FORMATTING = /[\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const codePoint = (c: string) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;

/**
 * Text that may keep its lines (a transcript, a prompt): control characters shown escaped, LF and
 * TAB kept; bidi overrides and isolates and U+2028/U+2029 shown as <U+…>.
 */
export function escapeText(text: string): string {
  return text.replace(CONTROLS, hex).replace(FORMATTING, codePoint);
}

/** Text where one line is expected (a title, a label, a cell, an error line): as escapeText, with each line break shown as ↵ and tabs as a space. */
export function escapeLine(text: string): string {
  return escapeText(text.replace(/\r?\n/g, '↵').replace(/\t/g, ' '));
}

/**
 * A value as JSON for -o json: exact JSON, and safe on a terminal. JSON.stringify escapes C0
 * but leaves DEL, C1 (U+009B is a CSI), the bidi overrides and isolates and U+2028/U+2029 raw;
 * those are written as \u escapes, which parse back to the same string.
 */
export function jsonText(value: unknown, indent?: number): string {
  return safeJson(JSON.stringify(value, null, indent));
}

const JSON_RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text made by JSON.stringify (or stored as such), with what it leaves raw written as \u
 * escapes: the same JSON value, safe on a terminal. For text already serialised (the archive's
 * stored records), so nothing is parsed again.
 */
export function safeJson(json: string): string {
  return json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
