import { routeKey, topRoute, viewOf, useConsole } from '../../store/index.js';
import type { ViewState } from '../../store/navigation.js';

/** The view state (cursor, scroll, filter) of the route on top of the stack. */
export function useTopView(): ViewState {
  return useConsole((s) => viewOf(s, routeKey(topRoute(s))));
}
