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
  lazyArchive,
  searchTerms,
  serviceOf,
  SyncScheduler,
  type ArchiveHandle,
  type CallQuery,
  type SearchHit,
  type SyncStatus,
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
import type { NavigationActions } from './navigation.js';
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
  /** the turn latency's median and 95th percentile (ms), where the group's records carry performance metrics */
  latency?: { p50: number; p95: number; turns: number };
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
  /** The background sync, for "synced 40 s ago" and "syncing…" (src/archive/schedule.ts). */
  archiveSync: SyncStatus;
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
  /** The call log's filters changed: its stats are read again when next shown. */
  callLogFiltered(): void;
  loadAssistantActivity(id: string): void;
  /** Full-text search over the archive (words, "phrases", prefix*), newest first. */
  searchCalls(text: string): void;
  /** The call log filtered to one assistant's or one number's calls, on top of the view it was asked from (Esc or `-` come back). */
  showRelatedCalls(of: { assistantId: string } | { phoneNumberId: string }): void;
}

/**
 * What the archive's views ask of the call log, whoever holds it (calls.ts): the query its
 * filters make, and a re-read of its rows once a sync has written pages.
 */
export interface ArchiveReaders {
  /** The call log's filters as an archive query, and the id filter (which shows one call at most). */
  callLogQuery(): { query: CallQuery; id?: string };
  rereadCalls(): void;
}

type Full = ArchiveState & {
  actions: ArchiveActions & ArchiveReaders & Pick<UiActions, 'flash'> & Pick<NavigationActions, 'push'>;
};

const group = (r: { key: string | null; calls: number; minutes: number; cost: number; latency?: StatGroup['latency'] }): StatGroup => ({
  key: r.key ?? '',
  calls: r.calls,
  minutes: r.minutes,
  cost: r.cost,
  ...(r.latency ? { latency: r.latency } : {}),
});

export const createArchiveSlice: SliceCreator<ArchiveState, ArchiveActions, Full> = (set, get, deps) => {
  const scheduler = new SyncScheduler({
    archive: () => deps.archive.get(),
    api: deps.api,
    worker: deps.syncWorker,
    inGap: (fn) => deps.gaps.run(fn),
    status: () => get().archiveSync,
    setStatus: (patch) => set((s) => ({ archiveSync: { ...s.archiveSync, ...patch } })),
    reread: () => get().actions.rereadCalls(),
    // How the service had to be read (it ignores the date filters, …): said once a console.
    note: (text) => get().actions.flash(text),
  });
  deps.onDispose(() => scheduler.stop());

  return {
    state: {
      archiveSync: { running: false, complete: false },
      callStats: { status: 'idle' },
      assistantActivity: {},
      searches: {},
    },
    actions: {
      syncArchive(opts) {
        return scheduler.sync(opts);
      },
      loadCallStats(opts) {
        const cur = get().callStats;
        if (cur.status === 'ready' && !opts?.force) return;
        try {
          const archive = deps.archive.get();
          const { query: q, id } = get().actions.callLogQuery();
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
      callLogFiltered() {
        set({ callStats: { status: 'idle' } });
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
          const q = get().actions.callLogQuery().query;
          const hits = archive.search(text, q, { limit: SEARCH_LIMIT });
          const total = hits.length < SEARCH_LIMIT ? hits.length : archive.countSearch(text, q);
          set((s) => ({ searches: { ...s.searches, [text]: { status: 'ready', hits, total } } }));
        } catch (err) {
          set((s) => ({ searches: { ...s.searches, [text]: { status: 'error', hits: [], total: 0, error: failure(err).message } } }));
        }
      },
      showRelatedCalls(of) {
        // Its filter is the drill-down's (store/index.ts scopes the log by the stack): leaving it, the log is as it was.
        get().actions.push({ name: 'calls', drill: of });
      },
    },
  };
};
