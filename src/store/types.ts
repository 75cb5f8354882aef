// Shared store types: routes, cached resources, and the slice-creator shape every slice follows
// (so a new slice, e.g. chat, lives in its own file and is added with one line in index.ts).
import type { StoreApi } from 'zustand/vanilla';
import type { VoiceAgentApi } from '../api/contract.js';
import { failure } from '../api/errors.js';
import type { RouteParams } from '../ui/screens/routes.js';

/**
 * Where the console is: one entry of the navigation stack. Made from the screen folders' specs
 * (ui/screens/routes.ts ROUTE_LIST, each folder's `defineRoutes<{ name: params }>`): a type only,
 * so the store knows the routes' shapes and imports no UI code.
 */
export type Route = { [N in keyof RouteParams & string]: { name: N } & RouteParams[N] }[keyof RouteParams & string];

export type RouteName = Route['name'];

/**
 * A route's view state key by its name and id (the spec's `viewKey` when those are not enough:
 * store/routes.ts viewKeyOf, which the store and the UI read).
 */
export function routeKey(r: Route): string {
  const id = 'id' in r ? r.id : 'sessionId' in r ? r.sessionId : 'assistantId' in r ? r.assistantId : 'usingFile' in r ? r.usingFile : undefined;
  return typeof id === 'string' && id ? `${r.name}:${id}` : r.name;
}

type LoadStatus = 'idle' | 'loading' | 'error' | 'ready';

/** A cached resource: what we have, when we got it, and whether a fetch is under way or failed. */
export interface Resource<T> {
  status: LoadStatus;
  data?: T;
  error?: string;
  /** What to do about the error (from the api's error kinds), when there is something to say. */
  hint?: string;
  /** Where the whole error went when it is too long to show (the debug log). */
  logged?: string;
  fetchedAt?: number;
  /** The data is the last-known rows from the local cache (fetchedAt is when the service gave them), not yet confirmed by the service. */
  cached?: boolean;
}

/** What the header shows about the service we talk to. */
export interface ConsoleTarget {
  /** 'sandbox' when the console started the embedded sandbox. */
  kind: 'sandbox' | 'remote';
  profile: string;
  baseUrl: string;
  /** Already masked (sk-…c0de); never the full key. */
  maskedKey?: string;
  /** Writes are refused (--read-only or the profile's readOnly); the header says so. */
  readOnly?: boolean;
  /** Where local data lives (remembered chat sessions); the XDG data dir when not given. */
  dataDir?: string;
  /** Where `:test` looks and a chat saved as a test goes; ./tests when not given. */
  testsDir?: string;
  /**
   * Where the console keeps what it holds only to be quick (the call archive, the last-known
   * rows of the lists): the XDG cache dir in the console. Without one, nothing is kept on disk.
   */
  cacheDir?: string;
  /**
   * Which service this is (config's serviceOf): the lists' cached rows and remembered sessions
   * of another service are not shown. Without it, the kind and base URL stand for it.
   */
  service?: string;
  /**
   * Where the console keeps what this profile did itself and the service may not say (the
   * numbers it linked): the XDG state dir in the console. Without one, only in memory.
   */
  stateDir?: string;
  /** The call archive's file and the service that fills it (src/store/archive.ts archiveLocation); a private temp one when not given. */
  archive?: { path: string; service: string };
}

/**
 * The service the store's archive sync talks to from its worker thread (src/archive/worker.ts):
 * base URL and key (kept in memory, never shown), and where that client's --debug lines and
 * rate-limit waits go, as the store's own client's do.
 */
export interface SyncWorkerTarget {
  baseUrl: string;
  apiKey: string;
  /** Where what is learned about the service is kept (src/target.ts traitsKeyOf). */
  traits?: { profile: string; url: string };
  debug?: (line: string) => void;
  onRateLimited?: (wait: import('../api/http.js').RateLimitWait) => void;
  /** The profile's ceiling of history requests in flight (its syncConcurrency), as the commands' syncs use it. */
  concurrency?: number;
}

export interface Deps {
  api: VoiceAgentApi;
  /** The key a route's view state is kept under (its spec's viewKey, else routeKey): store/routes.ts viewKeyOf over the store's routes. */
  viewKey(route: Route): string;
  /**
   * The target for the archive sync's worker, once connected. Without one (a store made from an
   * api alone: tests, embedders) the sync runs on the store's own thread with `api`.
   */
  syncWorker?: () => Promise<SyncWorkerTarget>;
  target: ConsoleTarget;
  /** The call archive, opened on first use (src/store/archive.ts). */
  archive: import('../archive/index.js').ArchiveHandle;
  /** Background work waits here for a gap between keys. */
  gaps: import('./key-gaps.js').KeyGaps;
  /** Appends a line to the debug log (keys masked); returns the log's path as shown, or undefined when it could not be written. */
  debugLog?: (line: string) => string | undefined;
  /**
   * Registers what to stop or write when the store is disposed (a slice's timers, its scan, the
   * sync, the session index's last writes); run by actions.dispose() in the order registered.
   * What a slice keeps between calls that nothing draws lives in the slice and is released here.
   */
  onDispose(fn: () => void): void;
  /** The config's profiles and the console's switch between them; without it (a store on an api alone) the console cannot switch. */
  profiles?: import('./profiles.js').ProfileSwitch;
}

/** A slice gives its initial state and its actions; actions are merged into one stable object. */
export type SliceCreator<S, A, Full> = (set: StoreApi<Full>['setState'], get: StoreApi<Full>['getState'], deps: Deps) => { state: S; actions: A };

/** An error as a resource records it: api's failure() (the user's words) and its next step. */
export function resourceError(err: unknown, debugLog?: Deps['debugLog']): { error: string; hint?: string; logged?: string } {
  const f = failure(err);
  // An error state shows a few lines of it (components/Status.tsx); a longer one is logged whole.
  const logged = f.message.length > LONG_ERROR || f.message.includes('\n') ? debugLog?.(`error: ${f.message}`) : undefined;
  return { error: f.message, hint: f.hint, ...(logged ? { logged } : {}) };
}

/** Characters past which an error is more than an error state shows. */
const LONG_ERROR = 200;
