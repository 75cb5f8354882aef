// The call log on the archive (src/archive, via src/store/archive.ts): it opens at once from what
// the archive holds while a sync runs in the background (src/archive/schedule.ts), and the store
// keeps only a window of rows around what is on screen (call-window.ts). `/` filters the whole
// archive a slice at a time (call-scan.ts). The slice moves the cursor with its call when calls
// arrive above it, refreshes the log while live, places a call once, and rings the sandbox.
import type { OutboundCallInput, Written } from '../api/contract.js';
import { ID_END_LEAST, idQuery } from '../format/short-id.js';
import { uncertainAfterError, uncertainAfterUnread } from './writes.js';
import type { Call, CallFilters } from '../api/schemas.js';
import { parseDateInput } from '../api/dates.js';
import type { CallOrder, FilterText } from '../archive/index.js';
import { EMPTY_VIEW, scrollFor, type ListSort, type NavigationActions, type NavigationState, type ViewState } from './navigation.js';
import type { Resource, SliceCreator } from './types.js';
import { failure } from '../api/errors.js';
import { resourceError } from './types.js';
import type { UiActions, UiState } from './ui.js';
import type { ResourcesActions, ResourcesState } from './resources.js';
import { archiveQuery, type ArchiveActions, type ArchiveReaders } from './archive.js';
import { CallWindow, callRows, windowFor, type CallRows } from './call-window.js';
import { CallScan } from './call-scan.js';
import { numberDid } from '../api/records.js';

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

/** The call log's columns its sort key (O) cycles through, each an order the archive reads in. */
export const CALL_SORT_COLUMNS = ['CREATED', 'STATUS', 'DUR', 'COST'] as const;
const ORDER_BY: Record<(typeof CALL_SORT_COLUMNS)[number], CallOrder['by']> = { CREATED: 'created', STATUS: 'status', DUR: 'duration', COST: 'cost' };

/** The archive's order for the call log's sort (none: newest first). */
function callOrder(sort: ListSort | undefined): CallOrder | undefined {
  const by = sort && ORDER_BY[sort.column as keyof typeof ORDER_BY];
  return by ? { by, desc: sort.desc } : undefined;
}

/** Days the call log's chart shows at most. */
const CHART_DAYS = 60;

export interface CallLogState {
  callLog: {
    /** idle until first shown; ready as soon as the archive is open (it may still be syncing) */
    status: 'idle' | 'ready' | 'error';
    /** The rows of the window around the screen, newest first: positions `from` … `from + calls.length - 1`. */
    calls: Call[];
    /** The archive's position (rowid) of each row of `calls`. */
    positions: number[];
    from: number;
    /** Calls matching the filters (and the `/` text) in the archive; while `filtering`, those found so far. */
    total: number;
    /** A `/` filter still walking the archive. */
    filtering: boolean;
    /** Calls per local day, oldest first, for the chart (the last CHART_DAYS days that have calls). */
    perDay: { day: string; count: number }[];
    error?: string;
    hint?: string;
    logged?: string;
    form: CallFilterForm;
    filters: CallFilters;
    /** While a drill-down's filter applies (`C`): which one, and the log's own form to go back to. */
    drill?: { key: string; main: CallFilterForm };
    live: boolean;
  };
  /**
   * What the last outbound call request returned when it may have placed a call without saying
   * so (no answer, or an answer with no call in it); the form asks before sending another.
   */
  outboundAttempt: string | null;
}

