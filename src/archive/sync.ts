// Sync: the archive catches up with the service's call log.
//
// The archive holds every call created between two points, `low` and `high`, and three walks
// move them (each page written in the same transaction as the walk's position after it, so a
// kill -9 at any moment resumes where the last committed page ended — no gaps, no duplicates;
// pages are committed in batches, see BATCH):
//  1. new calls: GET /calls/details newest first, created on or after `high` (calls sharing that
//     timestamp are read again and matched by id, whether the service's bound is strict or not),
//     page after page until a page reaches `high`: the walk has met the archive, and `high` moves
//     up to the walk's first call;
//  2. unfinished calls (queued, ringing, in progress) are read again until they end: those close
//     in time through the stretch of the log that holds them, where the date filters may be
//     used and that takes fewer requests, the others by id;
//  3. back-fill: the first sync walks the whole history from the top, in time windows paged at
//     once (`windows`, see backfill below); each window is done only when a page comes back
//     empty, adds nothing, or reaches below the window: a short page may be a cap.
// Paging by creation time with ties, page caps and date filters a service ignores is
// src/api/pager.ts's fetchCallsBefore: where the service cannot be paged (it ignores every date
// filter and has more calls than a page), the sync keeps what it read and fails with that message.
//
// Several processes may sync one archive: a lease row (owner, pid, expiry, renewed with every
// page) lets one write; the others wait for it (or return at once) and then catch up, which is
// one request when nothing is new. A lease whose process died (same host, pid gone) or expired
// is taken over.
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { VoiceAgentApi } from '../api/contract.js';
import { ApiError } from '../api/errors.js';
import type { LoadSignal } from '../api/http.js';
import { IGNORED_NOTICE, MAX_CALL_PAGE, PagingError, fetchCallsBefore, type CallCursor, type CallsPage } from '../api/pager.js';
import type { Call } from '../api/schemas.js';
import { transaction } from '../sqlite.js';
import { SLOTS, callsHeld } from './schema.js';
import { startCheckpointer, type Checkpointer } from './checkpoint.js';
import { callEnded, type CallWriter } from './write.js';
import { pidAlive } from '../config/lock.js';
import { Pace } from './pace.js';

export interface SyncProgress {
  /** what the sync is doing: new calls, re-reading unfinished ones, back-filling history, or waiting for another process's sync */
  phase: 'new' | 'unfinished' | 'backfill' | 'waiting';
  /** calls added and updated by this sync so far */
  added: number;
  updated: number;
  /** calls the archive holds now */
  held: number;
  /** back-fill: the oldest creation time reached with nothing missing above it (ISO 8601, as the service wrote it) */
  reachedBack?: string;
  /** back-fill: history requests in flight now, and the most at once so far */
  inFlight?: number;
  /** back-fill: calls of history still to read, estimated from the windows' densities (undefined while the oldest call is not found) */
  remaining?: number;
  /** waiting: the process that holds the sync */
  holder?: { pid: number; host: string; since: number };
  /** new: the catch-up request (SyncOptions.catchUp) whose new calls are now written; every one up to it is answered */
  caughtUp?: number;
}

export interface SyncOptions {
  signal?: AbortSignal;
  onProgress?: (p: SyncProgress) => void;
  /** Walk older history too (default true). False: new and unfinished calls only (the first page of history when empty). */
  backfill?: boolean;
  /** When another process is syncing: wait for it, then catch up (default true), or return at once with `busy`. */
  wait?: boolean;
  /** Records per request (default and most: 1000). */
  pageSize?: number;
  /**
   * Who holds the lease while this sync writes (default: a new id). A sync run in a worker thread
   * is given one by the thread that started it, which releases the lease if the worker ends
   * without doing so (terminated): its pid is this live process, so the lease would look held.
   */
  owner?: string;
  /**
   * Read between the back-fill's pages: when `latest` has moved past the last request answered, the
   * sync walks new calls again before its next page of history, then reports phase 'new' with
   * `caughtUp`. A console's refresh while a long first back-fill runs (minutes on a large log)
   * gets the calls of the last moments in one short request, not after the back-fill.
   */
  catchUp?: { readonly latest: number };
  /** The most history requests in flight at once (default DEFAULT_CONCURRENCY); the pace adapts below it. */
  concurrency?: number;
}

/** The default ceiling of history requests in flight: chosen by measurement (test/bench/children/sync-ceilings.ts, figures in test/bench/RESULTS.md). */
const DEFAULT_CONCURRENCY = 8;

