// What the palette's `:assistants <x>`, `:calls <x>`, `:files <x>`, `:chat <x>` mean by <x>: what
// the lists show — a whole id, the short id a list shows (its end: src/format/short-id.ts, which
// owns both the short ids and this resolution), or a name. Plain data, no React: the route specs
// use it, and the first frame loads them.
import type { PickItem } from '../components/Picker.js';
import { matchRecords } from '../../format/short-id.js';

/** The records `query` names, best first, as pick-list items (short-id.ts matchRecords: the commands' arguments mean the same). */
export function findRecords<T extends { id: string }>(
  query: string,
  records: readonly T[],
  nameOf: (r: T) => string | null | undefined,
  detailOf?: (r: T) => string,
): PickItem[] {
  return pickItems(matchRecords(query, records, nameOf).records, nameOf, detailOf);
}

export function pickItems<T extends { id: string }>(
  records: readonly T[],
  nameOf: (r: T) => string | null | undefined,
  detailOf?: (r: T) => string,
): PickItem[] {
  return records.map((r) => ({ id: r.id, label: nameOf(r) ?? r.id, detail: detailOf ? detailOf(r) : r.id }));
}
