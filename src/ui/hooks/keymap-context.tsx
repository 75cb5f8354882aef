// The keymap and the routes reach components through context, handed down by the app (app.tsx
// `App`'s `keymap` and `routes`): the console's are made once at start (the routes' keys, then the
// user's keys file, ui/start.ts); a test may give its own. Never a module's export rewritten.
import { createContext, useContext } from 'react';
import type { Keymap } from '../keymap.js';
import { DEFAULT_ROUTES, type RouteRegistry } from '../screens/routes.js';

export const KeymapContext = createContext<Keymap>(DEFAULT_ROUTES.keymap);
export const RoutesContext = createContext<RouteRegistry>(DEFAULT_ROUTES);

/** The keys every reader uses: the dispatcher, the footer, help. */
export function useKeymap(): Keymap {
  return useContext(KeymapContext);
}

/** The routes' specs and screens. */
export function useRoutes(): RouteRegistry {
  return useContext(RoutesContext);
}
