// What the palette's `:assistants <x>`, `:calls <x>`, `:files <x>` mean by <x>: what the lists
// show — a whole id, the short id a list shows (any start of an id), or a name. Plain data, no
// React: the route specs use it, and the first frame loads them.
import type { PickItem } from '../components/Picker.js';

/** The records `query` names, best first: the one with that id; else those with that name; else those whose id or name starts with it. */
export function findRecords<T extends { id: string }>(
  query: string,
  records: readonly T[],
  nameOf: (r: T) => string | null | undefined,
  detailOf?: (r: T) => string,
): PickItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const item = (r: T): PickItem => ({ id: r.id, label: nameOf(r) ?? r.id, detail: detailOf ? detailOf(r) : r.id });
  const byId = records.find((r) => r.id.toLowerCase() === q);
  if (byId) return [item(byId)];
  const named = records.filter((r) => nameOf(r)?.trim().toLowerCase() === q);
  if (named.length) return named.map(item);
  return records.filter((r) => r.id.toLowerCase().startsWith(q) || nameOf(r)?.toLowerCase().startsWith(q)).map(item);
}
