import { topRoute, viewOf, useConsole } from '../../store/index.js';
import type { ViewState } from '../../store/navigation.js';
import { useRoutes } from './keymap-context.js';

/** The view state (cursor, scroll, filter) of the route on top of the stack, under its spec's view key. */
export function useTopView(): ViewState {
  const routes = useRoutes();
  return useConsole((s) => viewOf(s, routes.viewKey(topRoute(s))));
}
