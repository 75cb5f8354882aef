// Display formatting shared by the console's screens: service text escaped and fitted to
// terminal cells (truncated, padded, wrapped), and sizes, durations, money and times as shown.

import { escapeLine, escapeText } from './escape.js';
import { padCells, truncateCells, wrapCells } from './cells.js';

/** Service text cut to `width` terminal cells on one line: escaped, line breaks shown as ↵. */
export function truncate(text: string, width: number): string {
  return truncateCells(escapeLine(text), width);
}

/** Service text cut and padded to exactly `width` terminal cells. */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  return padCells(escapeLine(text), width, align);
}

/** Service text word-wrapped to lines of at most `width` terminal cells, breaking long words; keeps blank lines. Linear in the text. */
export function wrapText(text: string, width: number): string[] {
  return wrapCells(escapeText(text.replace(/\r\n/g, '\n').replace(/\t/g, '  ')), width);
}

export function humanBytes(n: number | null | undefined): string {
  if (n == null) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function duration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function money(cost: number | null | undefined): string {
  return cost == null ? '—' : `$${cost.toFixed(cost < 1 ? 3 : 2)}`;
}

/** money() for a right-aligned column: two decimals get a trailing space, so the points line up under three. */
export function moneyColumn(cost: number | null | undefined): string {
  const text = money(cost);
  return cost != null && cost >= 1 ? `${text} ` : text;
}

/** "YYYY-MM-DD HH:MM" in local time; the raw value when it isn't a date. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function yesNo(v: boolean | null | undefined): string {
  return v == null ? '—' : v ? 'yes' : 'no';
}

/** Any value as one line of text (objects as compact JSON). */
export function show(v: unknown): string {
  if (v == null || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
