// Each record's JSON text as the service sent it, kept beside its parse. zod rebuilds a record with
// the schema's keys first, and JSON.stringify of that is neither the service's key order nor its
// escapes or number spellings; the archive stores and exports the service's own text instead, and
// costs less for it (no stringify of every record it writes).
//
//   listSpans(text, path)   -> [start, end) of each element of the array at `path` in a JSON text
//   keepSentTexts(...)      the client ties each parsed record of a list to its text
//   sentText(record)        -> the record's text as sent, else JSON.stringify of the record

/** A record's text in the answer, on the record parsed from it: not enumerable, so neither a copy nor JSON.stringify carries it. */
const SENT = Symbol('sent text');

/** `record`'s JSON text as the service sent it when the client read it from an answer, else JSON.stringify of it. */
export function sentText(record: object): string {
  return (record as { [SENT]?: string })[SENT] ?? JSON.stringify(record);
}

/**
 * Ties `records[i]` to its element's text in `body`, the JSON text they were parsed from: the
 * array at `path` (keys from the top, as envelope.ts unwrapList found it). Nothing is tied when the
 * scan does not find one object per record (the records then fall back to JSON.stringify).
 */
export function keepSentTexts(records: readonly object[], body: string, path: readonly string[], kept?: readonly number[]): void {
  let all: [number, number][] | undefined;
  try {
    all = listSpans(body, path);
  } catch {
    return;
  }
  // `kept`: the list's positions the records came from, when some items were skipped.
  const spans = all && kept ? (kept.every((i) => i < all.length) ? kept.map((i) => all[i]) : undefined) : all;
  if (!spans || spans.length !== records.length) return;
  for (const [start] of spans) if (body.charCodeAt(start) !== OPEN_BRACE) return;
  for (let i = 0; i < records.length; i++) Object.defineProperty(records[i], SENT, { value: body.slice(spans[i][0], spans[i][1]) });
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;

class NotJson extends Error {}

/**
 * Where each element of the array at `path` lies in `text` (valid JSON: the caller parsed it), as
 * [start, end) offsets; undefined when `path` does not lead to an array. As JSON.parse does, the
 * last of duplicate keys wins.
 */
export function listSpans(text: string, path: readonly string[]): [number, number][] | undefined {
  return spansAt(text, space(text, 0), path, 0).spans;
}

/** The spans of the array `path[depth..]` leads to from the value at `at`, and where that value ends: the text is read once. */
function spansAt(text: string, at: number, path: readonly string[], depth: number): { spans: [number, number][] | undefined; end: number } {
  const first = text.charCodeAt(at);
  if (depth === path.length) {
    if (first !== OPEN_BRACKET) return { spans: undefined, end: valueEnd(text, at) };
    const spans: [number, number][] = [];
    at = space(text, at + 1);
    if (text.charCodeAt(at) === CLOSE_BRACKET) return { spans, end: at + 1 };
    for (;;) {
      const end = valueEnd(text, at);
      spans.push([at, end]);
      at = space(text, end);
      if (text.charCodeAt(at) !== COMMA) return { spans, end: at + 1 };
      at = space(text, at + 1);
    }
  }
  if (first !== OPEN_BRACE) return { spans: undefined, end: valueEnd(text, at) };
  let spans: [number, number][] | undefined;
  at = space(text, at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) return { spans, end: at + 1 };
  for (;;) {
    const keyEnd = stringEnd(text, at);
    const raw = text.slice(at + 1, keyEnd - 1);
    const name = raw.includes('\\') ? (JSON.parse(text.slice(at, keyEnd)) as string) : raw;
    at = space(text, space(text, keyEnd) + 1); // past the colon
    let end: number;
    if (name === path[depth]) ({ spans, end } = spansAt(text, at, path, depth + 1));
    else end = valueEnd(text, at);
    at = space(text, end);
    if (text.charCodeAt(at) !== COMMA) return { spans, end: at + 1 };
    at = space(text, at + 1);
  }
}

/** The first offset from `at` that is not JSON whitespace. */
function space(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return at;
    at++;
  }
}

/** Just past the string whose opening quote is at `at`: a quote ends it unless an odd run of backslashes precedes it. */
function stringEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== QUOTE) throw new NotJson();
  let quote = text.indexOf('"', at + 1);
  // The common case first: no backslash before the quote.
  while (quote > 0 && text.charCodeAt(quote - 1) === BACKSLASH) {
    let b = quote - 2;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((quote - 1 - b) % 2 === 0) break;
    quote = text.indexOf('"', quote + 1);
  }
  if (quote < 0) throw new NotJson();
  return quote + 1;
}

/** Just past the value that starts at `at`. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    const n = text.length;
    for (let i = at; i < n;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        // stringEnd, inlined: most of a record's characters are skipped here.
        let quote = text.indexOf('"', i + 1);
        while (quote > 0 && text.charCodeAt(quote - 1) === BACKSLASH) {
          let b = quote - 2;
          while (text.charCodeAt(b) === BACKSLASH) b--;
          if ((quote - 1 - b) % 2 === 0) break;
          quote = text.indexOf('"', quote + 1);
        }
        if (quote < 0) throw new NotJson();
        i = quote + 1;
      } else {
        if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
        i++;
      }
    }
    throw new NotJson();
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 32 || c === 10 || c === 13 || c === 9) break;
  }
  if (i === at) throw new NotJson();
  return i;
}
