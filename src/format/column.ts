// One column of a table of records, as both the console's <Table> (src/ui/components/Table.tsx)
// and the commands' printers (src/commands/output.ts) use it. It lives here, in a leaf that
// imports only the escaping next to it, because neither of those layers may import the other (ui → store → api,
// commands → api) and it is not the wire's business (src/api), yet a resource's columns should
// be written once in one shape whichever surface shows them.

import { escapeText } from './escape.js';

export type Cell = string | number | boolean | null | undefined;
export type Tone = 'green' | 'yellow' | 'red' | 'dim' | 'cyan';

export interface Column<T> {
  /** The heading: the commands print it upper-cased, the console as written. */
  header: string;
  value: (record: T) => Cell;
  /** Colour for this cell on a colour terminal (the commands' tables). */
  tone?: (record: T) => Tone | undefined;
  /** The console's layout: least width in cells (default: the header's). */
  width?: number;
  /** The console's layout: 1 (the default) is always shown; higher numbers drop first when space runs out. */
  priority?: number;
  /** The console's layout: takes a share of the spare width. */
  grow?: boolean;
  align?: 'left' | 'right';
}

/** A cell as text: empty for nothing; service text escaped (escapeText), so it may still hold line breaks. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  return escapeText(String(v));
}
