// The console store: one zustand vanilla store made of slices (navigation, ui, resources, call log).
// `createConsoleStore(api, target)` so tests make their own; React reaches it through StoreProvider.
// To add a slice (e.g. chat): write src/store/<slice>.ts with a SliceCreator (and optionally a
// poller), then add it to `ConsoleState`, `SLICES` and `POLLERS` below.
import { createElement, createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/shallow';
import type { VoiceAgentApi } from '../api/contract.js';
import type { KbFile } from '../api/schemas.js';
import { routeKey, type ConsoleTarget, type Deps, type Route } from './types.js';
import { createNavigationSlice, topRoute, type NavigationActions, type NavigationState } from './navigation.js';
import { createUiSlice, type UiActions, type UiState } from './ui.js';
import { createResourcesSlice, type ResourcesActions, type ResourcesState } from './resources.js';
import { callPoller, createCallLogSlice, LIVE_REFRESH_MS, type CallLogActions, type CallLogState } from './calls.js';
import { createChatSlice, enterChat, type ChatActions, type ChatState } from './chat.js';
import { createAsCodeSlice, type AsCodeActions, type AsCodeState } from './ascode.js';
import { createTestsSlice, enterTests, type TestsActions, type TestsState } from './tests.js';
import { archiveOpener, createArchiveSlice, type ArchiveActions, type ArchiveState } from './archive.js';
import { KeyGaps } from './key-gaps.js';
import { createRuntime, releaseRuntime, type StoreRuntime } from './runtime.js';

export type ConsoleActions = NavigationActions &
  UiActions &
  ResourcesActions &
  CallLogActions &
  ArchiveActions &
  ChatActions &
  AsCodeActions &
  TestsActions & {
    /** Stops timers (flash, polling), the sync and the scan (releaseRuntime); call when the console closes. */
    dispose(): void;
    /** Told by the keypress dispatcher after each key it drew: the store's background work goes in the gap after it (key-gaps.ts). */
    keyHandled(): void;
  };

export type ConsoleState = NavigationState &
  UiState &
  ResourcesState &
  CallLogState &
  ArchiveState &
  ChatState &
  AsCodeState &
  TestsState & {
    target: ConsoleTarget;
    actions: ConsoleActions;
  };

/** The store, and what its actions hold that is not state (runtime.ts). */
export type ConsoleStore = StoreApi<ConsoleState> & { readonly runtime: StoreRuntime };

/** A poller returns the refresh to run for the top route, or null when it has nothing to poll. */
type Poller = (route: Route, s: ConsoleState) => (() => Promise<void>) | null;
const POLLERS: Poller[] = [callPoller, filePoller];

/** A file being processed moves to done (or failed) without `r`: polled while its view is on top. */
export function filePoller(route: Route, s: ConsoleState): (() => Promise<void>) | null {
  if (route.name === 'files' && s.files.data?.files.some((f) => f.status === 'processing')) return () => s.actions.loadFiles({ force: true, quiet: true });
  if (route.name === 'file' && (s.records[`file:${route.id}`]?.data as KbFile | undefined)?.status === 'processing')
    return () => s.actions.loadFile(route.id, { quiet: true });
  return null;
}

/** Lists a screen only looks names up in are fetched again when older than this. */
const LOOKUP_MAX_AGE_MS = 60_000;

/**
 * What a route needs when it comes on top. What it shows is fetched again each time (the cached
 * rows stay on screen meanwhile, marked refreshing); lists it only looks names up in, when stale.
 */
type Enter = (route: Route, a: ConsoleActions, s: ConsoleState) => void;
const lookup = { maxAgeMs: LOOKUP_MAX_AGE_MS };
const ENTER: Enter[] = [
  (r, a, s) => {
    switch (r.name) {
      case 'assistants':
      case 'number-link':
        return void a.loadAssistants({ force: true });
      case 'assistant':
        // Its calls, cost and last call from the archive (read again when a sync ends), its numbers.
        a.loadAssistantActivity(r.id);
        void a.loadNumbers();
        void a.syncArchive();
        void a.loadAssistant(r.id);
        return void a.loadFiles();
      case 'assistant-edit':
        void a.loadAssistant(r.id);
        return void a.loadFiles(lookup);
      case 'assistant-kb':
        void a.loadAssistants(lookup);
        return void a.loadFiles({ force: true });
      case 'numbers':
      case 'calls':
      case 'call-filters':
      case 'call-outbound':
        void a.loadAssistants(lookup);
        void a.loadNumbers(r.name === 'numbers' ? { force: true } : lookup);
        // The call log is folded into, not reloaded: the calls loaded and the cursor stay.
        if (r.name === 'calls') void (s.callLog.status === 'ready' ? a.refreshCalls() : a.loadCalls());
        return;
      case 'call':
        void a.loadAssistants(lookup);
        void a.loadNumbers(lookup);
        return void a.loadCall(r.id);
      case 'call-stats':
        void a.loadAssistants();
        void a.loadNumbers();
        return a.loadCallStats({ force: true });
      case 'call-search':
        void a.loadAssistants();
        void a.loadNumbers();
        return a.searchCalls(r.text);
      case 'files':
        return void a.loadFiles({ force: true });
      case 'file':
        void a.loadAssistants(lookup);
        return void a.loadFile(r.id);
    }
  },
  (r, a) => enterChat(r, a),
  (r, a, s) => enterTests(r, a, () => s),
];

/** Routes whose entry only reads, asked again while the service is offline (a chat's entry may start one). */
const RETRIED = new Set<Route['name']>(['assistants', 'assistant', 'assistant-kb', 'numbers', 'number-link', 'calls', 'call', 'files', 'file']);

/** How fresh what the route on top shows is: being fetched again, or kept from before a refresh that failed. */
export interface Freshness {
  state: 'fresh' | 'refreshing' | 'stale';
  error?: string;
}

export function freshnessOf(route: Route, s: ConsoleState): Freshness {
  const of = (r: { status: string; data?: unknown; error?: string } | undefined): Freshness => {
    if (!r?.data) return { state: 'fresh' }; // nothing shown yet: the screen shows loading or the error itself
    if (r.status === 'loading') return { state: 'refreshing' };
    if (r.status === 'error') return { state: 'stale', error: r.error };
    return { state: 'fresh' };
  };
  switch (route.name) {
    case 'assistants':
    case 'number-link':
      return of(s.assistants);
    case 'assistant':
    case 'assistant-edit':
      return of(s.records[`assistant:${route.id}`]);
    case 'numbers':
      return of(s.numbers);
    case 'files':
    case 'assistant-kb':
      return of(s.files);
    case 'file':
      return of(s.records[`file:${route.id}`]);
    case 'call':
      return of(s.records[`call:${route.id}`]);
    case 'calls': {
      const log = s.callLog;
      if (log.calls.length === 0) return { state: 'fresh' };
      if (s.archiveSync.running) return { state: 'refreshing' };
      if (s.archiveSync.error !== undefined) return { state: 'stale', error: s.archiveSync.error };
      if (log.error !== undefined) return { state: 'stale', error: log.error };
      return { state: 'fresh' };
    }
    default:
      return { state: 'fresh' };
  }
}

export function createConsoleStore(
  api: VoiceAgentApi,
  target: ConsoleTarget,
  opts: { pollMs?: number; initialRoute?: Route; debugLog?: Deps['debugLog']; syncWorker?: Deps['syncWorker'] } = {},
): ConsoleStore {
  const disposers: (() => void)[] = [];
  // The target is read when the archive opens: the console learns the sandbox's address after the store is made.
  let current: () => ConsoleTarget = () => target;
  const archive = archiveOpener(() => current());
  const gaps = new KeyGaps();
  const runtime = createRuntime();
  const deps: Deps = {
    api,
    syncWorker: opts.syncWorker,
    target,
    archive,
    gaps,
    debugLog: opts.debugLog,
    disposers,
    onDispose: (fn) => void disposers.push(fn),
    runtime,
  };
  let disposed = false;
  const store = createStore<ConsoleState>()((set, get) => {
    // The header's connection state is the transport's, whoever made the request.
    const unwatch = api.onConnectionState((connectionState) => {
      if (disposed) return;
      const was = get().connectionState;
      set({ connectionState });
      // The embedded sandbox is back: the top view asks again now, not at the next tick.
      if (was === 'restarting' && RETRIED.has(topRoute(get()).name)) enter(get());
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
    ] as const;
    const parts = SLICES.map((make) => (make as (s: unknown, g: unknown, d: Deps) => { state: object; actions: object })(set, get, deps));

    // Only the top view polls: one loop asks the pollers about whatever route is on top now.
    let polling = false;
    const tick = async () => {
      if (disposed) return;
      const s = get();
      const route = topRoute(s);
      let run = POLLERS.map((p) => p(route, s)).find((f) => f !== null);
      // While the service does not answer, the top view asks again each tick: it resumes (and
      // says so) as soon as the service is back, without `r`.
      if (!run && s.connectionState === 'offline' && RETRIED.has(route.name)) run = async () => enter(get());
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
      dispose() {
        disposed = true;
        unwatch();
        clearInterval(loop);
        releaseRuntime(runtime);
        for (const fn of disposers.splice(0)) fn();
        gaps.dispose();
        archive.close();
      },
    }) as ConsoleActions;
    return Object.assign({}, ...parts.map((p) => p.state), { target, actions }) as ConsoleState;
  });

  // Entering a route (on top of the stack) loads what it shows: screens never fetch themselves.
  function enter(s: ConsoleState) {
    ENTER.forEach((e) => e(topRoute(s), s.actions, s));
  }
  current = () => store.getState().target;
  store.subscribe((s, prev) => {
    if (s.stack !== prev.stack && routeKey(topRoute(s)) !== routeKey(topRoute(prev))) enter(s);
    // The call log holds a window of rows around its cursor: a move past it reads the next one
    // (synchronously, before the frame), and its `/` filter walks the whole archive.
    const view = s.views.calls;
    if (view !== prev.views.calls && view) {
      if (view.filter !== (prev.views.calls?.filter ?? '')) s.actions.filterCalls(view.filter);
      else if (view.scroll !== prev.views.calls?.scroll || view.cursor !== prev.views.calls?.cursor) s.actions.windowCalls();
    }
    // A sync that ended changed what the archive's views show.
    if (prev.archiveSync.running && !s.archiveSync.running) {
      const top = topRoute(s);
      if (top.name === 'assistant') s.actions.loadAssistantActivity(top.id);
      else if (top.name === 'call-stats') s.actions.loadCallStats({ force: true });
    }
  });
  if (opts.initialRoute) store.setState({ stack: [opts.initialRoute] });
  enter(store.getState());
  return Object.assign(store, { runtime });
}

const StoreContext = createContext<ConsoleStore | null>(null);

export function StoreProvider({ store, children }: { store: ConsoleStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

function useConsoleStore(): ConsoleStore {
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
export type { EditText } from './ascode.js';
export { archiveLocation } from './archive.js';
