// The call log: newest first, filtered, paged backwards by creation time, refreshed live while on top.
import type { OutboundCallInput } from '../api/contract.js';
import type { Call, CallFilters } from '../api/schemas.js';
import { parseDateInput } from '../api/dates.js';
import { fetchCallsBefore, MAX_CALL_PAGE, type CallCursor } from '../api/pager.js';
import type { NavigationActions, NavigationState } from './navigation.js';
import type { Route, SliceCreator } from './types.js';
import { failure } from '../api/errors.js';
import { resourceError } from './types.js';
import type { UiActions } from './ui.js';

export const CALLS_PAGE_SIZE = 50;

/**
 * The first page is small for a fast first screen; later pages grow with what is loaded, up to
 * the service's largest, so paging to the end of 100k calls is ~100 requests, not 2,000.
 */
export function nextPageSize(loaded: number): number {
  return Math.min(MAX_CALL_PAGE, Math.max(CALLS_PAGE_SIZE, loaded));
}
/**
 * "Load more" fetches pages until it has a quarter of what is loaded, or for about this long,
 * and only then updates the log: every update redraws the screen and copies the whole log, and
 * that garbage, not the rows, is what grew the heap. Paging 100k calls with one update per page
 * left the console at 240–280 MB resident, one per batch at 170–200 MB (and paged faster).
 */
export const OLDER_BATCH_MS = 500;

/** Whether a batch of older calls is big enough (or took long enough) to show. */
export function olderBatchDone(got: number, loaded: number, elapsedMs: number): boolean {
  return got >= loaded / 4 || elapsedMs >= OLDER_BATCH_MS;
}

/** How often the visible call log / an unfinished call refreshes while it is the top view. */
export const LIVE_REFRESH_MS = 3000;

/** The filter form as the user typed it; dates accept YYYY-MM-DD or relative (24h, 7d). */
export interface CallFilterForm {
  assistantId: string;
  phoneNumberId: string;
  from: string;
  to: string;
  id: string;
}

export const EMPTY_CALL_FILTERS: CallFilterForm = { assistantId: '', phoneNumberId: '', from: '', to: '', id: '' };

export interface CallLogState {
  callLog: {
    status: 'idle' | 'loading' | 'error' | 'ready';
    calls: Call[];
    error?: string;
    hint?: string;
    fetchedAt?: number;
    /** Where "load more" continues; `cursor.done` when no older calls remain. */
    cursor?: CallCursor;
    exhausted: boolean;
    loadingMore: boolean;
    form: CallFilterForm;
    filters: CallFilters;
    live: boolean;
  };
}

export interface CallLogActions {
  loadCalls(opts?: { force?: boolean }): Promise<void>;
  loadMoreCalls(): Promise<void>;
  /** Re-reads the loaded window (new calls and status changes) without moving the cursor. */
  refreshCalls(): Promise<void>;
  /** Validates and applies the filter form; returns an error message naming the bad field, or null. */
  applyCallFilters(form: CallFilterForm): string | null;
  toggleLive(): void;
  loadCall(id: string): Promise<void>;
  /** Opens the raw JSON of a call: the whole record, loaded first (the log keeps only its row). */
  showCallJson(id: string): Promise<void>;
  placeCall(input: OutboundCallInput): Promise<Call | null>;
}

/** Turns the typed filter form into API filters, or says which field is wrong. */
export function callFiltersFromForm(form: CallFilterForm, now = new Date()): { filters: CallFilters } | { error: string } {
  const filters: CallFilters = {};
  if (form.assistantId.trim()) filters.assistantId = form.assistantId.trim();
  if (form.phoneNumberId.trim()) filters.phoneNumberId = form.phoneNumberId.trim();
  if (form.id.trim()) filters.id = form.id.trim();
  for (const [field, key, label] of [
    ['from', 'createdAtGt', 'From'],
    ['to', 'createdAtLt', 'To'],
  ] as const) {
    const text = form[field].trim();
    if (!text) continue;
    try {
      filters[key] = parseDateInput(text, { now, endOfDay: field === 'to' }).toISOString();
    } catch (err) {
      return { error: `${label} date: ${failure(err).message}` };
    }
  }
  return { filters };
}

