// Small helpers the screens share.
import { cellText, type Column } from '../../format/column.js';

/** The screen props every route component gets. */
export interface ScreenProps<R> {
  route: R;
  width: number;
  height: number;
}

/** Loading its first data (nothing to show yet): keys typed ahead wait for it (useListKeys' `loading`). */
export function firstLoad(res: { status: string; data?: unknown }): boolean {
  return res.status === 'idle' || (res.status === 'loading' && res.data === undefined);
}

/** Rows whose visible columns contain the filter text (case-insensitive). */
export function filterRows<T>(rows: T[], columns: Column<T>[], filter: string): T[] {
  const q = filter.trim().toLowerCase();
  if (!q) return rows;
  return rows.filter((r) => columns.some((c) => cellText(c.value(r)).toLowerCase().includes(q)));
}
