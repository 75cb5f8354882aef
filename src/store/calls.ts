// The call log on the archive (src/archive, via src/store/archive.ts): it opens at once from what
// the archive holds while a sync runs in the background, and the store keeps only a window of
// rows around what is on screen, read by query, so memory does not grow with the log and g/G
// reach either end of a million calls at once. `/` filters the whole archive (src/archive/filter.ts,
// in slices of a few ms so a keystroke never waits for the scan). The cursor stays on its call
// when calls arrive above it.
import type { OutboundCallInput, Written } from '../api/contract.js';
import { uncertainAfterError, uncertainAfterUnread } from './writes.js';
import type { Call, CallFilters } from '../api/schemas.js';
import { parseDateInput } from '../api/dates.js';
import type { ArchivedCall, CallOrder, FilterText } from '../archive/index.js';
import { EMPTY_VIEW, scrollFor, type ListSort, type NavigationActions, type NavigationState, type ViewState } from './navigation.js';
import type { SliceCreator } from './types.js';
import { failure } from '../api/errors.js';
import { resourceError } from './types.js';
import type { UiActions } from './ui.js';
import { archiveQuery, type ArchiveActions, type ArchiveState } from './archive.js';
import type { Assistant, PhoneNumber } from '../api/schemas.js';

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

/** An order in which a `/` walk (newest first) can find a match that sorts above those found before. */
const sortsFound = (order: CallOrder | undefined) => order !== undefined && !(order.by === 'created' && order.desc);

/**
 * How often a walk in such an order draws its matches again while it finds more: each draw sorts
 * what was found into what was drawn, so a draw waits for a quarter more matches (or a second).
 */
const SORTED_DRAW_MS = { least: 100, most: 1000 } as const;

/** Days the call log's chart shows at most. */
export const CHART_DAYS = 60;

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
    live: boolean;
  };
  /**
   * What the last outbound call request returned when it may have placed a call without saying
   * so (no answer, or an answer with no call in it); the form asks before sending another.
   */
  outboundAttempt: string | null;
}

