// Keys more than one screen folder gives its routes (a spec's `keys`): each is one command, named
// as keys.yaml remaps it, with the same keys, hint and footer place wherever it is (routeBindings,
// keymap.ts, holds routes sharing a command to that). A spec gives the shape and its handler:
// `openAssistant: rowKey(OPEN_ASSISTANT, 'call', (c, { actions }) => …)`, `copyId: copyIdKey('file')`, or
// `new: { ...NEW, run: … }`. Plain data: the frame before Ink loads this.
import { Footer, type KeyDescriptor } from '../keymap.js';
import type { Selected } from '../hooks/selection.js';
import type { ConsoleActions, ConsoleState } from '../../store/index.js';
import type { RouteUi } from './route-spec.js';

export interface KeyShape {
  keys: KeyDescriptor[];
  hint: string;
  footer?: number;
  write?: true;
}

export const NEW: KeyShape = { keys: [{ char: 'n' }], hint: 'new', footer: Footer.Normal, write: true };
export const DELETE: KeyShape = { keys: [{ char: 'd' }], hint: 'delete', footer: Footer.Normal, write: true };
export const OUTBOUND: KeyShape = { keys: [{ char: 'o' }], hint: 'call out', footer: Footer.Normal, write: true };
export const OPEN_ASSISTANT: KeyShape = { keys: [{ char: 'a' }], hint: 'its assistant', footer: Footer.Normal };
export const ASSISTANT_CALLS: KeyShape = { keys: [{ char: 'C' }], hint: 'its calls', footer: Footer.Normal };
const COPY_ID: KeyShape = { keys: [{ char: 'Y' }], hint: 'copy the id', footer: Footer.Low };
/** `v`: the page as shown, in $PAGER (its screen binds it: the lines are the component's). */
export const PAGER: KeyShape = { keys: [{ char: 'v' }], hint: 'view in $PAGER', footer: Footer.Low };
export const COPY_NUMBER: KeyShape = { keys: [{ char: '#' }], hint: 'copy the DID / customer number' };

/** What a key shared by several routes is given (a route's own `RouteKeyArgs` less its route). */
export interface KeyArgs {
  state: ConsoleState;
  actions: ConsoleActions;
  selected?: Selected;
}

/** A key shared by several routes: its shape, handler and reason to be off. */
export interface SharedKey extends KeyShape {
  run(a: KeyArgs & { ui: RouteUi }): void;
  disabled?(a: KeyArgs): string | undefined;
}

/**
 * A key that acts on the record under the cursor (or the page's): off, saying "no <what> here",
 * once the screen has said there is none; pressed before it has said, it does nothing.
 */
export function rowKey<T>(shape: KeyShape, what: string, run: (row: T, a: KeyArgs & { ui: RouteUi }) => void): SharedKey {
  return {
    ...shape,
    run: (a) => {
      const row = rowOf<T>(a);
      if (row !== undefined) run(row, a);
    },
    disabled: noRow(what),
  };
}

/** `Y`: copies the id of the record under the cursor. */
export const copyIdKey = (what: string): SharedKey => rowKey<{ id: string }>(COPY_ID, what, (r, { ui }) => ui.copy('id', r.id));

/**
 * What the screen gave, as the shape its spec declares for it (a spec exports it, and its
 * component passes `useSelection` one of that type: a field renamed on one side fails to compile).
 */
export function selectedOf<T extends Selected>(a: { selected?: Selected }): T | undefined {
  return a.selected as T | undefined;
}

/** The record the screen's keys act on, as its screen gave it (hooks/selection.ts), typed as the spec knows it is. */
export function rowOf<T>(a: { selected?: Selected }): T | undefined {
  return a.selected?.row as T | undefined;
}

/**
 * A row key's reason to be off: the screen has said, and nothing is under its cursor ("no
 * assistant here"). None while the screen has not said: a list holds the keys typed while its
 * first rows load (useListKeys), and a key pressed on a page still loading does nothing.
 */
function noRow(what: string): (a: { selected?: Selected }) => string | undefined {
  return (a) => (a.selected && a.selected.row === undefined ? `no ${what} here` : undefined);
}
