// Every route of the console, from the screen folders' specs (<folder>/spec.ts: title, key
// contexts, component, what entering loads, poller, freshness, offline retry, palette command).
// Adding a screen is its folder and its line below. Plain data and functions, no components
// loaded: the console's start draws its first frame from these before React and Ink are loaded.
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/types.js';
import type { ConsoleState } from '../../store/index.js';
import type { Freshness, RouteTable } from '../../store/routes.js';
import type { RouteSpec, RouteSpecs } from './route-spec.js';
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
 * Every route's spec by name, one screen folder a line; the compiler insists on a spec for each
 * name of the Route union. The palette offers their commands in this order.
 */
export const ROUTES: RouteSpecs<RouteName> & RouteTable = {
  ...ASSISTANTS,
  ...NUMBERS,
  ...CALLS,
  ...CHAT,
  ...FILES,
  ...TESTS,
  ...HELP,
  ...PICK,
  ...PROFILES,
};

/** The spec of a route, typed for any route. */
export function specOf(r: Route): RouteSpec<RouteName> {
  return ROUTES[r.name] as RouteSpec<RouteName>;
}

export function titleOf(r: Route): string {
  return specOf(r).title(r);
}

/** How fresh what the route on top shows is (the header's mark). */
export function freshnessOf(r: Route, s: ConsoleState): Freshness {
  return specOf(r).freshness?.(r, s) ?? { state: 'fresh' };
}

type Screen = ComponentType<{ route: Route; width: number; height: number }>;

/** Each route's component once its chunk has loaded (filled by loadScreen). */
export const SCREENS: Partial<Record<RouteName, Screen>> = {};
const loading = new Map<RouteName, Promise<Screen>>();
const listeners = new Set<() => void>();

/** How many screens have loaded: the app's snapshot for re-rendering when one comes in. */
export function screensLoaded(): number {
  return Object.keys(SCREENS).length;
}

/** Loads a route's component (once: later calls share the load); the app re-renders when it is in (onScreenLoaded). */
export function loadScreen(name: RouteName): Promise<Screen> {
  let p = loading.get(name);
  if (!p) {
    p = (ROUTES[name].component() as Promise<Screen>).then((c) => {
      SCREENS[name] = c;
      for (const l of listeners) l();
      return c;
    });
    loading.set(name, p);
  }
  return p;
}

/** Calls `listener` each time a screen has loaded; returns the unsubscribe (for useSyncExternalStore). */
export function onScreenLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Every route's component: run.tsx loads the first route's before Ink's first frame and these after it. */
export async function loadScreens(): Promise<void> {
  await Promise.all((Object.keys(ROUTES) as RouteName[]).map(loadScreen));
}
