// What the screen on top gives its route's own keys (the spec's `keys`, app.tsx RouteKeys): the
// row under a list's cursor, a record page's record, and what else only the screen knows (a
// number's linked assistant as the list shows it, a prompt of its own to open). The rows a list
// shows are filtered and sorted in its component; the keys that act on one live in the spec, so
// the component says which it is, as lazygit's contexts answer GetSelected().
//
// The screen publishes it after each render it commits; the dispatcher renders each key before the
// next (keypress.tsx), so a key reads what the screen showed when it was pressed. Until the screen
// has said (its first rows still loading), the value is undefined: keys then give no reason to be
// off, and the footer is the one the frame before Ink drew.
import { createContext, useContext, useLayoutEffect } from 'react';

/**
 * What a screen gives: `row`, the record its keys act on (none: nothing under the cursor). A spec
 * whose keys read more declares an interface over this one (numbers' `NumberSelection`), which
 * its component passes `useSelection` and its keys read with `selectedOf`. `keysOff`: the route's
 * keys are not offered now (a prompt of the screen's own is open, a chat is starting in the list's
 * place): the footer leaves them out.
 */
export interface Selected {
  row?: unknown;
  keysOff?: boolean;
}

/** One screen's selection, made for each route on top (its view key). */
export class Selection {
  private value: Selected | undefined;
  private readonly listeners = new Set<() => void>();

  get(): Selected | undefined {
    return this.value;
  }

  set(value: Selected | undefined): void {
    if (value === this.value) return;
    this.value = value;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export const SelectionContext = createContext<Selection | undefined>(undefined);

/**
 * Gives the route's keys what the screen has selected. Pass undefined while it cannot say (its
 * first rows loading); `{ row: undefined }` once it can and nothing is there.
 */
export function useSelection<T extends Selected>(value: T | undefined): void {
  const selection = useContext(SelectionContext);
  useLayoutEffect(() => selection?.set(value));
  // Gone with the screen: a route's keys never act on a row another screen left behind.
  useLayoutEffect(() => () => selection?.set(undefined), [selection]);
}
