// listSpans finds each element of a list in the JSON text it was parsed from: every span parses to
// the element JSON.parse gave, whatever the strings hold and however the text is spaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listSpans } from '../../src/api/sent-text.js';

/** Strings that trip a scanner that does not know strings and escapes. */
const NASTY = ['', '},{', '"},{"', '\\', '\\"', '\\\\"', ']', '[{', 'a\nb', '\u2028', '😀', '\\u0022', '"', '{"id":1}', ', ]'];

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 2 ? 4 : 6));
  if (k === 0) return NASTY[Math.floor(r() * NASTY.length)] + NASTY[Math.floor(r() * NASTY.length)];
  if (k === 1) return [0, -1.5e-7, 42, 1e21, 3.25][Math.floor(r() * 5)];
  if (k === 2) return [true, false, null][Math.floor(r() * 3)];
  if (k === 3) return NASTY[Math.floor(r() * NASTY.length)];
  if (k === 4) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, i) => [`${NASTY[Math.floor(r() * NASTY.length)]}${i}`, value(r, depth + 1)]));
}

/** JSON text with random whitespace between tokens (JSON.stringify's, re-spaced outside strings). */
function spaced(v: unknown, r: () => number): string {
  const ws = () => [' ', '\n', '\t', '\r\n', '', ''][Math.floor(r() * 6)];
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => spaced(x, r)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === 'object')
    return `{${ws()}${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${spaced(x, r)}`)
      .join(`${ws()},${ws()}`)}${ws()}}`;
  return JSON.stringify(v);
}

test('every span of a list parses to its element, for 300 random lists of nasty strings, numbers, literals and nesting', () => {
  const r = rng(7);
  for (let n = 0; n < 300; n++) {
    const list = Array.from({ length: Math.floor(r() * 6) }, () => value(r, 0));
    const text = spaced(n % 3 === 0 ? list : n % 3 === 1 ? { message: '],[', calls: list } : { data: { items: list }, more: [{}] }, r);
    const path = n % 3 === 0 ? [] : n % 3 === 1 ? ['calls'] : ['data', 'items'];
    const spans = listSpans(text, path);
    assert.ok(spans, text);
    assert.deepEqual(
      spans.map(([a, b]) => JSON.parse(text.slice(a, b)) as unknown),
      list,
      text,
    );
  }
});

test('a key is matched as JSON.parse reads it: escaped, and the last of duplicates wins', () => {
  const text = '{"calls":[{"a":1}], "\\u0063alls" : [ {"b":"},{"} , {"c":[]} ] }';
  const spans = listSpans(text, ['calls'])!;
  assert.deepEqual(
    spans.map(([a, b]) => text.slice(a, b)),
    ['{"b":"},{"}', '{"c":[]}'],
  );
  assert.deepEqual(listSpans('{"calls":{}}', ['calls']), undefined);
  assert.deepEqual(listSpans('[]', []), []);
  assert.deepEqual(listSpans('{"data":[1]}', ['calls']), undefined);
});
