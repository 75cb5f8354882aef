// The console on the call archive (src/archive): where the store's archive is, the background
// sync (in a worker thread, src/archive/worker.ts: its requests, parsing and writes never run on
// the thread that reads keys and draws frames, which only takes its progress and re-reads its
// window of rows), and what the screens read from it besides the call log (calls.ts): stats for
// the active filters, full-text search, and an assistant's activity.
import { join } from 'node:path';
import type { Call, CallFilters } from '../api/schemas.js';
import type { Target } from '../config/config.js';
import {
  archivePath,
  type CatchUps,
  lazyArchive,
  searchTerms,
  serviceOf,
  syncInWorker,
  type ArchiveHandle,
  type CallQuery,
  type SearchHit,
  type SyncOptions,
  type SyncProgress,
} from '../archive/index.js';

export type { SnippetPart } from '../archive/index.js';

/** The words and phrases a search looks for, as plain text to find in a call's lines (no quotes or `*`). */
export function searchedWords(text: string): string[] {
  return searchTerms(text)
    .terms.map((t) => t.replace(/^"|"?\*?$/g, '').replace(/"$/, ''))
    .filter(Boolean);
}
import { failure } from '../api/errors.js';
import type { ConsoleTarget, Resource, SliceCreator } from './types.js';
import { resourceError } from './types.js';
import type { UiActions } from './ui.js';

/** Where a target's archive is and which service fills it (the console passes these in its target). */
export function archiveLocation(resolved: Target): NonNullable<ConsoleTarget['archive']> {
  return { path: archivePath(resolved.profile), service: serviceOf(resolved) };
}

/**
 * The store's archive, opened on first use: the target's, or for a target without one (tests,
 * embedders) a private one in a temp dir, removed when the store is disposed.
 */
export function archiveOpener(target: () => ConsoleTarget): ArchiveHandle {
  return lazyArchive(() => {
    const t = target();
    if (t.archive) return t.archive;
    const service = `${t.kind}:${t.baseUrl}`;
    return t.cacheDir ? { path: join(t.cacheDir, 'archive', `${encodeURIComponent(t.profile)}.db`), service } : { service };
  });
}

/** The call log's filters as an archive query (the id filter is answered by id, not by query). */
export function archiveQuery(f: CallFilters): CallQuery {
  const q: CallQuery = {};
  if (f.assistantId) q.assistantId = f.assistantId;
  if (f.phoneNumberId) q.phoneNumberId = f.phoneNumberId;
  if (f.createdAtGt) q.after = f.createdAtGt;
  if (f.createdAtLt) q.before = f.createdAtLt;
  return q;
}

/** One group of the stats: its key (a local day, an assistant id), calls, minutes, cost. */
export interface StatGroup {
  key: string;
  calls: number;
  minutes: number;
  cost: number;
}

interface CallStats {
  byDay: StatGroup[];
  byAssistant: StatGroup[];
  total: StatGroup;
}

export interface AssistantActivity {
  assistantId: string;
  calls: number;
  minutes: number;
  cost: number;
  lastCall?: Call;
  /** when the archive last finished a sync (undefined: it has never been complete) */
  syncedAt?: number;
}

interface SearchResults {
  status: 'loading' | 'ready' | 'error';
  hits: SearchHit[];
  /** every match in the archive (the list shows the newest `hits`) */
  total: number;
  error?: string;
}

const SEARCH_LIMIT = 200;

export interface ArchiveState {
  /** The background sync, for "synced 40 s ago" and "syncing…". */
  archiveSync: {
    running: boolean;
    phase?: SyncProgress['phase'];
    /** when the last sync of any process ended (ms) */
    lastAt?: number;
    /** the archive holds the whole history */
    complete: boolean;
    error?: string;
    /** what to do about the error (a wrong key: switchboard login) */
    hint?: string;
  };
  callStats: Resource<CallStats>;
  assistantActivity: Record<string, Resource<AssistantActivity>>;
  searches: Record<string, SearchResults>;
}

export interface ArchiveActions {
  /**
   * Syncs the archive with the service in the background (one at a time); resolves when it ends.
   * Called while a sync runs, it resolves once the calls the service had at the call are archived:
   * the running sync catches up between two pages of its back-fill, or one more sync runs after it.
   */
  syncArchive(opts?: { backfill?: boolean }): Promise<void>;
  /** Calls, minutes and cost per day and per assistant for the call log's filters. */
  loadCallStats(opts?: { force?: boolean }): void;
  loadAssistantActivity(id: string): void;
  /** Full-text search over the archive (words, "phrases", prefix*), newest first. */
  searchCalls(text: string): void;
  /** The call log filtered to one assistant. */
  /** The call log filtered to one assistant's or one number's calls, on top of the view it was asked from (Esc or `-` come back). */
  showRelatedCalls(of: { assistantId: string } | { phoneNumberId: string }): void;
}

type Full = ArchiveState & {
  callLog: { filters: CallFilters; form: import('./calls.js').CallFilterForm };
  actions: ArchiveActions &
    UiActions & {
      applyCallFilters(form: import('./calls.js').CallFilterForm): string | null;
      push(route: import('./types.js').Route): void;
      rereadCalls(): void;
    };
};

/** Pages a sync on the store's own thread asks for. */
const CONSOLE_SYNC_PAGE = 200;
/**
 * A sync of a whole archive that was last synced this recently (the live refresh's, every few
 * seconds) runs on the store's thread: it can only find the calls of the last moments (one short
 * request and write), and starting a worker costs far more CPU than that each time. Any other
 * sync (the first of a console, a back-fill, a catch-up after a while) runs in a worker.
 */
const QUICK_SYNC_WITHIN_MS = 60_000;
/** Re-read the screen's rows at most this often while a sync writes pages. */
const REREAD_MS = 250;

const group = (r: { key: string | null; calls: number; minutes: number; cost: number }): StatGroup => ({
  key: r.key ?? '',
  calls: r.calls,
  minutes: r.minutes,
  cost: r.cost,
});

export const createArchiveSlice: SliceCreator<ArchiveState, ArchiveActions, Full> = (set, get, deps) => {
  const { api } = deps;
  // The sync under way, its callers and its stop (aborted by dispose()): deps.runtime.sync.
  const sync = deps.runtime.sync;
  const { catchUps, stop, said } = sync;
  // Calls made while a sync runs each asked it to catch up: answered once it has, or after the next sync.
  const answer = (upTo: number) => {
    const left: typeof sync.waiters = [];
    for (const w of sync.waiters) {
      if (w.n <= upTo) w.done();
      else left.push(w);
    }
    sync.waiters = left;
  };
  // Re-reads as pages land: at most every REREAD_MS, and never in a key's way (key-gaps.ts).
  const rr = deps.runtime.reread;
  const setSync = (patch: Partial<ArchiveState['archiveSync']>) => set((s) => ({ archiveSync: { ...s.archiveSync, ...patch } }));

  /** The screen's rows as the archive holds them now. */
  const reread = () => {
    rr.queued = false;
    if (rr.timer) {
      clearTimeout(rr.timer);
      rr.timer = undefined;
    }
    if (stop.signal.aborted) return;
    rr.last = Date.now();
    get().actions.rereadCalls();
    for (const fn of rr.then.splice(0)) fn();
  };
  /** A re-read in the next gap between keys (at once when no key is coming); `then` after it. */
  const rereadInGap = (then?: () => void) => {
    if (then) rr.then.push(then);
    if (rr.queued) return;
    rr.queued = true;
    deps.gaps.run(reread);
  };
  /** The screen's rows follow the archive as pages land, but not more often than REREAD_MS. */
  const rereadSoon = () => {
    if (rr.queued || rr.timer) return;
    const wait = rr.last + REREAD_MS - Date.now();
    if (wait <= 0) return rereadInGap();
    rr.timer = setTimeout(() => {
      rr.timer = undefined;
      rereadInGap();
    }, wait);
    rr.timer.unref?.();
  };

  const lastSyncAt = () => {
    const last = deps.archive.get().lastSync();
    return last ? Date.parse(last.at) : undefined;
  };

  return {
    state: {
      archiveSync: { running: false, complete: false },
      callStats: { status: 'idle' },
      assistantActivity: {},
      searches: {},
    },
    actions: {
      syncArchive(opts) {
        if (sync.running) {
          const n = catchUps.ask();
          return new Promise<void>((done) => sync.waiters.push({ n, done }));
        }
        const archive = deps.archive.get();
        const was = get().archiveSync;
        const quick = was.complete && was.error === undefined && was.lastAt !== undefined && Date.now() - was.lastAt < QUICK_SYNC_WITHIN_MS;
        // What the archive holds already ("1,000 calls", not "1,000 calls+" for a whole history).
        setSync({ running: true, error: undefined, hint: undefined, lastAt: lastSyncAt(), complete: was.complete || archive.complete() });
        sync.running = (async () => {
          try {
            const common: SyncOptions & { catchUp: CatchUps } = {
              backfill: opts?.backfill ?? true,
              wait: false,
              signal: stop.signal,
              catchUp: catchUps,
              // Pages landing while keys come are taken in the gap after one (key-gaps.ts).
              onProgress: (p) =>
                deps.gaps.run(() => {
                  if (stop.signal.aborted) return;
                  if (get().archiveSync.phase !== p.phase) setSync({ phase: p.phase });
                  if (p.caughtUp !== undefined) {
                    // The calls asked for are on screen when the callers go on.
                    const upTo = p.caughtUp;
                    rereadInGap(() => answer(upTo));
                  } else if (p.added || p.updated) rereadSoon();
                }),
            };
            const r =
              deps.syncWorker && !quick
                ? await deps
                    .syncWorker()
                    .then((t) =>
                      syncInWorker(
                        archive.path,
                        { baseUrl: t.baseUrl, apiKey: t.apiKey, traits: t.traits },
                        { ...common, debug: t.debug, onRateLimited: t.onRateLimited },
                      ),
                    )
                : await archive.sync(api, { ...common, pageSize: CONSOLE_SYNC_PAGE });
            if (stop.signal.aborted) return; // the store is gone: its archive is closed
            // How the service had to be read (it ignores the date filters, …): said once a console.
            for (const text of r.notes ?? []) {
              if (said.has(text)) continue;
              said.add(text);
              get().actions.flash(text);
            }
            // The rows as the sync left them, before it is said to be over (when another process
            // holds the sync, what it writes is read from the same file); nothing to read when
            // nothing changed (the live refresh, most of the time).
            if (r.added || r.updated || r.removed || r.busy) await new Promise<void>((done) => rereadInGap(done));
            if (stop.signal.aborted) return;
            setSync({ running: false, phase: undefined, lastAt: lastSyncAt() ?? Date.now(), complete: r.complete || archive.status().complete });
            // Another process's sync (busy) is read as it writes: no sync after this one for that.
            answer(r.busy ? Infinity : r.caughtUp);
          } catch (err) {
            if (stop.signal.aborted) return; // the store is gone
            await new Promise<void>((done) => rereadInGap(done));
            if (stop.signal.aborted) return;
            const { error, hint } = resourceError(err);
            setSync({ running: false, phase: undefined, error, hint, lastAt: lastSyncAt() });
            answer(Infinity); // the error is on screen; another sync now would meet it again
          } finally {
            sync.running = undefined;
            if (stop.signal.aborted) answer(Infinity);
            // Asked for after this sync's last walk for new calls: one more sync, the quick kind.
            else if (sync.waiters.length) void get().actions.syncArchive();
          }
        })();
        return sync.running;
      },
      loadCallStats(opts) {
        const cur = get().callStats;
        if (cur.status === 'ready' && !opts?.force) return;
        try {
          const archive = deps.archive.get();
          const q = archiveQuery(get().callLog.filters);
          const id = get().callLog.filters.id;
          // The id filter shows one call at most; its stats are that call's.
          const byDay = id ? { groups: [], total: { key: null, calls: 0, minutes: 0, cost: 0 } } : archive.stats('day', q);
          const byAssistant = id ? { groups: [] } : archive.stats('assistant', q);
          set({
            callStats: {
              status: 'ready',
              data: { byDay: byDay.groups.map(group), byAssistant: byAssistant.groups.map(group), total: group(byDay.total) },
              fetchedAt: Date.now(),
            },
          });
        } catch (err) {
          set({ callStats: { status: 'error', ...resourceError(err) } });
        }
      },
      loadAssistantActivity(id) {
        try {
          const archive = deps.archive.get();
          const stats = archive.stats('assistant', { assistantId: id });
          const total = stats.total;
          const [last] = archive.window({ assistantId: id }, { limit: 1 });
          const data: AssistantActivity = {
            assistantId: id,
            calls: total.calls,
            minutes: total.minutes,
            cost: total.cost,
            lastCall: last?.call,
            syncedAt: get().archiveSync.complete ? get().archiveSync.lastAt : undefined,
          };
          set((s) => ({ assistantActivity: { ...s.assistantActivity, [id]: { status: 'ready', data, fetchedAt: Date.now() } } }));
        } catch (err) {
          set((s) => ({ assistantActivity: { ...s.assistantActivity, [id]: { status: 'error', ...resourceError(err) } } }));
        }
      },
      searchCalls(text) {
        try {
          const archive = deps.archive.get();
          const q = archiveQuery(get().callLog.filters);
          const hits = archive.search(text, q, { limit: SEARCH_LIMIT });
          const total = hits.length < SEARCH_LIMIT ? hits.length : archive.countSearch(text, q);
          set((s) => ({ searches: { ...s.searches, [text]: { status: 'ready', hits, total } } }));
        } catch (err) {
          set((s) => ({ searches: { ...s.searches, [text]: { status: 'error', hits: [], total: 0, error: failure(err).message } } }));
        }
      },
      showRelatedCalls(of) {
        const error = get().actions.applyCallFilters({ ...get().callLog.form, assistantId: '', phoneNumberId: '', id: '', ...of });
        if (error) get().actions.flash(error, 'error');
        else get().actions.push({ name: 'calls' });
      },
    },
  };
};