/** Numbered catch-up requests to a running sync (SyncOptions.catchUp); a worker's sync is told of each. */
export class CatchUps {
  #latest = 0;
  readonly #listeners = new Set<(latest: number) => void>();
  get latest(): number {
    return this.#latest;
  }
  /** A new request: its number (answered once a progress report's `caughtUp` reaches it). */
  ask(): number {
    this.#latest++;
    for (const fn of this.#listeners) fn(this.#latest);
    return this.#latest;
  }
  listen(fn: (latest: number) => void): () => void {
    this.#listeners.add(fn);
    return () => void this.#listeners.delete(fn);
  }
}

export interface SyncResult {
  added: number;
  updated: number;
  /** unfinished calls the service no longer has */
  removed: number;
  /** wall time in ms */
  ms: number;
  /** the whole history is held (back-fill done) */
  complete: boolean;
  /** another process was syncing: this one waited (or, with wait: false, did nothing) */
  waited: boolean;
  busy: boolean;
  /** the latest catch-up request (SyncOptions.catchUp) whose new calls this sync archived */
  caughtUp: number;
  /** what the user should be told once about how the service was read (it ignores the date filters, …) */
  notes: string[];
  /** the back-fill's requests: how many, the most in flight at once, how many the service refused (429) and the longest run of refusals */
  requests?: { sent: number; reached: number; refused: number; refusedInRow: number };
}

/** What the last sync did, kept in the archive for `archive status` and the console's "synced 40 s ago". */
export interface LastSync {
  at: string;
  added: number;
  updated: number;
  removed: number;
  ms: number;
  complete: boolean;
  error?: string;
}

interface SyncState {
  /** createdAt (as the service wrote it) of the newest call the archive is complete up to */
  high?: string;
  /** the back-fill's position; `done` once the oldest call is held (with windows: the newest window's, for older readers) */
  low?: CallCursor;
  /** the back-fill's windows still to read, newest first, disjoint: each its bounds and its own position */
  windows?: HistoryWindow[];
  /** a walk for new calls in progress: from `top` down to `floor` */
  head?: { top: string; floor: string; cursor: CallCursor };
  /** `low.done` was reached by a walk that ends only at an empty page (an older one also ended at a short page) */
  checked?: boolean;
  /** calls that could not be read (the service cannot be paged past its newest page): why */
  gap?: string;
}

/**
 * A stretch of history paged newest first: created from `lo` to `hi` (both inclusive, ISO 8601;
 * absent: without end), `cursor` where its walk stands. Windows meet at a millisecond: the next
 * older one ends 1 ms before `lo`, so calls sharing an instant on an edge belong to one window.
 */
interface HistoryWindow {
  lo?: string;
  hi?: string;
  cursor?: CallCursor;
}

/** The archive holds the whole history: the back-fill reached an empty page, and nothing was out of reach. */
export function historyComplete(state: SyncState): boolean {
  return state.low?.done === true && state.checked === true && state.gap === undefined;
}

/** What the archive holds of the history while the back-fill is not done: how far back it is whole, and about what share of the log. */
export interface HistoryCoverage {
  complete: boolean;
  /** nothing is missing from the newest call down to this creation time (ISO 8601) */
  back?: string;
  /** the share of the log held, estimated from the calls per second held (undefined while the oldest call is not found) */
  share?: number;
}

/** `held` calls held between `oldest` and `newest` (ms): the windows left are guessed to be as dense. */
export function historyCoverage(state: SyncState, held: number, oldest: number | undefined, newest: number | undefined): HistoryCoverage {
  if (historyComplete(state)) return { complete: true, share: 1 };
  const wins = state.windows ?? (state.low ? [{ cursor: state.low }] : [{}]);
  const first = wins[0];
  const back = first?.cursor?.before ?? first?.hi;
  if (wins.some((w) => w.lo === undefined) || oldest === undefined || newest === undefined || newest <= oldest) return { complete: false, back };
  const density = held / (newest - oldest);
  let left = 0;
  for (const w of wins) {
    const top = Date.parse(w.cursor?.before ?? w.hi ?? '');
    if (!Number.isNaN(top)) left += Math.max(0, top - Date.parse(w.lo!)) * density;
  }
  return { complete: false, back, share: held / (held + left) };
}

/** The archive was cleared while this sync ran: it stops rather than write into the new one. */
class ArchiveCleared extends Error {
  override name = 'ArchiveCleared';
  constructor() {
    super('the archive was cleared while syncing');
  }
}

const LEASE_MS = 30_000;
const UNFINISHED_BATCH = 8;
/**
 * A walk writes each page as it arrives into a write transaction left open across the wait for
 * the next page, and commits it every BATCH calls (fewer, larger transactions keep FTS5's
 * segment merging and the WAL's page writes down), after FLUSH_MS, when the next page has not
 * come IDLE_COMMIT_MS after the last was written (a slow service never holds the write lock
 * while it thinks), or when another writer on this connection needs it (commitOpenBatch).
 */
const BATCH = 5000;
const FLUSH_MS = 1000;
const IDLE_COMMIT_MS = 50;
const UNFINISHED_MAX = 500;
/** A stretch of the log read for the unfinished calls in it spans at most this long, and takes at most this many pages. */
const UNFINISHED_SPAN_MS = 24 * 3600_000;
const UNFINISHED_PAGES = 4;
/** Past this, a walk lets the checkpoint thread catch up before its next transaction, so the WAL starts over. */
const WAL_MAX_BYTES = 64 * 2 ** 20;

/** Each connection's open walk transaction, if any: committing it is the one way to end it early. */
const openBatches = new WeakMap<DatabaseSync, () => void>();

/**
 * Commits the sync's open write transaction on `db`, if one is open: every other writer on a
 * connection a sync is using calls this first, so its write is never part of (nor rolled back
 * with) the sync's batch. Each page in it is whole, with its walk position, so any moment is a
 * consistent one to commit at.
 */
export function commitOpenBatch(db: DatabaseSync): void {
  openBatches.get(db)?.();
}

export function readSyncState(db: DatabaseSync): SyncState {
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'sync'`).get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as SyncState) : {};
}

export function readLastSync(db: DatabaseSync): LastSync | undefined {
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'lastSync'`).get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as LastSync) : undefined;
}