export interface CallLogActions extends ArchiveReaders {
  /** Shows the log from the archive and syncs it in the background; `force` (r) syncs again now. */
  loadCalls(opts?: { force?: boolean }): Promise<void>;
  /** A sync for new calls and unfinished ones, then the rows again (the live refresh). */
  refreshCalls(): Promise<void>;
  /** Reads the window the top view's cursor needs (called when the cursor or scroll moves). */
  windowCalls(): void;
  /**
   * Reads the log in its new order (the sort changed; `was`: the view before). Under a `/` filter
   * the matches are sorted again and the cursor stays on its call, on the same screen row.
   */
  sortCalls(was: ViewState): void;
  /** Starts the `/` filter over the whole archive. */
  filterCalls(text: string): void;
  /** Validates and applies the filter form; returns an error message naming the bad field, or null. */
  applyCallFilters(form: CallFilterForm): string | null;
  /**
   * The filters of the call log the stack shows (its topmost `calls` route): a drill-down's own
   * (one assistant's or number's calls, over the log's dates), or, once none is on the stack, the log's own again.
   */
  scopeCallLog(drill: { assistantId: string } | { phoneNumberId: string } | undefined): void;
  toggleLive(): void;
  loadCall(id: string): Promise<void>;
  /** Opens the raw JSON of a call: the whole record, loaded first (the log keeps only its row). */
  showCallJson(id: string): Promise<void>;
  /**
   * Places the call once. Refused (null) while `outboundAttempt` is set unless `again` (the form
   * asks first). A 2xx is a success even without a call in its answer (`record` absent).
   */
  placeCall(input: OutboundCallInput, opts?: { again?: boolean }): Promise<Written<Call> | null>;
  /**
   * Calls the archive holds that `part` may name by id (the palette's short ids, src/format/short-id.ts):
   * those whose id ends with it (ID_END_LEAST characters or more), else those whose id starts with it;
   * none when the archive cannot be read.
   */
  callsWithIdPart(part: string): Call[];
  /** `:ring [did]`: the embedded or standalone sandbox simulates an inbound call (to the next linked number without a DID); elsewhere, refused. */
  ringSandbox(did?: string): Promise<void>;
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

/** The call log's route key: its view (cursor, scroll, filter) is stored under it. */
const CALLS = 'calls';

/** What the call log reads of the other slices (their exported state) and the actions it calls on them. */
type Full = CallLogState &
  Pick<NavigationState, 'views' | 'stack'> &
  Pick<UiState, 'rows'> &
  Pick<ResourcesState, 'assistants' | 'numbers' | 'records'> & {
    actions: CallLogActions &
      Pick<ArchiveActions, 'syncArchive' | 'callLogFiltered'> &
      Pick<UiActions, 'flash'> &
      Pick<NavigationActions, 'push' | 'syncView'> &
      Pick<ResourcesActions, 'putRecord'>;
  };

/** What `/` looks for: the text, and the assistants and numbers whose shown names contain it. */
function filterText(text: string, s: Full): FilterText {
  const t = text.trim().toLowerCase();
  return {
    text: t,
    assistantIds: (s.assistants.data ?? []).filter((a) => (a.name ?? '').toLowerCase().includes(t)).map((a) => a.id),
    numberIds: (s.numbers.data ?? []).filter((n) => (numberDid(n) ?? '').toLowerCase().includes(t)).map((n) => n.id),
  };
}

export const createCallLogSlice: SliceCreator<CallLogState, CallLogActions, Full> = (set, get, deps) => {
  const { api, debugLog } = deps;
  const setLog = (patch: Partial<CallLogState['callLog']>) => set((s) => ({ callLog: { ...s.callLog, ...patch } }));
  const view = (): ViewState => get().views[CALLS] ?? EMPTY_VIEW;
  const onTop = () => {
    const s = get();
    return s.stack[s.stack.length - 1]?.name === 'calls';
  };

  /** The rows held around the screen; the state shows what it holds (`show`). */
  const held = new CallWindow();
  /** The `/` scan of the current text, when one is under way or done (its connection is the archive's). */
  let scan: CallScan | undefined;
  /** The next window is queued for the next gap between keys. */
  let windowAhead = false;
  let disposed = false;
  deps.onDispose(() => {
    disposed = true;
    scan?.stop();
    scan = undefined;
  });

  const show = () => setLog({ calls: held.calls, positions: held.positions, from: held.from, total: held.total });
  const screen = () => ({ scroll: view().scroll, rows: get().rows });
  /** The log as it is filtered and ordered now. */
  const rows = (): CallRows => {
    const f = get().callLog.filters;
    return callRows(deps.archive.get(), { query: archiveQuery(f), id: f.id, order: callOrder(view().sort), scan: scan?.run });
  };

  /**
   * Reads the window the view needs (when it is not what is held); keeps the key of the row under
   * the cursor, unless `keepKey` (a walk that has not found the cursor's call yet).
   */
  function fillWindow(force: boolean, total = held.total, keepKey = false) {
    if (held.fill(rows(), screen(), total, force)) show();
    syncKey(keepKey);
  }

  /** The call under the cursor, so the cursor can stay on it when calls arrive above. */
  function syncKey(keepKey = false) {
    const v = view();
    const at = held.callAt(v.cursor);
    if (at && at.id !== v.key && !keepKey && onTop()) get().actions.syncView(CALLS, { cursor: v.cursor, scroll: v.scroll, key: at.id });
  }

  /** The per-day chart for the filters (the archive's rollup: the same cost at any size). */
  function readChart() {
    const f = get().callLog.filters;
    try {
      const from = Date.now() - CHART_DAYS * 86_400_000;
      const q = { ...archiveQuery(f), after: f.createdAtGt && Date.parse(f.createdAtGt) > from ? f.createdAtGt : from };
      const perDay = f.id ? [] : deps.archive.get().perDay(q);
      // The same counts keep the chart as drawn.
      const was = get().callLog.perDay;
      if (perDay.length !== was.length || perDay.some((d, i) => d.day !== was[i].day || d.count !== was[i].count)) setLog({ perDay });
    } catch {
      // the chart is a nicety: the log itself says what went wrong
    }
  }

  /** Puts the cursor at `at`, where its call `key` is now; rows added above move what is on screen with them, unless the view is at the top. */
  function follow(at: number, key: string) {
    const s = get();
    const v = view();
    if (at === v.cursor || !onTop()) return;
    const body = Math.max(1, s.rows - 8);
    const scroll = v.scroll === 0 ? scrollFor(at, 0, body) : Math.max(0, v.scroll + at - v.cursor);
    s.actions.syncView(CALLS, { cursor: at, scroll, key });
  }

  function stepScan() {
    const current = scan;
    if (!current) return;
    const v = view();
    const log = get().callLog;
    const { done, draw } = current.step({ rows: log.calls.length, total: log.total, window: windowFor(v.scroll, get().rows, current.count).count });
    if (draw) {
      setLog({ filtering: !done });
      // The cursor stays on its call as matches sort in above it; one the walk has not found yet keeps its key.
      const at = v.key === undefined ? undefined : rows().indexOf(v.key);
      if (at !== undefined) follow(at, v.key!);
      fillWindow(true, current.count, v.key !== undefined && at === undefined && !done);
    }
    if (!done) current.next(stepScan);
  }

  /** `keepRows`: the screen keeps its rows until the new walk has its own (a re-walk after a sync). */
  function startScan(text: string, keepRows = false) {
    scan?.stop();
    scan = undefined;
    const s = get();
    if (!text.trim()) {
      setLog({ filtering: false });
      return;
    }
    const f = s.callLog.filters;
    const order = callOrder(view().sort);
    const run = deps.archive.get().filterScan(filterText(text, s), { ...archiveQuery(f), ...(f.id ? { id: f.id } : {}) }, order);
    scan = new CallScan(text, run, order);
    if (keepRows) setLog({ filtering: true });
    else {
      held.clear();
      setLog({ filtering: true, calls: [], positions: [], from: 0, total: 0 });
    }
    stepScan();
  }

  return {
    state: {
      callLog: { status: 'idle', calls: [], positions: [], from: 0, total: 0, filtering: false, perDay: [], form: EMPTY_CALL_FILTERS, filters: {}, live: true },
      outboundAttempt: null,
    },
    actions: {
      async loadCalls(opts) {
        const log = get().callLog;
        if (log.status !== 'ready' || opts?.force) {
          try {
            deps.archive.get();
            setLog({ status: 'ready', error: undefined, hint: undefined });
            if (view().filter && !scan) startScan(view().filter);
            else get().actions.rereadCalls();
          } catch (err) {
            setLog({ status: 'error', ...resourceError(err, debugLog) });
            return;
          }
        }
        if (log.status !== 'ready' || opts?.force) await get().actions.syncArchive();
      },
      async refreshCalls() {
        if (get().callLog.status !== 'ready') return get().actions.loadCalls();
        await get().actions.syncArchive();
      },
      rereadCalls() {
        if (get().callLog.status !== 'ready') return;
        try {
          // A `/` filter walks again from the top: the calls that arrived may match.
          if (scan && !scan.done) return;
          if (scan) return startScan(scan.text, true);
          const v = view();
          const list = rows();
          const total = list.count();
          if (v.key !== undefined && total > 0) {
            const at = list.indexOf(v.key);
            if (at !== undefined) follow(at, v.key);
          }
          fillWindow(true, total);
          readChart();
        } catch (err) {
          setLog({ error: failure(err).message });
        }
      },
      callLogQuery() {
        const f = get().callLog.filters;
        return { query: archiveQuery(f), ...(f.id ? { id: f.id } : {}) };
      },
      callsWithIdPart(part) {
        const q = idQuery(part);
        if (!q) return [];
        try {
          const archive = deps.archive.get();
          const ends = q.length >= ID_END_LEAST ? archive.withIdEnd(q, 20) : [];
          return (ends.length ? ends : archive.withIdPrefix(q, 20)).map((r) => r.call);
        } catch {
          return []; // the service is asked for the id as typed
        }
      },
      windowCalls() {
        if (get().callLog.status !== 'ready') return;
        try {
          fillWindow(false);
        } catch (err) {
          setLog({ error: failure(err).message });
        }
        // Near an end of the rows held, the next window is read in the gap after a key (key-gaps.ts),
        // so the key that would have crossed into it finds its rows and reads nothing.
        if (!windowAhead && held.nearEnd(screen())) {
          windowAhead = true;
          deps.gaps.run(() => {
            windowAhead = false;
            if (get().callLog.status !== 'ready' || disposed) return;
            try {
              const moved = held.move(rows(), screen());
              if (moved !== 'none') show();
              if (moved === 'refilled') syncKey();
            } catch (err) {
              setLog({ error: failure(err).message });
            }
          });
        }
      },
      sortCalls(was) {
        if (!scan || get().callLog.status !== 'ready') return get().actions.rereadCalls();
        try {
          scan.reorder(callOrder(view().sort));
          const at = was.key === undefined ? undefined : rows().indexOf(was.key);
          if (at !== undefined && onTop()) get().actions.syncView(CALLS, { cursor: at, scroll: Math.max(0, at - (was.cursor - was.scroll)), key: was.key });
          fillWindow(true, scan.count);
        } catch (err) {
          setLog({ error: failure(err).message });
        }
      },
      filterCalls(text) {
        if (get().callLog.status !== 'ready') return;
        if ((scan?.text ?? '') === text) return;
        try {
          startScan(text);
          if (!text.trim()) get().actions.rereadCalls();
        } catch (err) {
          setLog({ error: failure(err).message });
        }
      },
      applyCallFilters(form) {
        const r = callFiltersFromForm(form);
        if ('error' in r) return r.error;
        held.clear();
        setLog({ form, filters: r.filters, calls: [], positions: [], from: 0, total: 0 });
        get().actions.callLogFiltered();
        get().actions.syncView(CALLS, { cursor: 0, scroll: 0, key: undefined });
        if (get().callLog.status === 'ready') {
          if (scan) startScan(scan.text);
          get().actions.rereadCalls();
        } else void get().actions.loadCalls();
        return null;
      },
      scopeCallLog(drill) {
        const log = get().callLog;
        const key = drill ? JSON.stringify(drill) : undefined;
        if (log.drill?.key === key) return;
        const main = log.drill?.main ?? log.form;
        const error = get().actions.applyCallFilters(drill ? { ...main, assistantId: '', phoneNumberId: '', id: '', ...drill } : main);
        if (error) get().actions.flash(error, 'error');
        setLog({ drill: key ? { key, main } : undefined });
      },
      toggleLive() {
        const live = !get().callLog.live;
        setLog({ live });
        get().actions.flash(live ? 'Live refresh on' : 'Live refresh paused');
      },
      async loadCall(id) {
        const key = `call:${id}`;
        const cur: Resource<unknown> = get().records[key] ?? { status: 'idle' };
        const put = get().actions.putRecord;
        if (cur.status === 'loading') return;
        // The archive has the whole record (transcript and all) when it has the call: shown at once.
        let archived: Call | undefined;
        try {
          archived = cur.data ? undefined : deps.archive.get().get(id);
        } catch {
          archived = undefined;
        }
        put(key, archived ? { status: 'ready', data: archived, fetchedAt: Date.now() } : { ...cur, status: cur.data ? 'ready' : 'loading' });
        if (archived?.status === 'ended') return;
        try {
          const call = await api.getCall(id);
          put(key, { status: 'ready', data: call, fetchedAt: Date.now() });
          try {
            // Not if a sync is writing (its worker's transaction would hold keys here): it brings the call.
            if (deps.archive.get().put([call], { wait: false })) get().actions.rereadCalls();
          } catch {
            // the archive catches up at its next sync
          }
        } catch (err) {
          if (!archived) put(key, { ...cur, status: 'error', ...resourceError(err, debugLog) });
        }
      },
      async showCallJson(id) {
        await get().actions.loadCall(id);
        const rec = get().records[`call:${id}`];
        if (rec?.data) get().actions.push({ name: 'json', title: `call ${id}`, value: rec.data });
        else get().actions.flash(`Could not load call ${id}: ${rec?.error ?? 'no answer'}`, 'error');
      },
      async placeCall(input, opts) {
        const { flash } = get().actions;
        if (get().outboundAttempt && !opts?.again) {
          flash('The last call request may have placed a call: confirm before placing another', 'error');
          return null;
        }
        set({ outboundAttempt: null });
        let placed: Written<Call>;
        try {
          placed = await api.placeOutboundCall(input);
        } catch (err) {
          const uncertain = uncertainAfterError(err);
          set({ outboundAttempt: uncertain && `to ${input.customer.number} ${uncertain}` });
          flash(`${uncertain ? 'The call may have been placed' : 'Could not place the call'}: ${failure(err).message}`, 'error');
          return null;
        }
        const call = placed.record;
        if (!call) {
          // Placed, by the service's word, but with no id to follow: the live log will show it.
          set({ outboundAttempt: placed.unread ? `to ${input.customer.number} ${uncertainAfterUnread(placed.unread)}` : null });
          flash(
            `Calling ${input.customer.number}: the service accepted the call (${placed.unread?.said || placed.unread?.status || 'no record'}); its id is ` +
              `unknown, so watch the call log`,
          );
          void get().actions.refreshCalls();
          return placed;
        }
        try {
          // Not if a sync is writing (its worker's transaction would hold keys here): it brings the call.
          if (deps.archive.get().put([call], { wait: false })) get().actions.rereadCalls();
        } catch {
          // shown after the next sync
        }
        flash(`Calling ${input.customer.number} (${call.status ?? 'queued'})`);
        return placed;
      },
      async ringSandbox(did) {
        const { flash } = get().actions;
        if (deps.target.kind !== 'sandbox') {
          flash(`:ring is sandbox-only (it simulates an inbound call); this console is on ${deps.target.baseUrl}: dial the number instead`, 'error');
          return;
        }
        try {
          const rang = await api.ringSandbox(did);
          if (rang.call && deps.archive.get().put([rang.call], { wait: false })) get().actions.rereadCalls();
          flash(rang.message || 'Ringing');
          void get().actions.refreshCalls();
        } catch (err) {
          flash(`Could not ring${did ? ` ${did}` : ''}: ${failure(err).message}`, 'error');
        }
      },
    },
  };
};
