// Short ids: what a list shows of an id too long for its column, and how what is typed back (the
// palette's `:calls <x>`, `:chat <x>` …) finds the record again. One module owns both halves, so
// what is shown can always be typed back and names exactly that record.
//
// A short id is the id's END, not its start: services make time-ordered ids (UUIDv7, ULID,
// snowflakes), whose first characters are the time and are shared by every record made in the
// same minute, while the last ones are random or counted. For random ids (UUIDv4) either end
// serves, so the end serves every id. Like git's abbreviated hashes, a list's short ids are one
// length, the shortest from SHORT_ID_LEAST up at which every id in that list is told apart.
//
//   shortIdLength(ids)                 → the length a list's short ids take (≥ SHORT_ID_LEAST)
//   shortIdLengthOf(records)           → the same for records with an `id`, kept per array
//   shortIdOf(id, length)              → the id's last `length` characters (the id when shorter)
//   idQuery(text)                      → typed text as the resolver reads it (trimmed, a leading … dropped)
//   matchRecords(query, records, name) → the records the text names, and how (whole id, name, end, start)

/** The fewest characters a short id has. */
export const SHORT_ID_LEAST = 8;

/** The fewest characters typed that are read as the end of an id (fewer name records by their start or name only). */
export const ID_END_LEAST = 4;

/** A list's short-id length: the shortest, from SHORT_ID_LEAST up, at which no two ids end alike (ASCII case aside). */
export function shortIdLength(ids: Iterable<string>): number {
  const reversed: string[] = [];
  for (const id of ids) reversed.push([...id.toLowerCase()].reverse().join(''));
  reversed.sort();
  let length = SHORT_ID_LEAST;
  for (let i = 1; i < reversed.length; i++) {
    const a = reversed[i - 1];
    const b = reversed[i];
    let same = 0;
    while (same < a.length && same < b.length && a[same] === b[same]) same++;
    // One id being the other's end: the longer's short form must be longer than the shorter id, shown whole.
    length = Math.max(length, same + 1);
  }
  return length;
}

const lengths = new WeakMap<readonly { id: string }[], number>();

/** shortIdLength of these records' ids, computed once per array (lists are arrays the store replaces, never mutates). */
export function shortIdLengthOf(records: readonly { id: string }[]): number {
  let n = lengths.get(records);
  if (n === undefined) lengths.set(records, (n = shortIdLength(records.map((r) => r.id))));
  return n;
}

/** The id's short form: its last `length` characters, or the whole id when it has no more. */
export function shortIdOf(id: string, length = SHORT_ID_LEAST): string {
  return id.length > length ? id.slice(-length) : id;
}

/** What the resolver reads of typed text: trimmed, without a leading ellipsis (a short id copied with one). */
export function idQuery(text: string): string {
  return text.trim().replace(/^(…|\.\.\.)/, '');
}

/** How typed text named the records it matched. */
export type MatchedBy = 'id' | 'name' | 'end' | 'start';

/**
 * The records `query` names, best first: the one whose whole id it is; else those whose name it
 * is, and those whose id ends with it (ID_END_LEAST characters or more: a short id as a list shows
 * it); else those whose id or name starts with it. ASCII case is ignored. Nothing for empty text.
 */
export function matchRecords<T extends { id: string }>(
  query: string,
  records: readonly T[],
  nameOf: (r: T) => string | null | undefined = () => undefined,
): { by: MatchedBy; records: T[] } {
  const q = idQuery(query).toLowerCase();
  if (!q) return { by: 'id', records: [] };
  const byId = records.find((r) => r.id.toLowerCase() === q);
  if (byId) return { by: 'id', records: [byId] };
  const named = records.filter((r) => nameOf(r)?.trim().toLowerCase() === q);
  const ends = q.length >= ID_END_LEAST ? records.filter((r) => r.id.toLowerCase().endsWith(q) && !named.includes(r)) : [];
  if (named.length || ends.length) return { by: ends.length ? 'end' : 'name', records: [...named, ...ends] };
  return { by: 'start', records: records.filter((r) => r.id.toLowerCase().startsWith(q) || nameOf(r)?.toLowerCase().startsWith(q)) };
}
