// The call archive: a local, searchable copy of one profile's call log.
//
// WHERE   One SQLite database per profile: `${XDG_CACHE_HOME:-~/.cache}/switchboard/archive/<profile>.db`
//         (dir 0700, file 0600, WAL). `archivePath(profile, env)`; `openArchiveFor(target, env)`
//         opens the one for a connected target. It is a cache: opened for another service than
//         the one it was filled from (another base URL or sandbox data dir), it empties itself.
// WHAT    Every call as the service returned it (full record, unknown fields kept; compressed in
//         blocks against a dictionary of the archive's own records: blocks.ts) plus
//         indexed columns (created time, assistant, number, status, type, cost, duration,
//         ended reason, customer) and an FTS5 index over transcript, summary and customer
//         name/number. Stats read a quarter-hour rollup, so they cost the same at any size.
// WHO     The store and the commands use it; screens never import it (ui → store → archive → api).
//
// API (CallArchive; every read is synchronous and cheap, sync is async):
//   const archive = openArchiveFor(conn.target)          // or openArchive(path, { service })
//   await archive.sync(api, { onProgress, signal, backfill, wait })   → SyncResult
//       incremental and resumable; several processes may call it (one writes, the others wait
//       for it and then catch up; `wait: false` returns { busy: true } at once)
//   await syncInWorker(archive.path, { baseUrl, apiKey }, { onProgress, signal, debug, … }) → SyncResult
//       the same sync in a worker thread (worker.ts), off the caller's event loop (the console's)
//   archive.window(query, { offset, limit, order })       → ArchivedCall[]   newest first, or in `order` (created, duration, cost, status)
//   archive.page(query, position, { limit, direction })   → ArchivedCall[]   keyset paging by `position`
//   archive.count(query)                                  → number
//   archive.indexOf(query, position, order)               → the row's offset in window(query) in that order
//   archive.get(id)                                       → Call (full record) | undefined
//   archive.withIdEnd(end, limit)                         → ArchivedCall[] whose id ends so (a short id), newest first
//   archive.withIdPrefix(prefix, limit)                   → ArchivedCall[] whose id starts so, newest first
//   archive.filterScan(what, query, order)                → FilterScan: the console's `/`, walked a slice at a time, its matches
//       sorted as found in `order` (positions, indexOf; reorder) (filter.ts)
//   archive.byPositions(positions) / positionOf(id)       → ArchivedCall[] in the order given / a call's position
//       (these three read on a second, read-only connection: a scan sees each page a sync commits)
//   archive.put(calls, { wait })                          → written (false: another writer held the lock and wait was false)
//   archive.search(text, query, { limit, offset })        → SearchHit[] newest first, each with a one-line snippet and its hit parts
//   archive.countSearch(text, query)                      → number
//   archive.stats(by, query)                              → { groups, total } (calls, seconds, minutes, cost, avgSeconds)
//   archive.exportJson(query) / exportCalls(query)        → generators, constant memory
//   archive.status()                                      → path, calls held, oldest/newest, last sync, bytes, who syncs
//   archive.lastSync()                                    → LastSync | undefined ("synced 40 s ago")
//   archive.complete()                                    → the whole history is held
//   archive.clear()                                       → empties it (a running sync elsewhere stops)
//   archive.close()                                       → closes both connections
//   lazyArchive(locate)                                   → ArchiveHandle: opened on first get(), or in a temp dir when
//       `locate` names no file (removed at close); the console store's archive
// A CallQuery is { id?, assistantId?, phoneNumberId?, status?, type?, endedReason?, after?, before?, text? }
// (after/before: epoch ms or ISO 8601, inclusive; text: full text, words, "phrases", prefix*;
// any text is safe: it is quoted, never FTS syntax). `searchTerms(text)` says what a text searches for.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { VoiceAgentApi } from '../api/contract.js';
import type { Call } from '../api/schemas.js';
import { cacheDir, type Env } from '../config/paths.js';
import { serviceOf, type Target } from '../config/resolve.js';
import { transaction } from '../sqlite.js';
import { ArchiveReader, type ArchivedCall, type CallOrder, type CallQuery, type DayCount, type SearchHit, type Stats, type StatsBy } from './query.js';
import { ArchiveNotWritable, BUSY_TIMEOUT_MS, clearData, openArchiveDb, openArchiveDbReadOnly, type UpgradeProgress } from './schema.js';
export { ArchiveUnreadable, isUnreadableDb, removeArchiveFiles } from './schema.js';
import {
  commitOpenBatch,
  historyComplete,
  historyCoverage,
  readLastSync,
  readSyncState,
  syncArchive,
  syncHolder,
  type HistoryCoverage,
  type LastSync,
  type LeaseHolder,
  type SyncOptions,
  type SyncResult,
} from './sync.js';
import { CallWriter } from './write.js';
import { FilterScan, callsByRowid, rowidOf, type FilterText } from './filter.js';

