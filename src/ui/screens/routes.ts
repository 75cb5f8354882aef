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

/** Every route's component, loaded (app.tsx awaits them before the first render). */
export async function loadScreens(): Promise<Record<RouteName, ComponentType<{ route: Route; width: number; height: number }>>> {
  const names = Object.keys(ROUTES) as RouteName[];
  const components = await Promise.all(names.map((n) => ROUTES[n].component()));
  return Object.fromEntries(names.map((n, i) => [n, components[i]])) as Record<RouteName, ComponentType<{ route: Route; width: number; height: number }>>;
}