/** Merges fetched calls into the loaded ones by id, newest first. */
export function mergeCalls(old: Call[], fresh: Call[]): Call[] {
  const byId = new Map(old.map((c) => [c.id, c]));
  for (const c of fresh) byId.set(c.id, { ...byId.get(c.id), ...c });
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
}

/**
 * Few distinct values repeat on every call (assistant, number, type, status, often the caller's
 * name): one string each. Capped, so a log of unique names cannot grow the table without bound.
 */
const shared = new Map<string, string>();
function one<T extends string | null | undefined>(v: T): T {
  if (typeof v !== 'string') return v;
  const seen = shared.get(v);
  if (seen !== undefined) return seen as T;
  if (shared.size < 10_000) shared.set(v, v);
  return v;
}

/**
 * The log's row for a call: only what the table, the chart and the filter show. The call's page
 * loads the whole record (`loadCall`); the summary is not kept (it was half of every row, and
 * the list never shows it). ~320 bytes a call at 100k calls (--expose-gc), ~680 with the summary.
 */
export function logRow(c: Call): Call {
  return {
    id: c.id,
    createdAt: c.createdAt,
    type: one(c.type),
    status: one(c.status),
    assistantId: one(c.assistantId),
    phoneNumberId: one(c.phoneNumberId),
    ...(c.customer ? { customer: { number: c.customer.number, name: one(c.customer.name) } } : {}),
    durationSeconds: c.durationSeconds,
    cost: c.cost,
  };
}

/**
 * Appends an older page from the pager. Only loaded calls at the page's newest timestamp can
 * repeat in it, so only that tail is checked: no re-sort, no index of the whole log.
 */
export function appendOlder(loaded: Call[], older: Call[]): Call[] {
  if (older.length === 0) return loaded;
  const newest = older.reduce((t, c) => (c.createdAt > t ? c.createdAt : t), older[0].createdAt);
  const tail = new Set<string>();
  for (let i = loaded.length - 1; i >= 0 && loaded[i].createdAt <= newest; i--) tail.add(loaded[i].id);
  return loaded.concat(tail.size ? older.filter((c) => !tail.has(c.id)) : older);
}

/**
 * Folds a refresh (every call created on or after some loaded call) into the log: changed calls
 * are updated where they are, new ones go in front. The loaded calls it can touch are a prefix
 * (the log is newest first), so only that prefix is indexed; the log keeps its identity when
 * nothing changed, so the screen does not redraw for a quiet refresh.
 */
export function mergeNewer(loaded: Call[], fresh: Call[]): Call[] {
  if (fresh.length === 0) return loaded;
  const oldest = fresh.reduce((t, c) => (c.createdAt < t ? c.createdAt : t), fresh[0].createdAt);
  let end = 0;
  while (end < loaded.length && loaded[end].createdAt >= oldest) end++;
  const at = new Map<string, number>();
  for (let i = 0; i < end; i++) at.set(loaded[i].id, i);
  let head: Call[] | undefined;
  const added: Call[] = [];
  for (const c of fresh) {
    const i = at.get(c.id);
    if (i === undefined) {
      // Newer than anything loaded goes in front; anything else (a gap) needs the full merge.
      if (loaded.length && c.createdAt < loaded[0].createdAt) return mergeCalls(loaded, fresh);
      added.push(c);
      continue;
    }
    const next = { ...loaded[i], ...c };
    if (JSON.stringify(next) === JSON.stringify(loaded[i])) continue;
    head ??= loaded.slice(0, end);
    head[i] = next;
  }
  if (!head && added.length === 0) return loaded;
  return [...mergeCalls([], added), ...(head ?? loaded.slice(0, end)), ...loaded.slice(end)];
}

