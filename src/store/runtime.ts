// What the store's actions keep between calls that nothing draws: a `/` scan under way, timers,
// requests in flight, the background sync's bookkeeping. Not zustand state (a scan or an
// AbortController is not something to render, and changing it must not re-render), and not hidden
// in the slices' closures either: one StoreRuntime per store, made by createConsoleStore, handed
// to the slices in `deps.runtime`, visible on the store as `store.runtime` (tests read it), and
// released by `actions.dispose()`. Nothing here is module-level: two stores share none of it.
import { CatchUps, type FilterScan } from '../archive/index.js';

/** The call log's `/` filter walking the archive a slice at a time (calls.ts). */
interface CallScan {
  /** the text it looks for */
  text: string;
  run: FilterScan;
  /** the next slice, queued */
  timer?: ReturnType<typeof setImmediate>;
  /** when its matches were last drawn (performance.now()) */
  drawn: number;
}

export interface StoreRuntime {
  /** dispose() has run: answers that arrive after it are dropped. */
  disposed: boolean;
  /** The call log's `/` scan, when one is under way or done (calls.ts). */
  callScan: CallScan | undefined;
  /** The flash on screen (ui.ts): its expiry, and the last flash's id (an expiry clears only its own flash). */
  flash: { timer?: ReturnType<typeof setTimeout>; seq: number };
  /** The archive's background sync (archive.ts). */
  sync: {
    /** the sync under way: one at a time */
    running: Promise<void> | undefined;
    /** calls made while it runs: each asks it to catch up */
    catchUps: CatchUps;
    /** those callers, each answered once the sync has caught up to its number */
    waiters: { n: number; done: () => void }[];
    /** sync notes already flashed (each is said once a console) */
    said: Set<string>;
    /** aborted by dispose(): the sync stops (its worker is asked to, then terminated) */
    stop: AbortController;
  };
  /** Re-reading the call log's rows as a sync's pages land (archive.ts). */
  reread: {
    /** when the last re-read ran (ms) */
    last: number;
    /** a re-read waiting for REREAD_MS to pass */
    timer?: ReturnType<typeof setTimeout>;
    /** a re-read is queued for the next gap between keys */
    queued: boolean;
    /** told once the next re-read is done */
    then: (() => void)[];
  };
  /** The call log's next window is queued for the next gap between keys (calls.ts). */
  windowAhead: boolean;
  /** Lists being fetched, by cache key (resources.ts): a second load of one waits for the first. */
  loading: Set<string>;
  /** The lists' cached rows being written (resources.ts): flushCachedLists() waits for them. */
  cacheWrites: Set<Promise<void>>;
  /** Chat sends in flight, by session id (chat.ts). */
  sends: Map<string, AbortController>;
  /** Bumped when a send lands in a session, so a slower load started earlier cannot overwrite newer turns (chat.ts). */
  turnVersions: Map<string, number>;
  /** The conversation-test run under way: a new run stops it from starting more scenarios (tests.ts). */
  testRun: AbortController | undefined;
  /** An external editor is open on an assistant's YAML (ascode.ts): a second edit waits. */
  editing: boolean;
}

export function createRuntime(): StoreRuntime {
  return {
    disposed: false,
    callScan: undefined,
    flash: { seq: 0 },
    sync: { running: undefined, catchUps: new CatchUps(), waiters: [], said: new Set(), stop: new AbortController() },
    reread: { last: 0, queued: false, then: [] },
    windowAhead: false,
    loading: new Set(),
    cacheWrites: new Set(),
    sends: new Map(),
    turnVersions: new Map(),
    testRun: undefined,
    editing: false,
  };
}

/** Stops what the runtime holds (dispose()): the scan's next slice, the flash's and re-read's timers, the sync. */
export function releaseRuntime(rt: StoreRuntime): void {
  rt.disposed = true;
  if (rt.callScan?.timer) clearImmediate(rt.callScan.timer);
  rt.callScan = undefined;
  if (rt.flash.timer) clearTimeout(rt.flash.timer);
  rt.flash.timer = undefined;
  if (rt.reread.timer) clearTimeout(rt.reread.timer);
  rt.reread.timer = undefined;
  rt.sync.stop.abort();
  // Whoever waits for a re-read goes on (the sync is stopped, so none will come).
  for (const fn of rt.reread.then.splice(0)) fn();
}
