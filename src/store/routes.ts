// What the store needs to know about each route: what entering it loads, what polls while it is
// on top, whether it is asked again while the service is offline, and what a finished archive
// sync changes for it. The store does not know the routes itself: each screen folder declares
// them (src/ui/screens/<folder>/spec.ts) and the console hands the table to createConsoleStore,
// so the arrow stays ui → store. Imports only types (and nothing heavy): the first frame, drawn
// before React loads, reads the same specs.
import type { ConsoleActions, ConsoleState } from './index.js';
import { routeKey, type Route, type RouteName } from './types.js';

export type RouteOf<N extends RouteName> = Extract<Route, { name: N }>;

/** How fresh what the route on top shows is: being fetched again, or kept from before a refresh that failed. */
export interface Freshness {
  state: 'fresh' | 'refreshing' | 'stale';
  error?: string;
}

/** The freshness of a screen that shows one cached resource (a list, or a record of `records`). */
export function freshnessOfResource(r: { status: string; data?: unknown; error?: string } | undefined): Freshness {
  if (!r?.data) return { state: 'fresh' }; // nothing shown yet: the screen shows loading or the error itself
  if (r.status === 'loading') return { state: 'refreshing' };
  if (r.status === 'error') return { state: 'stale', error: r.error };
  return { state: 'fresh' };
}

export interface RouteBehaviour<N extends RouteName> {
  /**
   * What the route needs when it comes on top. What it shows is fetched again each time (the
   * cached rows stay on screen meanwhile, marked refreshing); lists it only looks names up in, when stale.
   */
  enter?(route: RouteOf<N>, a: ConsoleActions, s: ConsoleState): void;
  /** The refresh to run while the route is on top (only the top view polls), or null when it has nothing to poll. */
  poll?(route: RouteOf<N>, s: ConsoleState): (() => Promise<void>) | null;
  /** Its entry only reads: while the service does not answer it is entered again each tick, and when the embedded sandbox is back. */
  retried?: boolean;
  /** A sync of the call archive ended while the route was on top: what it shows from the archive is read again. */
  afterSync?(route: RouteOf<N>, a: ConsoleActions): void;
  /** Whether what it shows is being fetched again or stale (the header's mark); fresh when not given. */
  freshness?(route: RouteOf<N>, s: ConsoleState): Freshness;
  /** The key its view state (cursor, filter, scroll) is kept under, when its name and id are not enough (routeKey). */
  viewKey?(route: RouteOf<N>): string;
}

/** Every route's behaviour, by name (src/ui/screens/routes.ts builds it from the screen folders). */
export type RouteTable = { [N in RouteName]: RouteBehaviour<N> };

/** The behaviour of a route, typed for any route. */
export function behaviourOf(table: RouteTable, route: Route): RouteBehaviour<RouteName> {
  return table[route.name] as RouteBehaviour<RouteName>;
}

/** The key a route's view state is kept under: its spec's `viewKey`, else its name and id (routeKey). */
export function viewKeyOf(table: RouteTable, route: Route): string {
  return behaviourOf(table, route)?.viewKey?.(route) ?? routeKey(route);
}

/** Lists a screen only looks names up in are fetched again when older than this. */
const LOOKUP_MAX_AGE_MS = 60_000;
/** The options of a load of a list the screen only looks names up in. */
export const lookup = { maxAgeMs: LOOKUP_MAX_AGE_MS };
