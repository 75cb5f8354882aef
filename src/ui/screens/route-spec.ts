// The shape of a route's spec: everything about a route in one place, in its screen folder's
// spec.ts (`defineRoutes<{ name: params }>()({ name: spec })`). The list of folders is routes.ts;
// the Route union is made from it. A spec is plain data and functions over the store's types: the
// first frame (ui/start.ts) reads titles, contexts and keys before React and Ink are loaded, so
// the component is a lazy import: the first route's before Ink's first frame, the others after it (run.tsx).
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/types.js';
import type { RouteBehaviour, RouteOf } from '../../store/routes.js';
import type { Binding, KeyContext } from '../keymap.js';
import type { ScreenProps } from './shared.js';
import type { ConsoleActions, ConsoleState } from '../../store/index.js';
import type { PickItem } from '../components/Picker.js';
import type { Selected } from '../hooks/selection.js';
import type { EditText } from '../../store/index.js';

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
  find?(arg: string, s: ConsoleState): { items: PickItem[]; what: string; open: 'assistant' | 'call' | 'file' | 'session'; complete: boolean } | undefined;
}

/**
 * What a route's key handler and its disabled reason are given: the route on top, the store's
 * state and actions, and what its screen has selected (hooks/selection.ts: the row under a list's
 * cursor, a page's record; undefined until the screen has said, as in the frame before Ink).
 */
export interface RouteKeyArgs<N extends RouteName> {
  route: RouteOf<N>;
  state: ConsoleState;
  actions: ConsoleActions;
  selected?: Selected;
}

/** What a key's handler may do with the terminal (app.tsx provides it; a component test has none, and each says so in the flash). */
export interface RouteUi {
  /** Copies a text (OSC 52), saying what it is in words ("id", "DID"), or says why it did not. */
  copy(what: string, text: string | null | undefined): void;
  /** Hands the terminal to $EDITOR (`E`); undefined without a terminal. */
  editText: EditText | undefined;
  /** Shows a text in $PAGER. */
  page(text: () => string): void;
}

/**
 * A key of the route's own (live in its first context): its keys, description and footer place
 * as in the keymap (keymap.ts `Binding`), its handler, and why it is off when it is (lazygit's
 * `DisabledReason`): the footer and help say so, and pressed it flashes the reason.
 */
interface RouteKey<N extends RouteName> extends Omit<Binding, 'contexts' | 'keysIn'> {
  /**
   * Its handler. None: its screen binds it by command name (useBindings), for a key that works on
   * what only the component holds (a conversation's input and its recall, a page's own lines).
   */
  run?(a: RouteKeyArgs<N> & { ui: RouteUi }): void;
  /** Why the key does nothing now, or nothing when it works. */
  disabled?(a: RouteKeyArgs<N>): string | undefined;
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
  /**
   * What the frame drawn before Ink (ui/start.ts) shows where its body goes: one line, while
   * React and Ink load ("Loading…" when not given). The body itself is Ink's to draw.
   */
  firstFrame?(route: RouteOf<N>): string;
  /** Its `:` command, if the palette opens it. */
  palette?: PaletteCommand<N>;
  /** Its digit (a key of the `global` context), for a route whose params are all optional: it opens it in place of the screen on top. */
  jump?: string;
  /** Its own keys by command name (keys.yaml remaps them by that name in its first context). */
  keys?: Record<string, RouteKey<N>>;
  /** The help section its first context is listed under (routes with the same title share one); none: not in help's sections. */
  help?: string;
}

/** A screen folder's routes, each spec typed by its route's name. */
export type RouteSpecs<K extends RouteName> = { [N in K]: RouteSpec<N> };

/** The params of a route that has none (`{ name: 'files' }`). */
export type NoParams = Record<never, never>;

/**
 * A screen folder's routes with their params (the Route union is made from these, routes.ts). Its
 * specs' types stay in defineRoutes' argument: naming them here would make the union refer to itself.
 */
export type RouteGroup<P extends Record<string, object>> = { readonly [N in keyof P & string]: unknown } & { readonly __params?: P };

/**
 * A screen folder's routes: `defineRoutes<{ files: {}; file: { id: string } }>()({ files: {…}, file: {…} })`.
 * The params are written once, here; each spec is checked against its route's.
 */
export function defineRoutes<P extends Record<string, object>>(): (specs: { [N in keyof P & string]: RouteSpec<N & RouteName> }) => RouteGroup<P> {
  return (specs) => specs as RouteGroup<P>;
}
