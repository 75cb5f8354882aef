// Screen-level key handling shared by lists and details: moves the cursor or scroll (stored per
// route, so it is restored on return) and binds the screen's own commands beside the moves, all in
// the route's key contexts (routes.ts).
import { topRoute, useActions, useConsole } from '../../store/index.js';
import { Command, type KeyContext } from '../keymap.js';
import { useRoutes } from './keymap-context.js';
import { Priority, useHoldKeys } from './keypress.js';
import { useBindings, type Bindings } from './bindings.js';
import { tableBodyHeight } from '../components/Table.js';
import { useClickedRow } from './table-at.js';
import type { MouseEvent } from '../key-parser.js';

/** The key contexts of the route in view, most specific first. */
export function useRouteContexts(): readonly KeyContext[] {
  const routes = useRoutes();
  return useConsole((s) => routes.spec(topRoute(s)).contexts);
}

/** A screen's move handler, then its own for the same command (a list that loads more near its end). */
function withMoves(moves: Bindings, own: Bindings): Bindings {
  const out: Bindings = { ...own, ...moves };
  for (const [cmd, move] of Object.entries(moves) as [Command, NonNullable<Bindings[Command]>][]) {
    const after = own[cmd];
    if (typeof after === 'function' && typeof move === 'function') out[cmd] = (input, key) => void (move(input, key), after(input, key));
  }
  return out;
}

/** For tables: `count` rows in a Table of `height` lines (its header included, as passed to <Table>). */
export function useListKeys(opts: {
  count: number;
  height: number;
  active?: boolean;
  /** Loading its first rows: keys wait until they are in (a `j` typed ahead moves on them). */
  loading?: boolean;
  bindings: Bindings;
  /**
   * Why Enter opens nothing once the list is in with no rows ("no call here"): the footer, help and
   * the key say so. Not while it loads, so the footer is the one the frame before Ink drew.
   */
  empty?: string;
}) {
  const actions = useActions();
  useHoldKeys(opts.loading ?? false);
  // The window the store keeps the cursor in is the rows the table shows, not its header.
  const rows = tableBodyHeight(opts.height);
  const moves: Bindings = {
    [Command.Up]: () => actions.moveCursor(-1, opts.count, rows),
    [Command.Down]: () => actions.moveCursor(1, opts.count, rows),
    [Command.Top]: () => actions.setCursor(0, opts.count, rows),
    [Command.Bottom]: () => actions.setCursor(opts.count - 1, opts.count, rows),
    [Command.PageUp]: () => actions.moveCursor(-rows, opts.count, rows),
    [Command.PageDown]: () => actions.moveCursor(rows, opts.count, rows),
  };
  const clicked = useClickedRow();
  // --mouse: the wheel moves the cursor, a click puts it on the row clicked.
  const onMouse = (e: MouseEvent) => {
    if (e.action === 'wheelUp' || e.action === 'wheelDown') {
      actions.moveCursor(e.action === 'wheelUp' ? -WHEEL_ROWS : WHEEL_ROWS, opts.count, rows);
      return true;
    }
    if (e.action !== 'press' || e.button !== 0) return false;
    const delta = clicked(e.y);
    if (delta === undefined) return false;
    actions.moveCursor(delta, opts.count, rows);
    return true;
  };
  const off = opts.empty && opts.count === 0 && !opts.loading && opts.bindings[Command.Open] ? { [Command.Open]: { disabled: opts.empty } } : {};
  useBindings(useRouteContexts(), withMoves(moves, { ...opts.bindings, ...off }), { priority: Priority.Screen, active: opts.active, onMouse });
}

/** Rows one notch of the wheel moves. */
const WHEEL_ROWS = 3;

/** For scrolled details: `lines` lines in `height` rows. */
export function useDetailKeys(opts: { lines: number; height: number; loading?: boolean; bindings?: Bindings }) {
  const actions = useActions();
  useHoldKeys(opts.loading ?? false);
  const max = Math.max(0, opts.lines - opts.height + 1);
  const page = Math.max(1, opts.height - 2);
  const by = (d: number) => () => actions.scrollBy(d, max);
  const moves: Bindings = {
    [Command.Up]: by(-1),
    [Command.Down]: by(1),
    [Command.PageUp]: by(-page),
    [Command.PageDown]: by(page),
    [Command.Top]: by(-max - 1),
    [Command.Bottom]: by(max),
  };
  const onMouse = (e: MouseEvent) => {
    if (e.action !== 'wheelUp' && e.action !== 'wheelDown') return false;
    actions.scrollBy(e.action === 'wheelUp' ? -WHEEL_ROWS : WHEEL_ROWS, max);
    return true;
  };
  useBindings(useRouteContexts(), withMoves(moves, opts.bindings ?? {}), { priority: Priority.Screen, onMouse });
}
