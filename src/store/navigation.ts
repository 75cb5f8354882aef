// Navigation: a stack of routes (k9s style). Pushing pauses the view below; Esc pops;
// `-` swaps back to the stack as it was before the last push or jump (k9s's previous view). View state is kept per route key.
import type { Route, SliceCreator } from './types.js';

export interface ViewState {
  cursor: number;
  /** First visible row of a windowed list (or first line of a scrolled detail). */
  scroll: number;
  filter: string;
  /**
   * The key of the row under the cursor, for lists whose rows move under it (the call log gains
   * calls above): the screen finds that row again rather than keeping the row number.
   */
  key?: string;
  /** The list's order, by a column's header; none: the order the rows came in. */
  sort?: ListSort;
}

export interface ListSort {
  column: string;
  desc: boolean;
}

/** The next order the sort key gives: each column ascending, then descending, then the next column; after the last, none. */
export function nextSort(sort: ListSort | undefined, columns: readonly string[]): ListSort | undefined {
  if (!columns.length) return undefined;
  if (!sort) return { column: columns[0], desc: false };
  if (!sort.desc) return { column: sort.column, desc: true };
  const at = columns.indexOf(sort.column);
  return at >= 0 && at + 1 < columns.length ? { column: columns[at + 1], desc: false } : undefined;
}

export const EMPTY_VIEW: ViewState = Object.freeze({ cursor: 0, scroll: 0, filter: '' });

export interface NavigationState {
  stack: Route[];
  /** The stack before the last push or top-level jump, for `-`. */
  previousStack: Route[] | null;
  views: Record<string, ViewState>;
}

export interface NavigationActions {
  push(route: Route): void;
  /** Opens `route` on top; in place of the top route when that is one of its kind (a new search from the results). */
  pushOrReplace(route: Route): void;
  /** Puts `route` in place of the top route; on a stack of one, `under` goes below it (so Esc leads somewhere). */
  replaceTop(route: Route, under?: Route): void;
  /** Pops the top route; the bottom route stays. */
  back(): void;
  /** Jump to a top-level screen: the stack becomes just this route. */
  goTo(route: Route): void;
  previousView(): void;
  /** Move the cursor of the top view by delta within count rows, keeping it inside a window of `height` rows. */
  moveCursor(delta: number, count: number, height: number): void;
  setCursor(index: number, count: number, height: number): void;
  /** Writes back where a list found its cursor row after its rows changed (the call log's reads). */
  syncView(routeKey: string, patch: Pick<ViewState, 'cursor' | 'scroll' | 'key'>): void;
  setFilter(text: string): void;
  /** The top list's next order (nextSort) over these columns' headers; the cursor goes to the top. */
  cycleSort(columns: readonly string[]): void;
  /** Scroll a non-list view (detail) by delta lines, bounded by maxScroll. */
  scrollBy(delta: number, maxScroll: number): void;
}

export function topRoute(s: NavigationState): Route {
  return s.stack[s.stack.length - 1];
}

export function viewOf(s: NavigationState, key: string): ViewState {
  return s.views[key] ?? EMPTY_VIEW;
}

/** Keeps `cursor` visible in a window of `height` rows, moving `scroll` as little as possible. */
export function scrollFor(cursor: number, scroll: number, height: number): number {
  const h = Math.max(1, height);
  if (cursor < scroll) return cursor;
  if (cursor >= scroll + h) return cursor - h + 1;
  return scroll;
}

export const createNavigationSlice: SliceCreator<NavigationState, NavigationActions, NavigationState & { actions: NavigationActions }> = (
  set,
  get,
  { viewKey },
) => {
  const updateView = (patch: (v: ViewState) => Partial<ViewState>) =>
    set((s) => {
      const key = viewKey(topRoute(s));
      const v = viewOf(s, key);
      const next: ViewState = { ...v, ...patch(v) };
      if (next.key === undefined) delete next.key; // a list that does not follow its row has none
      return { views: { ...s.views, [key]: next } };
    });
  const sameRoute = (a: Route, b: Route) => viewKey(a) === viewKey(b);

  return {
    state: { stack: [{ name: 'assistants' }], previousStack: null, views: {} },
    actions: {
      push(route) {
        const s = get();
        if (sameRoute(topRoute(s), route)) return;
        set({ stack: [...s.stack, route], previousStack: s.stack });
      },
      pushOrReplace(route) {
        const s = get();
        if (topRoute(s).name !== route.name) return get().actions.push(route);
        if (sameRoute(topRoute(s), route)) return;
        set({ stack: [...s.stack.slice(0, -1), route], previousStack: s.stack });
      },
      replaceTop(route, under) {
        const below = get().stack.slice(0, -1);
        set({ stack: [...(below.length || !under ? below : [under]), route] });
      },
      back() {
        const s = get();
        if (s.stack.length > 1) set({ stack: s.stack.slice(0, -1) });
      },
      goTo(route) {
        const s = get();
        if (s.stack.length === 1 && sameRoute(s.stack[0], route)) return;
        set({ stack: [route], previousStack: s.stack });
      },
      previousView() {
        const s = get();
        if (s.previousStack) set({ stack: s.previousStack, previousStack: s.stack });
      },
      moveCursor(delta, count, height) {
        updateView((v) => {
          const cursor = Math.max(0, Math.min(count - 1, v.cursor + delta));
          return { cursor: Math.max(0, cursor), scroll: scrollFor(Math.max(0, cursor), v.scroll, height), key: undefined };
        });
      },
      setCursor(index, count, height) {
        updateView((v) => {
          const cursor = Math.max(0, Math.min(count - 1, index));
          return { cursor, scroll: scrollFor(cursor, v.scroll, height), key: undefined };
        });
      },
      syncView(key, patch) {
        set((s) => ({ views: { ...s.views, [key]: { ...viewOf(s, key), ...patch } } }));
      },
      cycleSort(columns) {
        updateView((v) => ({ sort: nextSort(v.sort, columns), cursor: 0, scroll: 0, key: undefined }));
      },
      setFilter(text) {
        updateView(() => ({ filter: text, cursor: 0, scroll: 0, key: undefined }));
      },
      scrollBy(delta, maxScroll) {
        updateView((v) => ({ scroll: Math.max(0, Math.min(Math.max(0, maxScroll), v.scroll + delta)) }));
      },
    },
  };
};