export type { ArchivedCall, CallOrder, CallQuery, DayCount, SearchHit, SnippetPart, Stats, StatsBy, StatsRow } from './query.js';
export type { HistoryCoverage, LastSync, SyncOptions, SyncProgress, SyncResult } from './sync.js';
export type { FilterScan, FilterText } from './filter.js';
export { searchTerms } from './fts.js';
export { syncInWorker } from './worker.js';
export { SyncScheduler } from './schedule.js';
export type { SyncStatus } from './schedule.js';
export { serviceOf } from '../config/resolve.js';

export interface ArchiveStatus {
  path: string;
  /** calls held */
  calls: number;
  /** creation time of the oldest and newest call held (ISO 8601) */
  oldest?: string;
  newest?: string;
  lastSync?: LastSync;
  /** the back-fill has reached the oldest call */
  complete: boolean;
  /** why some calls cannot be read (the service cannot be paged past its newest page), if so */
  gap?: string;
  /** database, WAL and shared-memory files */
  bytes: number;
  /** the process syncing now, if any */
  syncing?: LeaseHolder;
}

/** Where a profile's archive lives. Profile names are kept readable; anything unsafe in a file name is replaced (and the name hashed). */
export function archivePath(profile: string, env: Env = process.env): string {
  // node:crypto only for such a name: a read of the archive loads it no other way.
  const hash = () => process.getBuiltinModule('node:crypto').createHash('sha256').update(profile).digest('hex').slice(0, 8);
  const safe =
    /^[A-Za-z0-9._-]{1,64}$/.test(profile) && !profile.startsWith('.') ? profile : `${profile.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${hash()}`;
  return join(cacheDir(env), 'archive', `${safe}.db`);
}

export function openArchiveFor(target: Target, env: Env = process.env, onUpgrade?: UpgradeProgress): CallArchive {
  return openArchive(archivePath(target.profile, env), { service: serviceOf(target), onUpgrade });
}

/**
 * The profile's archive for a command that only reads it: opened as usual where this user may
 * write it, else read-only (another user's archive, a read-only mount). Such a handle fails on
 * any write.
 */
export function openArchiveToRead(target: Target, env: Env = process.env, onUpgrade?: UpgradeProgress): CallArchive {
  const path = archivePath(target.profile, env);
  try {
    return openArchiveFor(target, env, onUpgrade);
  } catch (err) {
    if (!(err instanceof ArchiveNotWritable) || !existsSync(path)) throw err;
    return new CallArchive(path, openArchiveDbReadOnly(path, serviceOf(target)));
  }
}

/** Opens (creating if needed) the archive at `path`. `service`: see serviceOf; `onUpgrade`: how far indexing an earlier version's archive again has come. */
export function openArchive(path: string, opts: { service?: string; onUpgrade?: UpgradeProgress } = {}): CallArchive {
  return new CallArchive(path, openArchiveDb(path, opts.service, opts.onUpgrade));
}

/** An archive opened on first use, and closed (a temp one removed) by its owner. */
export interface ArchiveHandle {
  /** Opens the archive on first use; throws (the user's words) when it cannot be opened. */
  get(): CallArchive;
  close(): void;
}

/**
 * The archive `locate()` names (read at the first get()), opened on first use; where it names no
 * file (tests, embedders), a private one in a temp dir for `service`, removed at close().
 */
export function lazyArchive(locate: () => { path?: string; service: string }): ArchiveHandle {
  let archive: CallArchive | undefined;
  let temp: string | undefined;
  return {
    get() {
      if (archive) return archive;
      const where = locate();
      if (where.path) return (archive = openArchive(where.path, { service: where.service }));
      temp = mkdtempSync(join(tmpdir(), 'switchboard-archive-'));
      return (archive = openArchive(join(temp, 'calls.db'), { service: where.service }));
    },
    close() {
      archive?.close();
      archive = undefined;
      if (temp) rmSync(temp, { recursive: true, force: true });
      temp = undefined;
    },
  };
}

/** SQLite's "database is locked": another connection holds the write lock. */
const SQLITE_BUSY = 5;

export class CallArchive {
  private readonly reader: ArchiveReader;
  private writerOnce: CallWriter | undefined;
  /** The read-only connection the console's `/` scan walks: in WAL it sees each page a sync commits. */
  private scanDbOnce: DatabaseSync | undefined;

  constructor(
    readonly path: string,
    private readonly db: DatabaseSync,
  ) {
    this.reader = new ArchiveReader(db);
  }

  private get writer(): CallWriter {
    return (this.writerOnce ??= new CallWriter(this.db));
  }

  private get scanDb(): DatabaseSync {
    return (this.scanDbOnce ??= openArchiveDbReadOnly(this.path, undefined));
  }