function generation(db: DatabaseSync): string {
  return (db.prepare(`SELECT value FROM meta WHERE key = 'generation'`).get() as { value: string } | undefined)?.value ?? '0';
}

export interface LeaseHolder {
  pid: number;
  host: string;
  since: number;
}

/** The process syncing this archive now, if any (a dead or expired holder is not). */
export function syncHolder(db: DatabaseSync, now = Date.now()): LeaseHolder | undefined {
  const row = db.prepare(`SELECT owner, pid, host, since, expires FROM lease WHERE name = 'sync'`).get() as
    { owner: string; pid: number; host: string; since: number; expires: number } | undefined;
  if (!row || row.expires < now) return undefined;
  if (row.host === hostname() && !pidAlive(row.pid)) return undefined;
  return { pid: row.pid, host: row.host, since: row.since };
}

function tryLease(db: DatabaseSync, owner: string): LeaseHolder | undefined {
  commitOpenBatch(db); // another sync in this process, mid-walk on the same connection
  return transaction(db, () => {
    const now = Date.now();
    const held = syncHolder(db, now);
    const mine = (db.prepare(`SELECT owner FROM lease WHERE name = 'sync'`).get() as { owner: string } | undefined)?.owner === owner;
    if (held && !mine) return held;
    db.prepare(`INSERT OR REPLACE INTO lease (name, owner, pid, host, since, expires) VALUES ('sync', ?, ?, ?, ?, ?)`).run(
      owner,
      process.pid,
      hostname(),
      now,
      now + LEASE_MS,
    );
    return undefined;
  });
}

