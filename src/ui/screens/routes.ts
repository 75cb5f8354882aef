// Every route of the console, from the screen folders' specs (<folder>/spec.ts: its params,
// title, key contexts, its own keys and digit, help section, what the first frame shows, component,
// what entering loads, poller, freshness, offline retry, palette command, view-state key).
// Adding a screen is its folder and its line in ROUTE_LIST. Plain data and functions, no
// components loaded: the console's start draws its first frame from these before React and Ink are loaded.
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/types.js';
import type { ConsoleState } from '../../store/index.js';
import { viewKeyOf, type Freshness, type RouteTable } from '../../store/routes.js';
import { Keymap, jumpCommand, routeBindings, type Binding } from '../keymap.js';
import type { RouteGroup, RouteKeyArgs, RouteSpec, RouteSpecs } from './route-spec.js';
import { ASSISTANTS } from './assistants/spec.js';
import { NUMBERS } from './numbers/spec.js';
import { CALLS } from './calls/spec.js';
import { CHAT } from './chat/spec.js';
import { FILES } from './files/spec.js';
import { TESTS } from './tests/spec.js';
import { HELP } from './help/spec.js';
import { PICK } from './pick/spec.js';
import { PROFILES } from './profiles/spec.js';

/**
 * The screen folders' routes, one line a folder: the Route union is made from it (store/types.ts),
 * and the palette offers their commands, help its sections, in this order.
 */
export const ROUTE_LIST = [ASSISTANTS, NUMBERS, CALLS, CHAT, FILES, TESTS, HELP, PICK, PROFILES] as const;

type ParamsOf<G> = G extends { readonly __params?: infer P } ? P : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Each route's name and its params, from ROUTE_LIST. */
export type RouteParams = Intersection<ParamsOf<(typeof ROUTE_LIST)[number]>>;

type AnySpec = RouteSpec<RouteName>;
type Screen = ComponentType<{ route: Route; width: number; height: number }>;

/**
 * A list of route groups made into what the console reads: the spec of each route, the keymap
 * its keys make (keymap.ts), and each route's component once loaded. The console has one, of
 * ROUTE_LIST; a test may make one with a route of its own (test/ui/probe-route.test.tsx).
 */
export class RouteRegistry {
  readonly table: RouteSpecs<RouteName> & RouteTable;
  /** The keymap of these routes, before the user's keys file. */
  readonly keymap: Keymap;
  /** Each route's component once its chunk has loaded (filled by load). */
  readonly screens: Partial<Record<RouteName, Screen>> = {};
  private loading = new Map<RouteName, Promise<Screen>>();
  private listeners = new Set<() => void>();

  constructor(list: readonly RouteGroup<Record<string, object>>[], base?: Readonly<Record<string, Binding>>) {
    this.table = Object.assign({}, ...list) as RouteSpecs<RouteName> & RouteTable;
    const { table, sections } = routeBindings(
      Object.entries(this.table as Record<string, AnySpec>).map(([name, spec]) => ({
        name,
        contexts: spec.contexts,
        jump: spec.jump,
        keys: spec.keys,
        help: spec.help,
      })),
      base,
    );
    this.keymap = new Keymap(table, sections);
  }

  /** The spec of a route, typed for any route. */
  spec(r: Route | RouteName): AnySpec {
    return this.table[typeof r === 'string' ? r : r.name] as AnySpec;
  }

  title = (r: Route): string => this.spec(r).title(r);

  /** The key its view state (cursor, filter, scroll) is kept under. */
  viewKey = (r: Route): string => viewKeyOf(this.table, r);

  /** How fresh what the route on top shows is (the header's mark). */
  freshness(r: Route, s: ConsoleState): Freshness {
    return this.spec(r).freshness?.(r, s) ?? { state: 'fresh' };
  }

  /** The routes with a digit, and the command it is: `[goCalls, 'calls']`. */
  jumps(): [string, RouteName][] {
    return (Object.entries(this.table) as [RouteName, AnySpec][]).filter(([, s]) => s.jump).map(([name]) => [jumpCommand(name), name]);
  }

  /** Why each of the route's own keys is off now (the footer and help say so): by command. */
  disabled(r: Route, args: Omit<RouteKeyArgs<RouteName>, 'route'>): Map<string, string> {
    const off = new Map<string, string>();
    for (const [command, k] of Object.entries(this.spec(r).keys ?? {})) {
      const why = k.disabled?.({ ...args, route: r });
      if (why) off.set(command, why);
    }
    return off;
  }

  /** Loads a route's component (once: later calls share the load); the app re-renders when it is in (onLoaded). */
  load(name: RouteName): Promise<Screen> {
    let p = this.loading.get(name);
    if (!p) {
      p = (this.spec(name).component() as Promise<Screen>).then((c) => {
        this.screens[name] = c;
        for (const l of this.listeners) l();
        return c;
      });
      this.loading.set(name, p);
    }
    return p;
  }

  /** Every route's component: run.tsx loads the first route's before Ink's first frame and these after it. */
  async loadAll(): Promise<void> {
    await Promise.all((Object.keys(this.table) as RouteName[]).map((n) => this.load(n)));
  }

  /** Calls `listener` each time a screen has loaded; returns the unsubscribe (for useSyncExternalStore). */
  onLoaded = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** How many screens have loaded: the app's snapshot for re-rendering when one comes in. */
  loaded = (): number => Object.keys(this.screens).length;
}

/** The console's routes. */
export const DEFAULT_ROUTES = new RouteRegistry(ROUTE_LIST as unknown as readonly RouteGroup<Record<string, object>>[]);

/** Every route's spec by name; the compiler insists on a spec for each name of the Route union. */
export const ROUTES = DEFAULT_ROUTES.table;

/** The spec of a route, typed for any route. */
export function specOf(r: Route): AnySpec {
  return DEFAULT_ROUTES.spec(r);
}

/** What the frame drawn before Ink shows where the body of a route without `firstFrame` goes. */
export const LOADING = 'Loading…';

/** The line the frame drawn before Ink shows where the route's body goes. */
export function loadingLine(r: Route): string {
  return specOf(r).firstFrame?.(r) ?? LOADING;
}
