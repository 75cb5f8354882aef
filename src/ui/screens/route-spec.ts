// The shape of a route's spec: everything about a route in one place, in its screen folder's
// spec.ts. The list of folders is routes.ts. A spec is plain data and functions over the store's
// types: the first frame (ui/start.ts) reads titles and contexts before React and Ink are loaded,
// so the component is a lazy import: the first route's before Ink's first frame, the others after it (run.tsx).
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/types.js';
import type { RouteBehaviour, RouteOf } from '../../store/routes.js';
import type { KeyContext } from '../keymap.js';
import type { ScreenProps } from './shared.js';
import type { ConsoleState } from '../../store/index.js';
import type { PickItem } from '../components/Picker.js';

type ScreenComponent<N extends RouteName> = ComponentType<ScreenProps<RouteOf<N>>>;

/** A `:` command of the palette (k9s-style): its name (any prefix naming one command) and aliases. */
export interface PaletteCommand<N extends RouteName> {
  name: string;
  aliases: string[];
  /** Shown in the hint: what the argument is. */
  arg?: string;
  /** The argument is the rest of the line (a path may hold spaces), not one word. */
  rest?: boolean;
  /** Without its argument the command cannot run: this says what to give. */
  required?: string;
  /** What it opens: this route, then maybe one on top of it (`:calls <id>`: the call log, then that call). */
  open(arg: string | undefined): [RouteOf<N>, Route?];
  /** Opened on top of the stack (like `?`), not in its place (like the digits). */
  onTop?: boolean;
  /** It writes to the service (runs conversations): a read-only console refuses it, as it does a write key. */
  write?: boolean;
  /**
   * The records the argument names among those the console holds (an id, its start, a name); with
   * one the command opens it, with several a pick list. Undefined: nothing loaded to look in, the argument is taken as an id.
   */
  find?(arg: string, s: ConsoleState): { items: PickItem[]; what: string; open: 'assistant' | 'call' | 'file'; complete: boolean } | undefined;
}

export interface RouteSpec<N extends RouteName> extends RouteBehaviour<N> {
  /** Its breadcrumb. */
  title(route: RouteOf<N>): string;
  /**
   * The key contexts live while it is on top (footer, help, dispatch): `global` for the global
   * keys (left out where `q` and the digits must be text), `list` or `detail` for movement, and
   * a context of its own.
   */
  contexts: KeyContext[];
  /** The component that shows it, taking `{ route, width, height }`: `() => import('./X.js').then((m) => m.X)`. */
  component(): Promise<ScreenComponent<N>>;
  /** Its `:` command, if the palette opens it. */
  palette?: PaletteCommand<N>;
}

/** A screen folder's routes, each spec typed by its route's name. */
export type RouteSpecs<K extends RouteName> = { [N in K]: RouteSpec<N> };