  sync(api: VoiceAgentApi, opts: SyncOptions = {}): Promise<SyncResult> {
    return syncArchive(this.db, this.writer, api, opts);
  }

  /**
   * Writes calls the caller already has (a call just placed, a detail just read). `wait: false`:
   * if another connection is writing (a sync's transaction, which may take hundreds of ms), the
   * calls are not written and false is returned at once, instead of blocking the thread until it
   * is done (the console's: keys wait meanwhile); that sync, or the next, brings them.
   */
  put(calls: readonly Call[], opts: { wait?: boolean } = {}): boolean {
    commitOpenBatch(this.db); // a sync mid-walk on this connection: its pages first, this write apart
    if (opts.wait !== false) {
      transaction(this.db, () => this.writer.write(calls));
      return true;
    }
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      transaction(this.db, () => this.writer.write(calls));
      return true;
    } catch (err) {
      if ((err as { errcode?: number }).errcode === SQLITE_BUSY) return false;
      throw err;
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  window(q: CallQuery, opts: { offset?: number; limit: number; order?: CallOrder; fromEnd?: boolean }): ArchivedCall[] {
    return this.reader.window(q, opts);
  }

  page(q: CallQuery, position: number | undefined, opts: { limit: number; direction?: 'older' | 'newer' }): ArchivedCall[] {
    return this.reader.page(q, position, opts);
  }

  count(q: CallQuery = {}): number {
    return this.reader.count(q);
  }

  indexOf(q: CallQuery, position: number, order?: CallOrder): number {
    return this.reader.indexOf(q, position, order);
  }

  get(id: string): Call | undefined {
    return this.reader.get(id);
  }

  withIdEnd(end: string, limit = 20): ArchivedCall[] {
    return this.reader.withIdEnd(end, limit);
  }

  withIdPrefix(prefix: string, limit = 20): ArchivedCall[] {
    return this.reader.withIdPrefix(prefix, limit);
  }

  /** The console's `/`: a substring filter over the list fields, walked newest first a slice at a time, its matches in `order` (filter.ts). */
  filterScan(what: FilterText, q: CallQuery = {}, order?: CallOrder): FilterScan {
    return new FilterScan(this.scanDb, what, q, order);
  }

  /** The calls at these positions (a scan's matches), in the order given; positions no longer held are left out. */
  byPositions(positions: readonly number[]): ArchivedCall[] {
    return callsByRowid(this.scanDb, positions);
  }

  /** Where a call sits in the archive's order, or undefined when it is not held. */
  positionOf(id: string): number | undefined {
    return rowidOf(this.scanDb, id);
  }

  search(text: string, q: CallQuery = {}, opts: { limit: number; offset?: number } = { limit: 50 }): SearchHit[] {
    return this.reader.search(text, q, opts);
  }

  countSearch(text: string, q: CallQuery = {}): number {
    return this.reader.countSearch(text, q);
  }

  stats(by: StatsBy, q: CallQuery = {}): Stats {
    return this.reader.stats(by, q);
  }

  perDay(q: CallQuery = {}): DayCount[] {
    return this.reader.perDay(q);
  }

  exportJson(q: CallQuery = {}): Generator<string> {
    return this.reader.exportJson(q);
  }

  exportCalls(q: CallQuery = {}): Generator<Call> {
    return this.reader.exportCalls(q);
  }

  lastSync(): LastSync | undefined {
    return readLastSync(this.db);
  }

  /** How much of the history the archive holds while its back-fill is not done. */
  coverage(): HistoryCoverage {
    const span = this.reader.span();
    return historyCoverage(readSyncState(this.db), this.reader.count({}), span.oldest, span.newest);
  }

  /** The back-fill has reached the oldest call: the archive holds the whole history. */
  complete(): boolean {
    return historyComplete(readSyncState(this.db));
  }

  status(): ArchiveStatus {
    const span = this.reader.span();
    const state = readSyncState(this.db);
    let bytes = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        bytes += statSync(this.path + suffix).size;
      } catch {
        // not there: nothing to count
      }
    }
    return {
      path: this.path,
      calls: this.reader.count({}),
      oldest: span.oldest === undefined ? undefined : new Date(span.oldest).toISOString(),
      newest: span.newest === undefined ? undefined : new Date(span.newest).toISOString(),
      lastSync: readLastSync(this.db),
      complete: historyComplete(state),
      ...(state.gap === undefined ? {} : { gap: state.gap }),
      bytes,
      syncing: syncHolder(this.db),
    };
  }

  /** Empties the archive (calls, sync state). A sync running elsewhere stops at its next page. */
  clear(): void {
    commitOpenBatch(this.db);
    transaction(this.db, () => clearData(this.db));
    this.db.exec('VACUUM');
  }

  close(): void {
    if (this.scanDbOnce?.isOpen) this.scanDbOnce.close();
    this.scanDbOnce = undefined;
    if (this.db.isOpen) this.db.close();
  }
}
