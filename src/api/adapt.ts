// What a service sent in another type than its schema says, field by field. Records are parsed
// one at a time and each of their fields on its own (schemas.ts wraps every field): a field of
// another type is kept as received, and noted here; a record that cannot be read at all (not an
// object, no id) is skipped and noted too. The client reports each difference once (--debug, and
// a warning for a skipped record); `doctor` lists them as adapted.
//
//   collect(into, () => schema.safeParse(v))  notes what the parse met into `into`
//   noteMismatch(field, value, issues)         called by the schemas' per-field fallback
// No zod here: the schemas call in, and doctor and the commands read what was noted.

/** One kind of difference: a field, the type its schema names and the type that came. */
export interface Mismatch {
  /** Where, with list positions as `[]`: "cost", "customer.number", "messages[].time". */
  field: string;
  /** What the schema expects ("number", "string", "boolean", "object", "array"). */
  expected: string;
  /** What came ("string", "number", "null", "array", "object", "boolean"). */
  received: string;
  /** A numeric string where a number was expected: read as that number wherever Switchboard computes. */
  numeric: boolean;
  /** The first value seen, as JSON, cut short. */
  example: string;
  /** How many times it was met. */
  count: number;
}

/** A record of a list that could not be read at all, by its position in the list. */
export interface Skipped {
  /** "calls[6]" */
  at: string;
  /** "not an object (a string)", "no id" */
  why: string;
}

/** What one parse (or one client, over its requests) met. */
export class Adaptations {
  readonly mismatches = new Map<string, Mismatch>();
  readonly skipped: Skipped[] = [];

  /** The differences in the order they were first met. */
  list(): Mismatch[] {
    return [...this.mismatches.values()];
  }

  /** Takes in what `other` met; returns the kinds this one had not seen before. */
  merge(other: Adaptations): Mismatch[] {
    const fresh: Mismatch[] = [];
    for (const [key, m] of other.mismatches) {
      const had = this.mismatches.get(key);
      if (had) had.count += m.count;
      else {
        const copy = { ...m };
        this.mismatches.set(key, copy);
        fresh.push(copy);
      }
    }
    this.skipped.push(...other.skipped);
    return fresh;
  }
}

let current: Adaptations | undefined;

/** Runs `parse` (synchronous: a zod parse) with what it meets noted into `into`. */
export function collect<T>(into: Adaptations, parse: () => T): T {
  const before = current;
  current = into;
  try {
    return parse();
  } finally {
    current = before;
  }
}

/** A decimal number written as a string: "0.0018", "12", "-3.5e-2" (what a numeric column becomes in many JSON layers). */
function isNumericString(v: unknown): v is string {
  return typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v);
}

/** A number, or a numeric string's number; undefined for anything else (left out of computations). */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (isNumericString(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** The JSON type of a value, in the words of a message. */
function typeName(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** A value as a short piece of JSON, for a note. */
export function exampleOf(v: unknown, max = 40): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface IssueLike {
  code?: string;
  expected?: unknown;
  path?: readonly PropertyKey[];
  message?: string;
}

/** Noted by a field's fallback: `field` held `value`, which its schema refused with `issues`. */
export function noteMismatch(field: string, value: unknown, issues: readonly IssueLike[]): void {
  if (!current) return;
  const issue = issues[0];
  // The issue's own path reaches inside the field (a message of a list, a key of an object).
  const inner = issue?.path ?? [];
  let at = field;
  let got: unknown = value;
  for (const p of inner) {
    at += typeof p === 'number' ? '[]' : `.${String(p)}`;
    got = got !== null && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[p] : undefined;
  }
  const expected =
    typeof issue?.expected === 'string' ? issue.expected : issue?.code === 'invalid_union' ? 'one of its forms' : (issue?.code ?? 'another type');
  const received = typeName(got);
  const numeric = expected === 'number' && isNumericString(got);
  const key = `${at}\u0000${expected}\u0000${received}\u0000${numeric}`;
  const had = current.mismatches.get(key);
  if (had) had.count++;
  else current.mismatches.set(key, { field: at, expected, received, numeric, example: exampleOf(got), count: 1 });
}

/** One difference in a few words: `cost: a numeric string ("0.0018"), read as a number`. */
export function mismatchWords(m: Mismatch): string {
  if (m.numeric) return `${m.field}: a numeric string (${m.example}), read as a number`;
  if (m.received === 'nothing') return `${m.field}: missing where a ${m.expected} was expected`;
  const expected = m.expected === 'one of its forms' ? 'another form' : `a ${m.expected}`;
  return `${m.field}: ${m.received} (${m.example}) where ${expected} was expected, shown as received`;
}

/** Why a list item is no record at all (not an object, no id), in a few words; undefined when it is one. */
export function unreadable(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return `not an object: ${item === null ? 'null' : `a ${typeName(item)}`}`;
  const id = (item as Record<string, unknown>).id;
  if (id === undefined || id === null || id === '') return 'no id';
  if (typeof id !== 'string') return `its id is a ${typeName(id)}`;
  return undefined;
}
