// How commands print records: one set of column definitions per resource, rendered as an
// aligned table (TTY), a plain tab-separated table (pipes), JSON, CSV or bare ids.
import { serviceOf } from '../config/config.js';

export const FORMATS = ['table', 'json', 'csv', 'ids'] as const;
export type Format = (typeof FORMATS)[number];

import { cellWidth, padCells, truncateCells } from '../format/cells.js';
import { cellText, COLUMN_GAP, layoutColumns, type Cell, type Column, type Tone } from '../format/column.js';
import { escapeLine, escapeText, jsonText } from '../format/escape.js';
import { shortId } from '../format/table-text.js';
import { shortIdLength } from '../format/short-id.js';

/** Where and how output goes; built once per invocation from the global options. */
export interface OutputTarget {
  format: Format;
  /** stdout is a terminal: aligned columns instead of tabs. */
  tty: boolean;
  color: boolean;
  /** The terminal's width in cells: a table on a terminal fits it (short ids, low-priority columns dropped). */
  width?: number;
  /** --wide: full ids and every column on a terminal too, however wide. */
  wide?: boolean;
  write: (text: string) => void;
}

const ANSI: Record<Tone | 'bold', [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

export function paint(on: boolean, tone: Tone | 'bold', text: string): string {
  if (!on || text === '') return text;
  const [open, close] = ANSI[tone];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

// A cell must stay on one line and inside its column in the plain and aligned tables.
function oneLine(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}

/**
 * RFC 4180: quote when the field holds a comma, quote, CR or LF; double inner quotes. With
 * `formulas` false, a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a
 * leading ' (OWASP's CSV injection advice): service text is data, never a formula.
 */
export function csvField(s: string, formulas = false): string {
  const safe = !formulas && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV rows; formulas are neutralised unless `formulas` (kept only for a terminal, which runs nothing). */
export function toCsv<T>(records: readonly T[], columns: readonly Column<T>[], formulas = false): string {
  const lines = [columns.map((c) => csvField(c.header)).join(',')];
  for (const r of records) lines.push(columns.map((c) => csvField(cellText(c.value(r)), formulas)).join(','));
  return lines.join('\r\n') + '\r\n';
}

// Terminal cells, so CJK, emoji and combining marks keep the later columns in line.
const visibleWidth = cellWidth;

export interface TableLayout {
  /** Terminal width to fit (a terminal table only). */
  width?: number;
  /** Full ids and every column, whatever the width. */
  wide?: boolean;
}

export function toTable<T>(records: readonly T[], allColumns: readonly Column<T>[], tty: boolean, color: boolean, layout: TableLayout = {}): string {
  const short = tty && !layout.wide;
  // Ids whole (they are for copying): only a terminal too narrow for them cuts one, below.
  let rows = records.map((r) => allColumns.map((c) => oneLine(cellText(c.value(r)))));
  const allHeaders = allColumns.map((c) => c.header.toUpperCase());
  // On a terminal, columns are padded to line up; in a pipe they are tab-separated.
  // A loop, not Math.max(...rows): spreading a long list of rows overflows the call stack.
  let widths = allHeaders.map((h, i) => rows.reduce((w, cells) => Math.max(w, visibleWidth(cells[i])), visibleWidth(h)));
  let columns = allColumns;
  let headers = allHeaders;
  const total = widths.reduce((a, w) => a + w, 0) + COLUMN_GAP * (widths.length - 1);
  if (short && layout.width && total > layout.width) {
    // Too wide for the terminal: the console's layout (src/format/column.ts) drops the columns of
    // lowest priority and shrinks the growing ones, whose cells are cut with an ellipsis.
    // An id gives way before other columns go: it shrinks to its short form (src/format/short-id.ts:
    // its end, as long as the ids of this table need to be told apart), the form the console shows.
    const idLengths = allColumns.map((c, i) => (c.id ? shortIdLength(rows.map((cells) => cells[i])) : 0));
    const fitting = allColumns.map((c, i) => (c.id ? { ...c, grow: true, width: Math.min(widths[i], Math.max(c.width ?? 0, idLengths[i])) } : c));
    const fitted = layoutColumns(fitting, layout.width, widths);
    const keep = fitted.map((f) => fitting.indexOf(f.col));
    columns = keep.map((i) => allColumns[i]);
    headers = keep.map((i) => allHeaders[i]);
    // An id column too narrow for whole ids is as wide as its short ids.
    widths = fitted.map((f, k) => (f.col.id && f.width < widths[keep[k]] ? Math.min(f.width, Math.max(idLengths[keep[k]], cellWidth(f.col.header))) : f.width));
    rows = rows.map((cells) =>
      keep.map((i, k) => (allColumns[i].id && shortId(cells[i], widths[k], idLengths[i])?.trimEnd()) || truncateCells(cells[i], widths[k])),
    );
    headers = headers.map((h, k) => truncateCells(h, widths[k]));
  }
  const last = columns.length - 1;
  const pad = (s: string, i: number) => {
    if (!tty) return s;
    if (columns[i].align === 'right') return padCells(s, widths[i], 'right');
    return i === last ? s : s + ' '.repeat(Math.max(0, widths[i] - visibleWidth(s)));
  };
  const sep = tty ? ' '.repeat(COLUMN_GAP) : '\t';
  const out = [
    headers
      .map((h, i) => paint(color, 'bold', pad(h, i)))
      .join(sep)
      .trimEnd(),
  ];
  records.forEach((r, ri) => {
    const line = rows[ri]
      .map((cell, i) => {
        const tone = columns[i].tone?.(r);
        return tone ? paint(color, tone, pad(cell, i)) : pad(cell, i);
      })
      .join(sep);
    out.push(tty ? line.trimEnd() : line);
  });
  return out.join('\n') + '\n';
}

/** A list of records in the chosen format. `json` prints the records exactly as received. */
export function printList<T extends { id: string }>(out: OutputTarget, records: readonly T[], columns: readonly Column<T>[]): void {
  switch (out.format) {
    case 'json':
      out.write(jsonText(records, 2) + '\n');
      return;
    case 'csv':
      out.write(toCsv(records, columns, out.tty));
      return;
    case 'ids':
      // Ids are service text too: one that carries control characters is shown escaped.
      out.write(records.map((r) => escapeLine(r.id) + '\n').join(''));
      return;
    case 'table':
      if (records.length === 0 && out.tty) {
        out.write(paint(out.color, 'dim', 'none found') + '\n');
        return;
      }
      out.write(toTable(records, columns, out.tty, out.color, { width: out.width, wide: out.wide }));
  }
}

/**
 * A list printed as it arrives, page by page (`calls list --all`, `calls watch`), so a pipe sees
 * the first rows at once and memory stays flat. The header comes once; json is one array. Only
 * the aligned terminal table must see every row first, to size its columns.
 */
export function listWriter<T extends { id: string }>(out: OutputTarget, columns: readonly Column<T>[]): { add(records: readonly T[]): void; end(): void } {
  if (out.format === 'table' && out.tty) {
    const all: T[] = [];
    return { add: (records) => void records.forEach((r) => all.push(r)), end: () => printList(out, all, columns) };
  }
  let started = false;
  const withoutHeader = (text: string, eol: string) => text.slice(text.indexOf(eol) + eol.length);
  return {
    add(records) {
      if (records.length === 0) return;
      let text: string;
      if (out.format === 'json') text = (started ? ',\n' : '[\n') + records.map((r) => jsonText(r, 2).replace(/^/gm, '  ')).join(',\n');
      else if (out.format === 'ids') text = records.map((r) => escapeLine(r.id) + '\n').join('');
      else if (out.format === 'csv') text = toCsv(records, columns, out.tty);
      else text = toTable(records, columns, false, out.color);
      if (started && out.format === 'csv') text = withoutHeader(text, '\r\n');
      if (started && out.format === 'table') text = withoutHeader(text, '\n');
      out.write(text);
      started = true;
    },
    end() {
      if (!started) printList(out, [], columns);
      else if (out.format === 'json') out.write('\n]\n');
    },
  };
}

/**
 * One record. The table form lists every field the service returned (unknown ones too), one per
 * line, nested objects as compact JSON; csv uses the resource's columns.
 */
export function printRecord<T extends { id: string }>(out: OutputTarget, record: T, columns: readonly Column<T>[]): void {
  switch (out.format) {
    case 'json':
      out.write(jsonText(record, 2) + '\n');
      return;
    case 'csv':
      out.write(toCsv([record], columns, out.tty));
      return;
    case 'ids':
      out.write(escapeLine(record.id) + '\n');
      return;
    case 'table':
      out.write(toFieldList(record as Record<string, unknown>, out.tty, out.color));
  }
}

export function toFieldList(record: Record<string, unknown>, tty: boolean, color: boolean): string {
  const entries = Object.entries(record).map(([k, v]) => [
    escapeLine(k),
    typeof v === 'object' && v !== null ? escapeText(JSON.stringify(v)) : cellText(v as Cell),
  ]);
  if (!tty) return entries.map(([k, v]) => `${paint(color, 'bold', k)}\t${oneLine(v)}`).join('\n') + '\n';
  // On a terminal a long text (a transcript) keeps its lines, indented under its name.
  const width = Math.max(0, ...entries.map(([k]) => visibleWidth(k)));
  return (
    entries
      .map(([k, v]) => {
        const name = paint(color, 'bold', k + ' '.repeat(width - visibleWidth(k)));
        return v.includes('\n') ? `${name}\n${v.replace(/^/gm, '    ')}` : `${name}  ${v}`.trimEnd();
      })
      .join('\n') + '\n'
  );
}

/** Tone for the common status words of calls, files and sessions. */
export function statusTone(status: unknown): Tone | undefined {
  switch (status) {
    case 'ended':
    case 'done':
    case true:
    case 'active':
      return 'green';
    case 'queued':
    case 'ringing':
    case 'in-progress':
    case 'processing':
      return 'yellow';
    case 'failed':
    case false:
      return 'red';
    default:
      return undefined;
  }
}

/** Names for ids, from the lists the console last saw (src/config/cached-lists.ts); an id not in them stays an id. */
export interface ListNames {
  assistant(id: string | null | undefined): string | undefined;
  number(id: string | null | undefined): string | undefined;
}

/**
 * The assistant and number names of the console's list cache for `target`, for people on a
 * terminal: undefined in a pipe or with another format (scripts keep ids), or with no cache.
 */
export async function listNamesFor(out: OutputTarget, target: Parameters<typeof serviceOf>[0] & { profile: string }): Promise<ListNames | undefined> {
  if (out.format !== 'table' || !out.tty || out.wide) return undefined;
  const { readCachedList } = await import('../config/cached-lists.js');
  const { cacheDir } = await import('../config/paths.js');
  const read = (name: 'assistants' | 'numbers') =>
    readCachedList<{ id?: string; name?: string | null; did?: string | null }[]>(cacheDir(process.env), target.profile, serviceOf(target), name)?.rows;
  const assistants = read('assistants');
  const numbers = read('numbers');
  if (!assistants && !numbers) return undefined;
  const index = (
    rows: { id?: string; name?: string | null; did?: string | null; number?: string | null }[] | undefined,
    label: (r: { name?: string | null; did?: string | null; number?: string | null }) => string | null | undefined,
  ) => new Map((Array.isArray(rows) ? rows : []).flatMap((r) => (r.id && label(r) ? [[r.id, label(r)!] as const] : [])));
  const a = index(assistants, (r) => r.name);
  const n = index(numbers, (r) => r.name || r.did || r.number);
  return { assistant: (id) => (id ? a.get(id) : undefined), number: (id) => (id ? n.get(id) : undefined) };
}

/**
 * Says that a list was cut: what was shown and how to get the rest (`more calls: showed the newest
 * 100; --all for every one`). On stderr only (`note`), so a pipe's records stay whole and clean.
 */
export function noteMore(note: (line: string) => void, what: string, shown: string, how: string): void {
  note(`more ${what}: ${shown}; ${how}`);
}