/** The loaded calls on screen (the unfiltered window; with a text filter it is approximate). */
function visibleCalls(s: Full): Call[] {
  const view = s.views.calls;
  const from = view?.scroll ?? 0;
  return s.callLog.calls.slice(from, from + s.rows);
}

type Full = CallLogState & Pick<NavigationState, 'views'> & { rows: number } & { records: Record<string, { status: string; data?: unknown; error?: string; hint?: string; fetchedAt?: number }>; actions: CallLogActions & UiActions & Pick<NavigationActions, 'push'> };

export const createCallLogSlice: SliceCreator<CallLogState, CallLogActions, Full> = (set, get, { api }) => {
  const setLog = (patch: Partial<CallLogState['callLog']>) => set((s) => ({ callLog: { ...s.callLog, ...patch } }));
  let generation = 0; // a reload with new filters makes older in-flight answers stale

  return {
    state: {
      callLog: { status: 'idle', calls: [], exhausted: false, loadingMore: false, form: EMPTY_CALL_FILTERS, filters: {}, live: true },
    },
    actions: {
      async loadCalls(opts) {
        const log = get().callLog;
        if (log.status === 'loading' || (log.status === 'ready' && !opts?.force)) return;
        const gen = ++generation;
        // A "load more" of the log being replaced ends here (its answer is dropped as stale).
        setLog({ status: 'loading', error: undefined, hint: undefined, loadingMore: false });
        try {
          const page = await fetchCallsBefore(api, log.filters, undefined, { pageSize: CALLS_PAGE_SIZE });
          if (gen !== generation) return;
          setLog({ status: 'ready', calls: mergeCalls([], page.calls.map(logRow)), cursor: page.cursor, exhausted: page.cursor.done, fetchedAt: Date.now() });
        } catch (err) {
          if (gen === generation) setLog({ status: 'error', ...resourceError(err) });
        }
      },
      async loadMoreCalls() {
        const log = get().callLog;
        if (log.status !== 'ready' || log.exhausted || log.loadingMore || log.calls.length === 0) return;
        const gen = generation;
        setLog({ loadingMore: true });
        const started = Date.now();
        let cursor = log.cursor;
        const older: Call[] = [];
        let failed: unknown;
        try {
          do {
            const page = await fetchCallsBefore(api, log.filters, cursor, { pageSize: nextPageSize(log.calls.length + older.length) });
            if (gen !== generation) return;
            for (const c of page.calls) older.push(logRow(c));
            cursor = page.cursor;
          } while (!cursor?.done && !olderBatchDone(older.length, log.calls.length, Date.now() - started));
        } catch (err) {
          if (gen !== generation) return;
          failed = err;
        }
        // Pages fetched before a failure are kept; the cursor is where they end.
        setLog({ calls: appendOlder(get().callLog.calls, older), cursor, exhausted: cursor?.done ?? false, loadingMore: false });
        if (failed) get().actions.flash(`Could not load older calls: ${failure(failed).message}`, 'error');
      },
      async refreshCalls() {
        const log = get().callLog;
        if (log.status !== 'ready') return get().actions.loadCalls({ force: true });
        const gen = generation;
        if (log.calls.length === 0) {
          // Nothing loaded to page back to: the first page, as a load would, without the spinner.
          try {
            const page = await fetchCallsBefore(api, log.filters, undefined, { pageSize: CALLS_PAGE_SIZE });
            if (gen !== generation) return;
            if (page.calls.length || log.error !== undefined) setLog({ calls: page.calls.map(logRow), cursor: page.cursor, exhausted: page.cursor.done, fetchedAt: Date.now(), error: undefined });
          } catch (err) {
            if (gen === generation) setLog({ error: failure(err).message });
          }
          return;
        }
        // New calls (on or after the newest loaded; createdAtGt is inclusive), and back as far as
        // the oldest call on screen that has not ended, so its status moves on; not the whole log.
        let since = log.calls[0]?.createdAt;
        for (const c of visibleCalls(get())) if (c.status !== 'ended' && since && c.createdAt < since) since = c.createdAt;
        if (log.filters.createdAtGt && (!since || since < log.filters.createdAtGt)) since = log.filters.createdAtGt;
        try {
          // Every call from `since` on, newest first, a page of 1000 at a time until the pages reach
          // `since` (where the loaded log is): however many arrived since the last refresh, the log
          // stays a contiguous prefix of the service's, with no calls missing between.
          const fresh: Call[] = [];
          let cursor: CallCursor | undefined;
          do {
            const page = await fetchCallsBefore(api, { ...log.filters, createdAtGt: since }, cursor, { pageSize: MAX_CALL_PAGE });
            if (gen !== generation) return;
            for (const c of page.calls) fresh.push(logRow(c));
            cursor = page.cursor;
          } while (!cursor.done);
          const now = get().callLog;
          const calls = mergeNewer(now.calls, fresh);
          // A quiet refresh (every 3 s while the log is on top) changes nothing: no update, no redraw.
          if (calls === now.calls && now.error === undefined) return;
          setLog({ calls, fetchedAt: Date.now(), error: undefined });
        } catch (err) {
          if (gen === generation) setLog({ error: failure(err).message });
        }
      },
      applyCallFilters(form) {
        const r = callFiltersFromForm(form);
        if ('error' in r) return r.error;
        generation++;
        setLog({ form, filters: r.filters, status: 'idle', calls: [], cursor: undefined, exhausted: false, loadingMore: false });
        void get().actions.loadCalls();
        return null;
      },
      toggleLive() {
        const live = !get().callLog.live;
        setLog({ live });
        get().actions.flash(live ? 'Live refresh on' : 'Live refresh paused');
      },
      async loadCall(id) {
        const key = `call:${id}`;
        const cur = get().records[key] ?? { status: 'idle' };
        if (cur.status === 'loading') return;
        set((s) => ({ records: { ...s.records, [key]: { ...cur, status: cur.data ? 'ready' : 'loading' } } }));
        try {
          const call = await api.getCall(id);
          set((s) => ({
            records: { ...s.records, [key]: { status: 'ready', data: call, fetchedAt: Date.now() } },
            callLog: { ...s.callLog, calls: s.callLog.calls.map((c) => (c.id === id ? { ...c, status: call.status, durationSeconds: call.durationSeconds, cost: call.cost } : c)) },
          }));
        } catch (err) {
          set((s) => ({ records: { ...s.records, [key]: { ...cur, status: 'error', ...resourceError(err) } } }));
        }
      },
      async showCallJson(id) {
        await get().actions.loadCall(id);
        const rec = get().records[`call:${id}`];
        if (rec?.data) get().actions.push({ name: 'json', title: `call ${id}`, value: rec.data });
        else get().actions.flash(`Could not load call ${id}: ${rec?.error ?? 'no answer'}`, 'error');
      },
      async placeCall(input) {
        try {
          const call = await api.placeOutboundCall(input);
          set((s) => ({ callLog: { ...s.callLog, calls: mergeNewer(s.callLog.calls, [logRow(call)]) } }));
          get().actions.flash(`Calling ${input.customer.number} (${call.status ?? 'queued'})`);
          return call;
        } catch (err) {
          get().actions.flash(`Could not place the call: ${failure(err).message}`, 'error');
          return null;
        }
      },
    },
  };
};

/** Polls for the top route: the live call log, or a call that has not ended yet. */
export function callPoller(route: Route, s: Full): (() => Promise<void>) | null {
  if (route.name === 'calls' && s.callLog.live && s.callLog.status === 'ready') return () => s.actions.refreshCalls();
  if (route.name === 'call') {
    const rec = s.records[`call:${route.id}`];
    const call = rec?.data as Call | undefined;
    if (rec?.status === 'ready' && call?.status !== 'ended') return () => s.actions.loadCall(route.id);
  }
  return null;
}