export interface CallLogActions {
  /** Shows the log from the archive and syncs it in the background; `force` (r) syncs again now. */
  loadCalls(opts?: { force?: boolean }): Promise<void>;
  /** A sync for new calls and unfinished ones, then the rows again (the live refresh). */
  refreshCalls(): Promise<void>;
  /** Reads the count and the window again (after a sync wrote pages), keeping the cursor on its call. */
  rereadCalls(): void;
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
  toggleLive(): void;
  loadCall(id: string): Promise<void>;
  /** Opens the raw JSON of a call: the whole record, loaded first (the log keeps only its row). */
  showCallJson(id: string): Promise<void>;
  /**
   * Places the call once. Refused (null) while `outboundAttempt` is set unless `again` (the form
   * asks first). A 2xx is a success even without a call in its answer (`record` absent).
   */
  placeCall(input: OutboundCallInput, opts?: { again?: boolean }): Promise<Written<Call> | null>;
  /** Calls the archive holds whose id starts with `prefix` (the palette's short ids); none when it cannot be read. */
  callsWithIdPrefix(prefix: string): Call[];
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

type Full = CallLogState &
  ArchiveState &
  Pick<NavigationState, 'views' | 'stack'> & { rows: number } & {
    assistants: { data?: Assistant[] };
    numbers: { data?: PhoneNumber[] };
    records: Record<string, { status: string; data?: unknown; error?: string; hint?: string; fetchedAt?: number }>;
    actions: CallLogActions & ArchiveActions & UiActions & Pick<NavigationActions, 'push' | 'syncView'>;
  };

/** What `/` looks for: the text, and the assistants and numbers whose shown names contain it. */
function filterText(text: string, s: Full): FilterText {
  const t = text.trim().toLowerCase();
  return {
    text: t,
    assistantIds: (s.assistants.data ?? []).filter((a) => (a.name ?? '').toLowerCase().includes(t)).map((a) => a.id),
    numberIds: (s.numbers.data ?? []).filter((n) => (n.did ?? '').toLowerCase().includes(t)).map((n) => n.id),
  };
}

/** The rows read are the ones held: the same calls at the same positions, each record unchanged. */
function sameRows(rows: readonly ArchivedCall[], calls: readonly Call[], positions: readonly number[]): boolean {
  if (rows.length !== calls.length) return false;
  for (let i = 0; i < rows.length; i++) if (rows[i].position !== positions[i] || rows[i].call.id !== calls[i].id) return false;
  return JSON.stringify(rows.map((r) => r.call)) === JSON.stringify(calls);
}

/** Rows read around the screen: a screen above and below what is shown, so j/k and PgUp/PgDn rarely read. */
function windowFor(view: ViewState, screenRows: number, total: number): { from: number; count: number } {
  const h = Math.max(10, screenRows);
  const from = Math.max(0, Math.min(view.scroll - h, total - 3 * h));
  return { from: Math.max(0, from), count: 3 * h };
}

export const createCallLogSlice: SliceCreator<CallLogState, CallLogActions, Full> = (set, get, deps) => {
  const { api, debugLog } = deps;
  const setLog = (patch: Partial<CallLogState['callLog']>) => set((s) => ({ callLog: { ...s.callLog, ...patch } }));
  const view = (): ViewState => get().views[CALLS] ?? EMPTY_VIEW;

  /** The `/` scan of the current text (deps.runtime.callScan; its connection is the archive's). */
  const rt = deps.runtime;

  /** Rows [from, from + count) of the log as it is filtered now. */
  function readRows(from: number, count: number, total: number): ArchivedCall[] {
    const s = get();
    const f = s.callLog.filters;
    const archive = deps.archive.get();
    if (rt.callScan) return archive.byPositions(rt.callScan.run.positions(from, count));
    if (f.id) {
      const rowid = archive.positionOf(f.id);
      const rows = rowid === undefined ? [] : archive.byPositions([rowid]);
      return rows.filter((r) => !f.assistantId || r.call.assistantId === f.assistantId).slice(from, from + count);
    }
    const q = archiveQuery(f);
    const order = callOrder(view().sort);
    // The far end is read from the end (G on a million calls reads 3 screens, not a million rows).
    if (!order && from + count >= total && from > total / 2) return archive.page(q, undefined, { limit: total - from, direction: 'newer' });
    // In a sorted order, the back half is read in the reversed order: SQLite sorts up to the offset.
    if (order && from > total / 2)
      return archive.window(q, { offset: Math.max(0, total - from - count), limit: Math.min(count, total - from), order, fromEnd: true });
    return archive.window(q, { offset: from, limit: count, order });
  }

  /**
   * Rows [from, from + count), which lie just newer or just older than the held row at `position`:
   * in the archive's own order that is an index seek from that row, where an offset would step
   * over every row before it (the far end of a long log).
   */
  function readBeside(from: number, count: number, total: number, position: number | undefined, direction: 'newer' | 'older'): ArchivedCall[] {
    const f = get().callLog.filters;
    if (rt.callScan || f.id || callOrder(view().sort) || position === undefined) return readRows(from, count, total);
    return deps.archive.get().page(archiveQuery(f), position, { limit: count, direction });
  }

  function countAll(): number {
    const f = get().callLog.filters;
    if (rt.callScan) return rt.callScan.run.count;
    if (f.id) return readRows(0, 1, 1).length;
    return deps.archive.get().count(archiveQuery(f));
  }

  /**
   * Reads the window the view needs (when it is not what is held); keeps the key of the row under
   * the cursor, unless `keepKey` (a walk that has not found the cursor's call yet).
   */
  function fillWindow(force: boolean, total = get().callLog.total, keepKey = false) {
    const s = get();
    const v = view();
    const log = s.callLog;
    const need = windowFor(v, s.rows, total);
    const body = Math.max(1, s.rows);
    const have = log.from <= v.scroll && Math.min(v.scroll + body, total) <= log.from + log.calls.length;
    if (!have || force || total !== log.total) {
      const rows = readRows(need.from, need.count, total);
      const calls = rows.map((r) => r.call);
      // A re-read that finds the rows held (a quiet live refresh; a back-fill, which adds calls
      // below them) keeps them, so the screen formats no row again: only the count may change.
      const same = need.from === log.from && sameRows(rows, log.calls, log.positions);
      if (!same) setLog({ calls, positions: rows.map((r) => r.position), from: need.from, total });
      else if (total !== log.total) setLog({ total });
    }
    // The call under the cursor, so the cursor can stay on it when calls arrive above.
    const now = get().callLog;
    const at = now.calls[v.cursor - now.from];
    if (at && at.id !== v.key && !keepKey && s.stack[s.stack.length - 1]?.name === 'calls')
      get().actions.syncView(CALLS, { cursor: v.cursor, scroll: v.scroll, key: at.id });
  }

  /**
   * Centres the window on the screen again (a read ahead): the rows it still holds stay, the same
   * objects (no row is formatted again), and only the rows past them are read.
   */
  function moveWindow() {
    const s = get();
    const log = s.callLog;
    const total = log.total;
    const need = windowFor(view(), s.rows, total);
    const end = Math.min(need.from + need.count, total);
    const keepFrom = Math.max(log.from, need.from);
    const keepEnd = Math.min(log.from + log.calls.length, end);
    if (need.from === log.from) return;
    if (keepFrom >= keepEnd) return fillWindow(true, total);
    const before = need.from < keepFrom ? readBeside(need.from, keepFrom - need.from, total, log.positions[keepFrom - log.from], 'newer') : [];
    const after = keepEnd < end ? readBeside(keepEnd, end - keepEnd, total, log.positions[keepEnd - 1 - log.from], 'older') : [];
    // Fewer rows than asked: the log changed under the window; read it whole.
    if (before.length !== keepFrom - need.from || after.length !== end - keepEnd) return fillWindow(true, total);
    const kept = [keepFrom - log.from, keepEnd - log.from] as const;
    setLog({
      calls: [...before.map((r) => r.call), ...log.calls.slice(...kept), ...after.map((r) => r.call)],
      positions: [...before.map((r) => r.position), ...log.positions.slice(...kept), ...after.map((r) => r.position)],
      from: need.from,
    });
  }

  /** The screen is within half a screen of an end of the rows held, and more rows lie past that end. */
  function nearWindowEnd(): boolean {
    const log = get().callLog;
    const v = view();
    const body = Math.max(1, get().rows);
    const margin = Math.max(3, Math.floor(body / 2));
    const end = log.from + log.calls.length;
    return (log.from > 0 && v.scroll - log.from < margin) || (end < log.total && end - (v.scroll + body) < margin);
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

  /** Where the call under the cursor is now (calls arrived above it, or went), or undefined. */
  function positionOfKey(key: string): number | undefined {
    const f = get().callLog.filters;
    const rowid = deps.archive.get().positionOf(key);
    if (rowid === undefined) return undefined;
    if (rt.callScan) return rt.callScan.run.indexOf(rowid);
    if (f.id) return 0;
    return deps.archive.get().indexOf(archiveQuery(f), rowid, callOrder(view().sort));
  }

  /** Puts the cursor at `at`, where its call `key` is now; rows added above move what is on screen with them, unless the view is at the top. */
  function follow(at: number, key: string) {
    const s = get();
    const v = view();
    if (at === v.cursor || s.stack[s.stack.length - 1]?.name !== 'calls') return;
    const body = Math.max(1, s.rows - 8);
    const scroll = v.scroll === 0 ? scrollFor(at, 0, body) : Math.max(0, v.scroll + at - v.cursor);
    s.actions.syncView(CALLS, { cursor: at, scroll, key });
  }

  function stepScan() {
    const current = rt.callScan;
    if (!current) return;
    const before = current.run.count;
    const done = current.run.step();
    const log = get().callLog;
    const found = current.run.count;
    // Draw what the screen still lacks, and the count, without redrawing for every slice. In a
    // sorted order a match found may go above the rows drawn: those are drawn again as time passes.
    const v = view();
    const short = log.calls.length < windowFor(v, get().rows, found).count && found > before;
    const now = performance.now();
    const since = now - current.drawn;
    const more = sortsFound(callOrder(v.sort))
      ? found > log.total && ((since >= SORTED_DRAW_MS.least && found - log.total >= log.total / 4) || since >= SORTED_DRAW_MS.most)
      : found - log.total >= 1000;
    if (done || short || more) {
      current.drawn = now;
      setLog({ filtering: !done });
      // The cursor stays on its call as matches sort in above it; one the walk has not found yet keeps its key.
      const at = v.key === undefined ? undefined : positionOfKey(v.key);
      if (at !== undefined) follow(at, v.key!);
      fillWindow(true, found, v.key !== undefined && at === undefined && !done);
    }
    if (!done) current.timer = setImmediate(stepScan);
  }

  /** `keepRows`: the screen keeps its rows until the new walk has its own (a re-walk after a sync). */
  function startScan(text: string, keepRows = false) {
    if (rt.callScan?.timer) clearImmediate(rt.callScan.timer);
    rt.callScan = undefined;
    const s = get();
    if (!text.trim()) {
      setLog({ filtering: false });
      return;
    }
    const f = s.callLog.filters;
    const run = deps.archive.get().filterScan(filterText(text, s), { ...archiveQuery(f), ...(f.id ? { id: f.id } : {}) }, callOrder(view().sort));
    rt.callScan = { text, run, drawn: 0 };
    setLog(keepRows ? { filtering: true } : { filtering: true, calls: [], positions: [], from: 0, total: 0 });
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
            if (view().filter && !rt.callScan) startScan(view().filter);
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
          if (rt.callScan && !rt.callScan.run.done) return;
          if (rt.callScan) return startScan(rt.callScan.text, true);
          const s = get();
          const v = view();
          const total = countAll();
          if (v.key !== undefined && total > 0) {
            const at = positionOfKey(v.key);
            if (at !== undefined && at !== v.cursor && s.stack[s.stack.length - 1]?.name === 'calls') {
              // Rows added above move what is on screen with them, unless the view is at the top.
              const body = Math.max(1, s.rows - 8);
              const scroll = v.scroll === 0 ? scrollFor(at, 0, body) : Math.max(0, v.scroll + at - v.cursor);
              s.actions.syncView(CALLS, { cursor: at, scroll, key: v.key });
            }
          }
          fillWindow(true, total);
          readChart();
        } catch (err) {
          setLog({ error: failure(err).message });
        }
      },
      callsWithIdPrefix(prefix) {
        try {
          return deps.archive
            .get()
            .withIdPrefix(prefix.trim(), 20)
            .map((r) => r.call);
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
        if (!rt.windowAhead && nearWindowEnd()) {
          rt.windowAhead = true;
          deps.gaps.run(() => {
            rt.windowAhead = false;
            if (get().callLog.status !== 'ready' || rt.disposed) return;
            try {
              moveWindow();
            } catch (err) {
              setLog({ error: failure(err).message });
            }
          });
        }
      },
      sortCalls(was) {
        const scan = rt.callScan;
        if (!scan || get().callLog.status !== 'ready') return get().actions.rereadCalls();
        try {
          scan.run.reorder(callOrder(view().sort));
          const at = was.key === undefined ? undefined : positionOfKey(was.key);
          if (at !== undefined && get().stack[get().stack.length - 1]?.name === 'calls')
            get().actions.syncView(CALLS, { cursor: at, scroll: Math.max(0, at - (was.cursor - was.scroll)), key: was.key });
          fillWindow(true, scan.run.count);
        } catch (err) {
          setLog({ error: failure(err).message });
        }
      },
      filterCalls(text) {
        if (get().callLog.status !== 'ready') return;
        if ((rt.callScan?.text ?? '') === text) return;
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
        setLog({ form, filters: r.filters, calls: [], positions: [], from: 0, total: 0 });
        set({ callStats: { status: 'idle' } });
        get().actions.syncView(CALLS, { cursor: 0, scroll: 0, key: undefined });
        if (get().callLog.status === 'ready') {
          if (rt.callScan) startScan(rt.callScan.text);
          get().actions.rereadCalls();
        } else void get().actions.loadCalls();
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
        // The archive has the whole record (transcript and all) when it has the call: shown at once.
        let archived: Call | undefined;
        try {
          archived = cur.data ? undefined : deps.archive.get().get(id);
        } catch {
          archived = undefined;
        }
        set((s) => ({
          records: {
            ...s.records,
            [key]: archived ? { status: 'ready', data: archived, fetchedAt: Date.now() } : { ...cur, status: cur.data ? 'ready' : 'loading' },
          },
        }));
        if (archived?.status === 'ended') return;
        try {
          const call = await api.getCall(id);
          set((s) => ({ records: { ...s.records, [key]: { status: 'ready', data: call, fetchedAt: Date.now() } } }));
          try {
            // Not if a sync is writing (its worker's transaction would hold keys here): it brings the call.
            if (deps.archive.get().put([call], { wait: false })) get().actions.rereadCalls();
          } catch {
            // the archive catches up at its next sync
          }
        } catch (err) {
          if (!archived) set((s) => ({ records: { ...s.records, [key]: { ...cur, status: 'error', ...resourceError(err, debugLog) } } }));
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
