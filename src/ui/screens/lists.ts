// The list screens' columns and status lines as plain data and functions (no Ink), shared by the
// screens and by the frame drawn before Ink has loaded (start.ts), which shows the cached rows.
import type { Assistant, KbFile, PhoneNumber } from '../../api/schemas.js';
import { linkOfNumber, linkWords, numberLabel, numberStatusWord } from '../../api/records.js';
import type { Column } from '../../format/column.js';
import { ago } from '../../store/cached.js';
import type { Resource } from '../../store/types.js';
import { FILES_PAGE_SIZE, moreFiles, type FileList } from '../../store/resources.js';
import { dateTime, humanBytes } from '../../format/display.js';
import { activeWord, count, grouped } from '../../format/words.js';

export const ASSISTANT_COLUMNS: Column<Assistant>[] = [
  { header: 'NAME', width: 18, priority: 1, grow: true, value: (a) => a.name ?? a.id },
  { header: 'STATUS', width: 8, priority: 2, value: (a) => activeWord(a.status ?? true) },
  { header: 'MODEL', width: 14, priority: 3, grow: true, value: (a) => [a.model?.provider, a.model?.model].filter(Boolean).join('/') || '—' },
  { header: 'VOICE', width: 10, priority: 4, value: (a) => a.voice?.provider ?? '—' },
  { header: 'UPDATED', width: 16, priority: 5, value: (a) => dateTime(a.updatedAt ?? a.createdAt) },
  { header: 'ID', width: 8, priority: 6, grow: true, id: true, value: (a) => a.id },
];

/** A number's status as the Numbers list and its page say it: active/inactive (a boolean), or the service's word. */
export function numberStatus(n: PhoneNumber): string {
  return typeof n.status === 'boolean' || n.status == null ? activeWord(n.status ?? true) : numberStatusWord(n);
}

/** `links`: the numbers this profile linked itself, shown "(linked here)" where the service's record does not say. */
export function numberColumns(assistantName: (id: string | null | undefined) => string, links?: Readonly<Record<string, string>>): Column<PhoneNumber>[] {
  return [
    { header: 'DID', width: 16, priority: 1, value: (n) => numberLabel(n) },
    { header: 'PROVIDER', width: 10, priority: 3, value: (n) => n.provider ?? '—' },
    { header: 'SIP DOMAIN', width: 18, priority: 4, grow: true, hideWhenSame: true, value: (n) => n.domain ?? '—' },
    {
      header: 'STATUS',
      width: 8,
      priority: 2,
      value: numberStatus,
    },
    { header: 'ASSISTANT', width: 16, priority: 1, grow: true, value: (n) => linkWords(linkOfNumber(n, links), assistantName) },
    { header: 'ID', width: 8, priority: 6, grow: true, id: true, value: (n) => n.id },
  ];
}

/** An assistant's name by id from a list of assistants ('—' for none, the id when unknown). */
export function nameIn(assistants: Assistant[] | undefined) {
  return (id: string | null | undefined) => (id ? (assistants?.find((a) => a.id === id)?.name ?? id) : '—');
}

export const FILE_COLUMNS: Column<KbFile>[] = [
  { header: 'NAME', width: 20, priority: 1, grow: true, value: (f) => f.name ?? f.id },
  { header: 'SIZE', width: 9, priority: 2, align: 'right', value: (f) => humanBytes(f.bytes), sortBy: (f) => f.bytes },
  { header: 'TYPE', width: 16, priority: 4, value: (f) => f.mimetype ?? '—' },
  { header: 'STATUS', width: 10, priority: 3, value: (f) => f.status ?? '—' },
  { header: 'CREATED', width: 16, priority: 5, value: (f) => dateTime(f.createdAt) },
  { header: 'ID', width: 8, priority: 6, grow: true, id: true, value: (f) => f.id },
];

/**
 * What a list's status line says about where its rows come from: nothing for rows the service
 * just gave; "cached …" for last-known rows from the local cache until the service answers (and
 * why it did not, when it failed).
 */
export function cachedNote(res: Pick<Resource<unknown>, 'cached' | 'fetchedAt' | 'status' | 'error'>, now = Date.now()): string {
  if (!res.cached) return '';
  const when = res.fetchedAt ? ` from ${ago(now - res.fetchedAt)}` : '';
  return res.status === 'error' ? `cached${when} · could not refresh: ${res.error ?? 'no answer'}` : `cached${when} · refreshing…`;
}

/** Where a list's cursor is: its row among the rows `shown` (after the filter). */
export interface ListPlace {
  cursor: number;
  shown: number;
}

/** "12/311": the cursor's row of the rows shown; nothing without rows. */
export function placeWords(p: ListPlace): string {
  return p.shown > 0 ? `${Math.min(p.cursor, p.shown - 1) + 1}/${grouped(p.shown)}` : '';
}

/** How many rows a filter leaves ("2 of 7 assistants match"), or how many there are. */
function matchWords(shown: number, all: number, noun: string): string {
  return shown < all ? `${grouped(shown)} of ${count(all, noun)} match` : count(all, noun);
}

/** The status line above the Assistants and Numbers tables. */
export function countLine(res: Resource<unknown[]>, noun: string, place: ListPlace, now = Date.now()): string {
  const n = res.data?.length ?? 0;
  return [matchWords(place.shown, n, noun), placeWords(place), cachedNote(res, now)].filter(Boolean).join(' · ');
}

/** The status line above the Files table. */
export function filesLine(res: Resource<FileList>, place: ListPlace, now = Date.now()): string {
  const p = res.data?.pagination;
  const note = cachedNote(res, now);
  const loaded = res.data?.files.length ?? 0;
  const more = res.data && !res.cached ? moreFiles(res.data) : false;
  const pages = (n: number) => Math.max(1, Math.ceil(n / FILES_PAGE_SIZE));
  const paging = p ? `${loaded} of ${count(p.total, 'file')} · page ${pages(loaded)}/${pages(p.total)}${more ? ' · more load as you scroll' : ''}` : '';
  const matched = place.shown < loaded ? `${grouped(place.shown)} of ${grouped(loaded)} loaded match` : '';
  return [matched, paging, placeWords(place), note].filter(Boolean).join(' · ') || ' ';
}