/** A new lease owner: host, pid and a random id (several syncs of one process are different owners). */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${process.getBuiltinModule('node:crypto').randomUUID()}`;
}

/** Drops `owner`'s lease, if it still holds it (a sync that ended without its `finally`: a terminated worker). */
export function releaseLease(db: DatabaseSync, owner: string): boolean {
  return Number(db.prepare(`DELETE FROM lease WHERE name = 'sync' AND owner = ?`).run(owner).changes) > 0;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

const iso = (ms: number) => new Date(ms).toISOString();
const newest = (calls: readonly Call[]): string | undefined => {
  let best: string | undefined;
  for (const c of calls) if (!Number.isNaN(Date.parse(c.createdAt)) && (best === undefined || Date.parse(c.createdAt) > Date.parse(best))) best = c.createdAt;
  return best;
};
const later = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined ? a : Date.parse(b) > Date.parse(a) ? b : a);

export async function syncArchive(db: DatabaseSync, writer: CallWriter, api: VoiceAgentApi, opts: SyncOptions = {}): Promise<SyncResult> {
  const started = performance.now();
  const owner = opts.owner ?? leaseOwner();
  const result: SyncResult = { added: 0, updated: 0, removed: 0, ms: 0, complete: false, waited: false, busy: false, caughtUp: 0, notes: [] };
  const note = (text: string | undefined) => {
    if (text && !result.notes.includes(text)) result.notes.push(text);
  };
  // For a progress callback (the rollup's count: cheap at any size).
  const countHeld = () => (opts.onProgress ? callsHeld(db) : 0);
  let held = countHeld();
  const report = (phase: SyncProgress['phase'], extra: Partial<SyncProgress> = {}) =>
    opts.onProgress?.({ phase, added: result.added, updated: result.updated, held, ...extra });

  for (;;) {
    const holder = tryLease(db, owner);
    if (!holder) break;
    if (opts.wait === false) {
      result.busy = true;
      result.ms = performance.now() - started;
      return result;
    }
    result.waited = true;
    report('waiting', { holder });
    await sleep(100, opts.signal);
    held = countHeld();
  }

  const gen = generation(db);
  const pageOpts = { details: true, pageSize: Math.min(MAX_CALL_PAGE, opts.pageSize ?? MAX_CALL_PAGE), signal: opts.signal };
  let state = readSyncState(db);
  const unfinishedSeen = new Set<string>();
  const saveState = db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('sync', ?)`);
  const renew = db.prepare(`UPDATE lease SET expires = ? WHERE name = 'sync' AND owner = ?`);

  // The walk's open write transaction (see BATCH): its calls, when it began, what to report when it commits.
  let open: { calls: number; added: number; updated: number; since: number; phase: 'new' | 'backfill'; reachedBack?: string } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let idleError: unknown;
  // Checkpoints on another thread, from a walk's first full batch on (see checkpoint.ts).
  let checkpointer: Checkpointer | undefined;
  const walPath = `${db.location() ?? ''}-wal`;
  const walBytes = () => {
    try {
      return statSync(walPath).size;
    } catch {
      return 0;
    }
  };

  // What the back-fill reports with each commit (its requests in flight, the history left).
  let backfillFigures: (() => Partial<SyncProgress>) | undefined;

  const commitOpen = () => {
    clearTimeout(idleTimer);
    if (!open) return;
    const done = open;
    open = undefined;
    openBatches.delete(db);
    try {
      db.exec('COMMIT');
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
    result.added += done.added;
    result.updated += done.updated;
    held += done.added;
    if (!checkpointer && done.calls >= BATCH && db.location()) checkpointer = startCheckpointer(db, db.location()!);
    checkpointer?.request();
    report(done.phase, done.phase === 'backfill' ? { reachedBack: done.reachedBack, ...backfillFigures?.() } : {});
  };

  const rollbackOpen = () => {
    clearTimeout(idleTimer);
    open = undefined;
    openBatches.delete(db);
    if (db.isTransaction) db.exec('ROLLBACK');
  };

  /**
   * Writes a page and the walk's new position into the open transaction; a page that fails to
   * write rolls the whole transaction back (not a savepoint per page: FTS5 writes out a segment at
   * every savepoint). Pages and positions go together, so the next sync starts where it ends.
   */
  const writePage = (calls: readonly Call[], next: SyncState, phase: 'new' | 'backfill', reachedBack: string | undefined) => {
    clearTimeout(idleTimer);
    if (idleError !== undefined) throw idleError;
    if (!open) {
      db.exec('BEGIN IMMEDIATE');
      if (generation(db) !== gen) {
        db.exec('ROLLBACK');
        throw new ArchiveCleared();
      }
      open = { calls: 0, added: 0, updated: 0, since: performance.now(), phase };
      openBatches.set(db, commitOpen);
    }
    let counts;
    try {
      counts = writer.write(calls);
      saveState.run(JSON.stringify(next));
      renew.run(Date.now() + LEASE_MS, owner);
    } catch (err) {
      rollbackOpen();
      throw err;
    }
    open.added += counts.added;
    open.updated += counts.updated;
    state = next;
    for (const c of calls) if (!callEnded(c)) unfinishedSeen.add(c.id);
    open.calls += calls.length;
    open.reachedBack = reachedBack;
  };

  /** Commits now if the batch is full or old, else once the next page is late. */
  const maybeCommit = (last: boolean) => {
    if (!open) return;
    if (last || open.calls >= BATCH || performance.now() - open.since > FLUSH_MS) return commitOpen();
    idleTimer = setTimeout(() => {
      try {
        commitOpen();
      } catch (err) {
        idleError = err;
      }
    }, IDLE_COMMIT_MS);
  };

  /**
   * Pages from `cursor` until the walk is done, the next request in flight while a page is written;
   * `between` runs after each page but the last (the back-fill's catch-up).
   */
  const walk = async (
    filters: { createdAtGt?: string },
    cursor: CallCursor | undefined,
    position: (calls: readonly Call[], cursor: CallCursor) => SyncState,
    phase: 'new' | 'backfill',
    once = false,
    between?: () => Promise<void>,
  ) => {
    let next = fetchCallsBefore(api, filters, cursor, pageOpts);
    for (;;) {
      const page = await next;
      note(page.notice);
      if (page.cursor.unreachable) {
        // What was read is right and kept; the rest cannot be read: said once, as the sync's failure.
        const why = page.cursor.unreachable;
        writePage(
          page.calls,
          { ...position(page.calls, { ...page.cursor, done: phase === 'new', unreachable: undefined }), gap: why },
          phase,
          page.cursor.before,
        );
        commitOpen();
        throw new PagingError(why);
      }
      // The walk ended where the service may have more it cannot give: kept as not complete, said once.
      if (page.cursor.doubt) {
        writePage(
          page.calls,
          { ...position(page.calls, { ...page.cursor, done: phase === 'new', doubt: undefined }), gap: page.cursor.doubt },
          phase,
          page.cursor.before,
        );
        commitOpen();
        return;
      }
      if (!page.cursor.done && !once) {
        next = fetchCallsBefore(api, filters, page.cursor, pageOpts);
        next.catch(() => undefined); // awaited on the next turn; a write failing first must not leave it unhandled
        // The request is only built and sent by the promise chain above (microtasks), which the
        // page's synchronous write below would hold back until it ends: the next page would be
        // asked for only after this one is written. One turn of the event loop sends it first.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const last = page.cursor.done || once;
      if (!open && checkpointer && walBytes() > WAL_MAX_BYTES) await checkpointer.settle();
      writePage(page.calls, position(page.calls, page.cursor), phase, page.cursor.before);
      maybeCommit(last);
      if (last) return;
      await between?.();
    }
  };

  /** 1. New calls, down to `high` (a walk left unfinished by an earlier run first, then a fresh one). */
  const walkNew = async () => {
    let fresh = state.head === undefined;
    for (;;) {
      const head = state.head;
      const floor = head?.floor ?? state.high!;
      let top = head?.top;
      await walk(
        { createdAtGt: floor },
        head?.cursor,
        (calls, cursor) => {
          top ??= newest(calls) ?? floor;
          return cursor.done ? { ...state, high: later(state.high, top), head: undefined } : { ...state, head: { top, floor, cursor } };
        },
        'new',
      );
      // A walk resumed from an earlier run is done: one fresh pass for what arrived since.
      if (fresh) return;
      fresh = true;
    }
  };

  // Catch-up requests answered so far (those before this sync began are answered by its first walk).
  let answered = opts.catchUp?.latest ?? 0;
  /** Between two pages of history: new calls first, if a catch-up was asked for meanwhile. */
  const catchUp = async () => {
    const asked = opts.catchUp?.latest ?? 0;
    if (asked <= answered || state.high === undefined) return;
    commitOpen(); // the history so far, then the new calls in their own batch
    await walkNew();
    answered = asked;
    report('new', { caughtUp: asked });
  };

  /**
   * 3. The back-fill: the history's windows (state.windows; at first one, the whole log) paged at
   * once, as many at a time as the pace allows. Once the service is known to honour its date
   * filters, a free slot splits the window with the most pages left: the window without an end
   * below gives up a stretch reaching back twice as far as the last one it gave (its size guessed
   * from the calls per second seen so far), any other is cut in two at the middle of what it has
   * left (its own calls per second saying whether that is still many pages). A page written takes
   * every window's position with it, so each window resumes where its last committed page ended.
   * A window split while its request is out keeps of the answer only what is still its own.
   */
  const backfill = async (once: boolean) => {
    const ceiling = Math.max(1, Math.floor(opts.concurrency ?? DEFAULT_CONCURRENCY));
    const pace = new Pace(ceiling);
    const wins: HistoryWindow[] = state.windows?.map((w) => ({ ...w })) ?? [state.low ? { cursor: state.low } : {}];
    /**
     * Each window's walk in this run: a request out; its next position, ahead of the written one
     * while its page waits to be written (the next request goes out first); ended; calls read,
     * and the newest instant it started from.
     */
    const walks = new Map<
      HistoryWindow,
      { busy: boolean; next?: CallCursor; pending: boolean; ended: boolean; refused: number; calls: number; top?: number }
    >();
    const walkOf = (w: HistoryWindow) => {
      let x = walks.get(w);
      if (!x) walks.set(w, (x = { busy: false, pending: false, ended: false, refused: 0, calls: 0, top: w.hi === undefined ? undefined : Date.parse(w.hi) }));
      return x;
    };
    const at = (text: string | undefined) => (text === undefined ? undefined : Date.parse(text));
    /** where a window stands (read, if not yet written): its cursor, else its top; undefined for the log's first page */
    const position = (w: HistoryWindow) => at((walks.get(w)?.next ?? w.cursor)?.before) ?? at(w.hi);
    const idle = (w: HistoryWindow) => {
      const x = walkOf(w);
      return !x.busy && !x.ended;
    };
    // Splitting needs date filters the service honours: learned earlier, or seen on a bounded page of this run.
    let filtered = typeof api.traits.callDateFilter === 'object';
    let totalCalls = 0;
    let totalSpan = 0;
    let stride = 4;
    let sent = 0;
    let pages = 0;
    let lastBefore: string | undefined;
    const pageCalls = () => Math.min(pageOpts.pageSize, api.traits.callPageCap ?? MAX_CALL_PAGE);
    const density = (w: HistoryWindow) => {
      const x = walkOf(w);
      const pos = position(w);
      if (x.calls > 0 && x.top !== undefined && pos !== undefined && x.top > pos) return x.calls / (x.top - pos);
      return totalSpan > 0 ? totalCalls / totalSpan : 0;
    };
    const remaining = () => {
      let sum = 0;
      for (const w of wins) {
        const pos = position(w);
        if (w.lo === undefined || pos === undefined) return undefined;
        sum += Math.max(0, pos - Date.parse(w.lo)) * density(w);
      }
      return Math.round(sum);
    };
    const reachedBack = () => (wins.length > 0 ? (wins[0].cursor?.before ?? wins[0].hi) : lastBefore);
    backfillFigures = () => ({ inFlight: pace.inFlight, remaining: remaining() });

    const split = (): HistoryWindow | undefined => {
      if (!filtered || once) return undefined;
      let best: HistoryWindow | undefined;
      let most = 0;
      for (const w of wins) {
        const pos = position(w);
        if (pos === undefined || Number.isNaN(pos) || walkOf(w).pending || walkOf(w).ended) continue;
        // The window without an end below gives up a stretch only once it has answered: past the oldest call, nothing to split.
        if (w.lo === undefined && (walkOf(w).next ?? w.cursor) === undefined) continue;
        const pagesLeft = w.lo === undefined ? Infinity : ((pos - Date.parse(w.lo)) * density(w)) / pageCalls();
        if (pagesLeft >= 2 && pagesLeft > most && (w.lo === undefined || pos - Date.parse(w.lo) >= 2)) {
          best = w;
          most = pagesLeft;
        }
      }
      if (!best) return undefined;
      const pos = position(best)!;
      let cut: number;
      if (best.lo === undefined) {
        const d = totalSpan > 0 ? totalCalls / totalSpan : 0;
        cut = pos - Math.max(1000, Math.round(d > 0 ? (stride * pageCalls()) / d : 1000 * stride));
        stride *= 2;
        if (cut <= 0) return undefined;
      } else {
        const lo = Date.parse(best.lo);
        cut = Math.floor((lo + pos) / 2) + 1;
        if (!(cut > lo && cut <= pos)) return undefined;
      }
      const older: HistoryWindow = { hi: iso(cut - 1), ...(best.lo === undefined ? {} : { lo: best.lo }) };
      best.lo = iso(cut);
      wins.splice(wins.indexOf(best) + 1, 0, older);
      return older;
    };

    const snapshot = (): HistoryWindow[] =>
      wins.map((w) => ({
        ...(w.lo === undefined ? {} : { lo: w.lo }),
        ...(w.hi === undefined ? {} : { hi: w.hi }),
        ...(w.cursor ? { cursor: w.cursor } : {}),
      }));

    /** A window's page: written with every window's position; the window ends at an empty page, one that adds nothing, or one reaching below it. */
    const landed = (w: HistoryWindow, page: CallsPage) => {
      pages++;
      note(page.notice);
      const x = walkOf(w);
      x.pending = false;
      if (!wins.includes(w)) return;
      if (page.cursor.unreachable || page.cursor.doubt) {
        // The service ignores the date filters (only ever with the one window): what was read is kept, the rest said once.
        const why = (page.cursor.unreachable ?? page.cursor.doubt)!;
        wins.splice(0, wins.length);
        writePage(
          page.calls,
          {
            ...state,
            windows: undefined,
            low: { ...page.cursor, done: false, unreachable: undefined, doubt: undefined },
            high: state.high ?? newest(page.calls),
            gap: why,
          },
          'backfill',
          page.cursor.before,
        );
        commitOpen();
        if (page.cursor.unreachable) throw new PagingError(why);
        return;
      }
      const lo = at(w.lo);
      let calls = page.calls;
      let below = false;
      if (lo !== undefined) {
        calls = calls.filter((c) => Date.parse(c.createdAt) >= lo);
        below = calls.length < page.calls.length;
      }
      const bounded = w.lo !== undefined || w.hi !== undefined || w.cursor?.before !== undefined;
      if (bounded && page.notice === undefined && api.traits.callDateFilter !== 'none') filtered = true;
      const before = at(page.cursor.before);
      if (calls.length > 0) {
        const top = x.top ?? at(newest(calls));
        x.top ??= top;
        const from = at(w.cursor?.before) ?? at(w.hi) ?? top;
        if (from !== undefined && before !== undefined && from >= before) totalSpan += from - before;
        x.calls += calls.length;
        totalCalls += calls.length;
      }
      const done = page.cursor.done || below || (lo !== undefined && before !== undefined && before < lo);
      if (done) wins.splice(wins.indexOf(w), 1);
      else w.cursor = page.cursor;
      lastBefore = page.cursor.before ?? lastBefore;
      const high = state.high ?? newest(calls);
      const finished = wins.length === 0;
      const next: SyncState = finished
        ? { ...state, windows: undefined, low: { before: lastBefore, idsAtBefore: [], done: true }, high, checked: true }
        : { ...state, windows: snapshot(), low: undefined, high, checked: undefined };
      writePage(calls, next, 'backfill', reachedBack());
      maybeCommit(finished || once);
    };

    const stop = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    const inflight = new Set<Promise<void>>();
    let failure: unknown;
    const launch = (w: HistoryWindow) => {
      const x = walkOf(w);
      x.busy = true;
      const request = pace.start();
      sent++;
      let retryAfter: number | undefined;
      const lane = {
        connections: ceiling,
        onAnswer: (sig: LoadSignal) => {
          pace.observe(sig, request);
          if (sig.status === 429) retryAfter = sig.retryAfterMs;
        },
      };
      const t0 = performance.now();
      const job = (async () => {
        let page: CallsPage;
        try {
          page = await fetchCallsBefore(api, { createdAtGt: w.lo, createdAtLt: w.hi }, x.next ?? w.cursor, { ...pageOpts, signal, lane });
        } catch (err) {
          x.busy = false;
          if (err instanceof ApiError && err.status === 429 && !signal.aborted) return pace.refused(retryAfter, ++x.refused);
          pace.ended();
          throw err;
        }
        x.busy = false;
        x.refused = 0;
        // The window's next request goes out before this page is written: the scheduler runs on the
        // wake-up, and the request is sent by the promise chain, over a connection the lane's pool
        // may still be opening (a few turns of the event loop).
        const lo = at(w.lo);
        x.ended = page.cursor.done || page.cursor.unreachable !== undefined || page.cursor.doubt !== undefined || once;
        if (!x.ended && lo !== undefined && page.calls.some((c) => !(Date.parse(c.createdAt) >= lo))) x.ended = true;
        x.next = page.cursor;
        x.pending = true;
        pace.succeeded(performance.now() - t0, wins.some(idle));
        for (let turn = 0; turn < 3; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
        if (generation(db) !== gen) throw new ArchiveCleared();
        landed(w, page);
      })()
        .catch((err: unknown) => {
          failure ??= err;
          stop.abort();
        })
        .finally(() => {
          inflight.delete(job);
          // A page written may make a window worth splitting; a job ended may end the back-fill.
          pace.poke();
        });
      inflight.add(job);
    };

    try {
      for (;;) {
        if (failure !== undefined || signal.aborted) break;
        if (wins.length === 0 && inflight.size === 0) break;
        if (once && pages > 0 && inflight.size === 0) break;
        const asked = opts.catchUp?.latest ?? 0;
        if (!once && asked > answered && state.high !== undefined) await catchUp();
        if (!open && checkpointer && walBytes() > WAL_MAX_BYTES) await checkpointer.settle();
        while (failure === undefined && pace.canStart() && (!once || (pages === 0 && inflight.size === 0))) {
          // A request the service refused goes again first, when the wait it asked for is over.
          const w = wins.find((o) => idle(o) && walkOf(o).refused > 0) ?? wins.find(idle) ?? split();
          if (!w) break;
          launch(w);
        }
        if (wins.length === 0 && inflight.size === 0) break;
        // Woken by an answer or the end of a wait; with nothing out, looked at again shortly whatever happens.
        await pace.changed(inflight.size === 0 ? 20 : 1000);
      }
      await Promise.allSettled([...inflight]);
    } finally {
      pace.close();
      const f = pace.figures;
      result.requests = { sent, reached: f.reached, refused: f.refused, refusedInRow: f.refusedInRow };
    }
    if (failure !== undefined) throw failure;
    if (opts.signal?.aborted) throw opts.signal.reason;
  };

  /** The service no longer has the call: its id, in place of the record. */
  const getOrGone = (id: string) =>
    api.getCall(id, { signal: opts.signal }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) return id;
      throw err;
    });

  /**
   * 2. Unfinished calls (UNFINISHED_MAX of them at most, newest first) read again. Where the
   * service's date filters may be used, calls close in time are read through the stretch of the
   * log that holds them, newest to oldest, as the pages of the history were: a stretch spans at
   * most UNFINISHED_SPAN_MS and is taken only when the calls the archive holds in it fit in fewer
   * pages than it has unfinished calls (at most UNFINISHED_PAGES); of its pages only those calls
   * are written. Any other call, and any not found in its stretch (the service no longer has it,
   * or turned out to ignore the filters), is read by id.
   */
  const rereadUnfinished = async () => {
    const rows = (
      db.prepare('SELECT id, created_at AS at FROM calls WHERE ended = 0 ORDER BY created_at DESC LIMIT ?').all(UNFINISHED_MAX) as { id: string; at: number }[]
    ).filter((r) => !unfinishedSeen.has(r.id));
    if (rows.length === 0) return;
    const pageCalls = Math.max(1, Math.min(pageOpts.pageSize, api.traits.callPageCap ?? MAX_CALL_PAGE));
    const heldIn = db.prepare('SELECT COUNT(*) AS n FROM calls WHERE rowid BETWEEN ? AND ?');
    const heldBetween = (lo: number, hi: number) => (heldIn.get(lo * SLOTS, hi * SLOTS + SLOTS - 1) as { n: number }).n;
    // Each task: a stretch of the log (bounds in ms) and the ids to find in it, or one id alone.
    const tasks: { ids: string[]; lo?: number; hi?: number; pages?: number }[] = [];
    let windows = api.traits.callDateFilter !== 'none';
    for (let i = 0; i < rows.length;) {
      const hi = rows[i].at;
      let j = i + 1;
      let held = 1;
      while (windows && j < rows.length && hi - rows[j].at <= UNFINISHED_SPAN_MS) {
        const n = heldBetween(rows[j].at, hi);
        if (n > UNFINISHED_PAGES * pageCalls) break;
        held = n;
        j++;
      }
      const ids = rows.slice(i, j).map((r) => r.id);
      const pages = Math.max(1, Math.ceil(held / pageCalls));
      if (ids.length > 1 && pages < ids.length) tasks.push({ ids, lo: rows[j - 1].at, hi, pages });
      else for (const id of ids) tasks.push({ ids: [id] });
      i = j;
    }

    /**
     * A stretch's unfinished calls as its pages bring them, and those not found. It stops once all
     * are found, at the stretch's end, or at one page more than the archive's count asks for (calls
     * it does not hold yet may share the stretch), never as many pages as the calls it reads.
     */
    const readStretch = async (t: { ids: string[]; lo?: number; hi?: number; pages?: number }) => {
      const want = new Set(t.ids);
      const found: Call[] = [];
      let cursor: CallCursor | undefined;
      for (let n = 0; n < Math.min(UNFINISHED_PAGES, t.pages! + 1, t.ids.length - 1) && want.size > 0 && windows; n++) {
        const page = await fetchCallsBefore(api, { createdAtGt: iso(t.lo!), createdAtLt: iso(t.hi!) }, cursor, pageOpts);
        if (page.notice !== undefined || page.cursor.unreachable !== undefined || page.cursor.doubt !== undefined) windows = false;
        for (const c of page.calls) if (want.delete(c.id)) found.push(c);
        if (page.cursor.done) break;
        cursor = page.cursor;
      }
      return { found, missing: [...want] };
    };

    const runTask = async (t: (typeof tasks)[number]) => {
      let calls: Call[] = [];
      let rest = t.ids;
      if (t.lo !== undefined && windows) ({ found: calls, missing: rest } = await readStretch(t));
      const read: (Call | string)[] = [];
      for (let i = 0; i < rest.length; i += UNFINISHED_BATCH) read.push(...(await Promise.all(rest.slice(i, i + UNFINISHED_BATCH).map(getOrGone))));
      calls = [...calls, ...read.filter((c): c is Call => typeof c !== 'string')];
      const gone = read.filter((c): c is string => typeof c === 'string');
      transaction(db, () => {
        if (generation(db) !== gen) throw new ArchiveCleared();
        const counts = writer.write(calls);
        for (const id of gone) if (writer.remove(id)) result.removed++;
        renew.run(Date.now() + LEASE_MS, owner);
        result.updated += counts.updated;
        result.added += counts.added;
        held += counts.added - gone.length;
      });
      report('unfinished');
    };

    // UNFINISHED_BATCH tasks at once; a stretch counts as one (its pages go one after another).
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) await runTask(tasks[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(UNFINISHED_BATCH, tasks.length) }, worker));
  };

  let error: unknown;
  try {
    // A history walk that found no calls at all starts again from the top.
    if (state.high === undefined && state.low?.done) state = { ...state, low: undefined, windows: undefined };
    // Done by an older version, which took a short page for the end: one more page, from where it stopped, tells.
    if (state.low?.done && !state.checked) state = { ...state, low: { ...state.low, done: false }, windows: undefined };
    // Filters honoured again (learned since): what was out of reach is read again from the top.
    if (state.gap !== undefined && api.traits.callDateFilter !== 'none') state = { ...state, gap: undefined, low: undefined, windows: undefined };

    // 1. New calls, down to `high`.
    if (state.high !== undefined) await walkNew();

    // 2. Unfinished calls, read again until they end.
    commitOpen();
    await rereadUnfinished();

    // 3. Older history: all of it with backfill, else only a first page when nothing is held yet.
    // A history found out of reach is not walked again while the service still ignores the filters.
    if (state.gap !== undefined) note(state.gap);
    else if (!state.low?.done && (opts.backfill !== false || state.high === undefined)) await backfill(opts.backfill === false);
    result.complete = historyComplete(state);
    // Out of reach says more than "filtered on this side": the one note is that.
    if (state.gap !== undefined) result.notes = result.notes.filter((t) => t !== IGNORED_NOTICE);
  } catch (err) {
    error = err;
    throw err;
  } finally {
    // Pages written before a failure (a request that failed, a cancel) are whole: keep them.
    try {
      commitOpen();
    } catch {
      // the failure that got here says more
    }
    await checkpointer?.close();
    result.caughtUp = answered;
    result.ms = performance.now() - started;
    const last: LastSync = {
      at: new Date().toISOString(),
      added: result.added,
      updated: result.updated,
      removed: result.removed,
      ms: Math.round(result.ms),
      complete: result.complete,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
    };
    transaction(db, () => {
      if (!(error instanceof ArchiveCleared)) db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('lastSync', ?)`).run(JSON.stringify(last));
      releaseLease(db, owner);
    });
  }
  return result;
}
