// User text → an FTS5 MATCH expression. Every term is quoted, so no input is ever FTS syntax
// (AND, NEAR, column:, parentheses, a lone quote are all just text): words must all occur,
// "a phrase" must occur as written, and a trailing * makes a term a prefix.

export interface SearchTerms {
  /** The MATCH expression; undefined when the text holds nothing searchable. */
  match: string | undefined;
  /** The terms as understood, for messages ("no call mentions …"). */
  terms: string[];
}

/**
 * Scripts written without spaces between words: FTS5's unicode61 takes a whole run of them as one
 * token, so a word inside a sentence is never found. Script extensions, so the marks both Japanese
 * kana share (ー, ゝ) are in their run.
 */
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;
const HAS_UNSPACED = new RegExp(UNSPACED.source, 'u');
/** A separator to unicode61 (a format character, not a letter), invisible, and taken out of snippets again. */
export const WORD_BREAK = '\u200b';

/**
 * Text as the full-text index holds it: each character of a run of those scripts a token of its
 * own (WORD_BREAK between them), everything else as it is. The index and the query are both cut
 * this way, so a query is a phrase of characters and any word is found wherever it stands, also
 * inside a compound that a dictionary's word breaks (Intl.Segmenter) keep whole.
 */
export function ftsText(text: string): string;
export function ftsText(text: string | null | undefined): string | null;
export function ftsText(text: string | null | undefined): string | null {
  if (text === null || text === undefined || !HAS_UNSPACED.test(text)) return text ?? null;
  // Broken at both ends too, so a Latin word written against the run is a token of its own.
  return text.replace(UNSPACED, (run) => WORD_BREAK + [...run].join(WORD_BREAK) + WORD_BREAK);
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Whether a term holds anything the tokenizer keeps (a letter or digit in any script). */
const searchable = (s: string) => /[\p{L}\p{N}]/u.test(s);

export function searchTerms(text: string): SearchTerms {
  const terms: string[] = [];
  const parts: string[] = [];
  // "phrases" first (an unclosed quote runs to the end), then whitespace-separated words.
  const re = /"([^"]*)("|$)(\*?)|(\S+)/g;
  // Control characters (NUL ends an FTS5 string early) are separators, as the tokenizer sees them.
  for (const m of text.replace(/[\u0000-\u001f\u007f]/g, ' ').matchAll(re)) {
    const phrase = m[1] !== undefined;
    let body = phrase ? m[1] : m[4];
    let prefix = phrase ? m[3] === '*' : false;
    if (!phrase) {
      body = body.replace(/"/g, '');
      if (body.endsWith('*')) {
        prefix = true;
        body = body.replace(/\*+$/, '');
      }
    }
    body = body.trim();
    if (!searchable(body)) continue;
    terms.push(phrase ? `"${body}"${prefix ? '*' : ''}` : `${body}${prefix ? '*' : ''}`);
    parts.push(quote(ftsText(body)) + (prefix ? '*' : ''));
  }
  return { match: parts.length ? parts.join(' ') : undefined, terms };
}
