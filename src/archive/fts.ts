// User text → an FTS5 MATCH expression. Every term is quoted, so no input is ever FTS syntax
// (AND, NEAR, column:, parentheses, a lone quote are all just text): words must all occur,
// "a phrase" must occur as written, and a trailing * makes a term a prefix.

export interface SearchTerms {
  /** The MATCH expression; undefined when the text holds nothing searchable. */
  match: string | undefined;
  /** The terms as understood, for messages ("no call mentions …"). */
  terms: string[];
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
    parts.push(quote(body) + (prefix ? '*' : ''));
  }
  return { match: parts.length ? parts.join(' ') : undefined, terms };
}
