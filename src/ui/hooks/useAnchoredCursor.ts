// A list whose rows move under the cursor (the call log gains calls above it on every live
// refresh): the cursor follows its row, found again by key, rather than staying on a row number,
// so Enter opens the row that was highlighted.
import { useEffect } from 'react';
import { routeKey, topRoute, useActions, useConsole } from '../../store/index.js';
import { scrollFor } from '../../store/navigation.js';
import { tableBodyHeight } from '../components/Table.js';
import { useTopView } from './useTopView.js';

/**
 * Where the cursor of the top view is in `rows` (a Table of `height` lines): the row whose key
 * the view remembers, wherever it is now; the remembered row number when that row is gone or
 * nothing is remembered yet. The view is written back when they differ, so the next refresh
 * starts from the row the user sees. Pass `anchor` to useListKeys so keys move from here.
 */
export function useAnchoredCursor<T>(rows: T[], rowKey: (row: T) => string, height: number) {
  const view = useTopView();
  const key = useConsole((s) => routeKey(topRoute(s)));
  const actions = useActions();
  const last = Math.max(0, rows.length - 1);
  let cursor = Math.min(view.cursor, last);
  if (view.key !== undefined && rows.length > 0 && rowKey(rows[cursor]) !== view.key) {
    const i = rows.findIndex((r) => rowKey(r) === view.key);
    if (i >= 0) cursor = i;
  }
  // Rows added above move what is on screen with them, unless the view is at the top (new rows show).
  const body = tableBodyHeight(height);
  const scroll = scrollFor(cursor, view.scroll === 0 ? 0 : Math.max(0, view.scroll + cursor - view.cursor), body);
  const at = rows.length > 0 ? rowKey(rows[cursor]) : undefined;
  useEffect(() => {
    if (at !== undefined && (cursor !== view.cursor || scroll !== view.scroll || at !== view.key)) actions.syncView(key, { cursor, scroll, key: at });
  }, [actions, key, at, cursor, scroll, view.cursor, view.scroll, view.key]);
  return { cursor, scroll, anchor: { cursor, keyAt: (i: number) => (rows[i] === undefined ? undefined : rowKey(rows[i])) } };
}
