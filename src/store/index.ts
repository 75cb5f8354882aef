// The console store: one zustand vanilla store made of slices (navigation, ui, resources, call log).
// `createConsoleStore(api, target, { routes })` so tests make their own; React reaches it through
// StoreProvider. What a route loads, polls and retries comes with `routes` (store/routes.ts), from
// the screens' specs. To add a slice (e.g. chat): write src/store/<slice>.ts with a SliceCreator,
// then add it to `ConsoleState` and `SLICES` below.
import { createElement, createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/shallow';
import type { VoiceAgentApi } from '../api/contract.js';
import { type ConsoleTarget, type Deps, type Route } from './types.js';
import { EMPTY_VIEW, createNavigationSlice, topRoute, type NavigationActions, type NavigationState } from './navigation.js';
import { createUiSlice, type UiActions, type UiState } from './ui.js';
import { createResourcesSlice, type ResourcesActions, type ResourcesState } from './resources.js';
import { createCallLogSlice, LIVE_REFRESH_MS, type CallLogActions, type CallLogState } from './calls.js';
import { createChatSlice, type ChatActions, type ChatState } from './chat.js';
import { createAsCodeSlice, type AsCodeActions, type AsCodeState } from './ascode.js';
import { createTestsSlice, type TestsActions, type TestsState } from './tests.js';
import { createProfilesSlice, type ProfileSwitch, type ProfilesActions, type ProfilesState } from './profiles.js';
import { archiveOpener, createArchiveSlice, type ArchiveActions, type ArchiveState } from './archive.js';
import { KeyGaps } from './key-gaps.js';
import { behaviourOf, viewKeyOf, type RouteTable } from './routes.js';

export type ConsoleActions = NavigationActions &
  UiActions &
  ResourcesActions &
  CallLogActions &
  ArchiveActions &
  ChatActions &
  AsCodeActions &
  TestsActions &
  ProfilesActions & {
    /** Stops polling and what each slice registered with deps.onDispose (its timers, the scan, the sync); call when the console closes. */
    dispose(): void;
    /** Told by the keypress dispatcher after each key it drew: the store's background work goes in the gap after it (key-gaps.ts). */
    keyHandled(): void;
    /** Runs `fn` now, or while keys come in the gap after the next one (key-gaps.ts): the screens' own timers use it. */
    inKeyGap(fn: () => void): void;
  };

export type ConsoleState = NavigationState &
  UiState &
  ResourcesState &
  CallLogState &
  ArchiveState &
  ChatState &
  AsCodeState &
  TestsState &
  ProfilesState & {
    target: ConsoleTarget;
    actions: ConsoleActions;
  };

/** The store; `disposed` once actions.dispose() has run. */
export type ConsoleStore = StoreApi<ConsoleState> & { readonly disposed: boolean };

export function createConsoleStore(
  api: VoiceAgentApi,
  target: ConsoleTarget,
  opts: {
    /** What each route loads, polls and retries: the screens' specs (src/ui/screens/routes.ts), given so the store imports no UI. */
    routes: RouteTable;
    pollMs?: number;
    initialRoute?: Route;
    debugLog?: Deps['debugLog'];
    syncWorker?: Deps['syncWorker'];
    profiles?: ProfileSwitch;
  },
): ConsoleStore {
  const of = (route: Route) => behaviourOf(opts.routes, route);
  const disposers: (() => void)[] = [];
  // The target is read when the archive opens: the console learns the sandbox's address after the store is made.
  let current: () => ConsoleTarget = () => target;
  const archive = archiveOpener(() => current());
  const gaps = new KeyGaps();
  const viewKey = (r: Route) => viewKeyOf(opts.routes, r);
  const deps: Deps = {
    api,
    viewKey,
    syncWorker: opts.syncWorker,
    target,
    archive,
    gaps,
    debugLog: opts.debugLog,
    onDispose: (fn) => void disposers.push(fn),
    profiles: opts.profiles,
  };
  let disposed = false;
  const store = createStore<ConsoleState>()((set, get) => {
    // The header's connection state is the transport's, whoever made the request.
    const unwatch = api.onConnectionState((connectionState) => {
      if (disposed) return;
      const was = get().connectionState;
      set({ connectionState });
      // The embedded sandbox is back: the top view asks again now, not at the next tick.
      if (was === 'restarting' && of(topRoute(get())).retried) enter(get());
    });
    // Each slice sees the whole store; the casts narrow it to what the slice declares it needs.
    const SLICES = [
      createNavigationSlice,
      createUiSlice,
      createResourcesSlice,
      createCallLogSlice,
      createArchiveSlice,
      createChatSlice,
      createAsCodeSlice,
      createTestsSlice,
      createProfilesSlice,
    ] as const;
    const parts = SLICES.map((make) => (make as (s: unknown, g: unknown, d: Deps) => { state: object; actions: object })(set, get, deps));

    // Only the top view polls: one loop asks the route on top now what to refresh.
    let polling = false;
    const tick = async () => {
      if (disposed) return;
      const s = get();
      const route = topRoute(s);
      let run = of(route).poll?.(route, s) ?? undefined;
      // While the service does not answer, the top view asks again each tick: it resumes (and
      // says so) as soon as the service is back, without `r`.
      if (!run && s.connectionState === 'offline' && of(route).retried) run = async () => enter(get());
      if (run && !polling) {
        polling = true;
        await run().finally(() => (polling = false));
      }
    };
    // A tick while keys come waits for the gap after one (its request and its re-read stay out of
    // their way); `polling` keeps a tick from starting while the last one runs.
    const loop = setInterval(() => gaps.run(() => void tick()), opts.pollMs ?? LIVE_REFRESH_MS);
    loop.unref?.();

    const actions = Object.assign({}, ...parts.map((p) => p.actions), {
      keyHandled() {
        gaps.keyDrawn();
      },
      inKeyGap(fn: () => void) {
        gaps.run(fn);
      },
      dispose() {
        disposed = true;
        unwatch();
        clearInterval(loop);
        for (const fn of disposers.splice(0)) fn();
        gaps.dispose();
        archive.close();
      },
    }) as ConsoleActions;
    return Object.assign({}, ...parts.map((p) => p.state), { target, actions }) as ConsoleState;
  });

  // Entering a route (on top of the stack) loads what it shows: screens never fetch themselves.
  function enter(s: ConsoleState) {
    const route = topRoute(s);
    of(route).enter?.(route, s.actions, s);
  }
  current = () => store.getState().target;
  store.subscribe((s, prev) => {
    if (s.stack !== prev.stack) {
      // The call log's filters are those of the topmost call log on the stack (a drill-down's own, or the log's).
      const log = [...s.stack].reverse().find((r) => r.name === 'calls');
      s.actions.scopeCallLog(log?.name === 'calls' ? log.drill : undefined);
    }
    if (s.stack !== prev.stack && viewKey(topRoute(s)) !== viewKey(topRoute(prev))) enter(store.getState());
    // The call log holds a window of rows around its cursor: a move past it reads the next one
    // (synchronously, before the frame), and its `/` filter walks the whole archive.
    const view = s.views.calls;
    if (view !== prev.views.calls && view) {
      if (view.filter !== (prev.views.calls?.filter ?? '')) s.actions.filterCalls(view.filter);
      else if (view.sort !== prev.views.calls?.sort) s.actions.sortCalls(prev.views.calls ?? EMPTY_VIEW);
      else if (view.scroll !== prev.views.calls?.scroll || view.cursor !== prev.views.calls?.cursor) s.actions.windowCalls();
    }
    // A sync that ended changed what the archive's views show.
    if (prev.archiveSync.running && !s.archiveSync.running) {
      const top = topRoute(s);
      of(top).afterSync?.(top, s.actions);
    }
  });
  if (opts.initialRoute) store.setState({ stack: [opts.initialRoute] });
  enter(store.getState());
  return Object.defineProperty(store, 'disposed', { get: () => disposed, enumerable: true }) as ConsoleStore;
}

const StoreContext = createContext<ConsoleStore | null>(null);

export function StoreProvider({ store, children }: { store: ConsoleStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** The store itself, for a subscription over it and something else (app.tsx RouteKeys: the screen's selection too). */
export function useConsoleStore(): ConsoleStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useConsole must be used inside <StoreProvider>');
  return store;
}

/** Select a primitive or a stable reference from the store. */
export function useConsole<T>(selector: (s: ConsoleState) => T): T {
  return useStore(useConsoleStore(), selector);
}

/** Select several values at once; compared shallowly so a new object doesn't re-render. */
export function useConsoleShallow<T extends object>(selector: (s: ConsoleState) => T): T {
  return useStore(useConsoleStore(), useShallow(selector));
}

/** The one stable actions object. */
export function useActions(): ConsoleActions {
  return useStore(useConsoleStore(), (s) => s.actions);
}

/** Reads the state once, when an action needs it (no re-render as it changes). */
export function useReadState(): () => ConsoleState {
  return useConsoleStore().getState;
}

/** The actions, or null outside a console (a component rendered on its own, as in a test). */
export function useOptionalActions(): ConsoleActions | null {
  return useContext(StoreContext)?.getState().actions ?? null;
}

const noSubscription = () => () => {};

/** Whether a confirm dialog is open (false outside a console): a form's inputs leave it the keys. */
export function useDialogOpen(): boolean {
  const store = useContext(StoreContext);
  return useSyncExternalStore(store ? store.subscribe : noSubscription, () => (store ? store.getState().dialog !== null : false));
}

export { topRoute, viewOf } from './navigation.js';
export { routeKey } from './types.js';
export type { Route, RouteName, ConsoleTarget, SyncWorkerTarget } from './types.js';
export type { ProfileRow, ProfileSwitch } from './profiles.js';
export type { EditText } from './ascode.js';
export { archiveLocation } from './archive.js';
