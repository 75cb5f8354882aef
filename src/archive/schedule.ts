// When the console's archive syncs, and what it is told as a sync runs: one sync at a time, each
// caller that asks while one runs answered once the calls the service had at its call are
// archived (the running sync catches up between two pages of its back-fill, or one more sync runs
// after it), the rows on screen read again as pages land (at most every `rereadMs`, and never in a
// key's way), each note about how the service had to be read said once, and everything stopped by
// stop(). The console's store wraps one of these (src/store/archive.ts); free of the store, so it
// is tested on its own (test/archive/schedule.test.ts).
import type { VoiceAgentApi } from '../api/contract.js';
import { failure } from '../api/errors.js';
import type { CallArchive } from './index.js';
import { CatchUps, type SyncOptions, type SyncProgress, type SyncResult } from './sync.js';
import { syncInWorker, type SyncTarget, type WorkerSyncOptions } from './worker.js';

/** The background sync as the header shows it ("synced 40 s ago", "syncing…"). */
export interface SyncStatus {
  running: boolean;
  phase?: SyncProgress['phase'];
  /** when the last sync of any process ended (ms) */
  lastAt?: number;
  /** the archive holds the whole history */
  complete: boolean;
  error?: string;
  /** what to do about the error (a wrong key: switchboard login) */
  hint?: string;
  /**
   * While this sync back-fills an archive without its whole history: how far back it reaches
   * with nothing missing above (ISO 8601) and the share of the log held (undefined until the
   * oldest call is found), for the header.
   */
  history?: { back?: string; share?: number };
}

/** The service a sync in a worker thread talks to, and where that client's --debug lines and rate-limit waits go. */
type WorkerTarget = SyncTarget & Pick<WorkerSyncOptions, 'debug' | 'onRateLimited' | 'concurrency'>;

/** What the scheduler is given by its owner (the store's archive slice). */
export interface SyncHost {
  /** The archive, opened on first use; throws (the user's words) when it cannot be. */
  archive(): CallArchive;
  /** The client a sync on the caller's own thread uses. */
  api: VoiceAgentApi;
  /** The worker's service, once connected; without it every sync runs on the caller's thread with `api`. */
  worker?: () => Promise<WorkerTarget>;
  /** Runs `fn` in the next gap between keys (at once when none is coming). */
  inGap(fn: () => void): void;
  /** The status as shown now, and a change to it. */
  status(): SyncStatus;
  setStatus(patch: Partial<SyncStatus>): void;
  /** Reads the rows on screen again from the archive. */
  reread(): void;
  /** A note about how the service had to be read (it ignores the date filters, …). */
  note(text: string): void;
}

export interface ScheduleOptions {
  /** Pages a sync on the caller's thread asks for. */
  pageSize: number;
  /**
   * A sync of a whole archive that was last synced this recently (the live refresh's, every few
   * seconds) runs on the caller's thread: it can only find the calls of the last moments (one
   * short request and write), and starting a worker costs far more CPU than that each time. Any
   * other sync (the first of a console, a back-fill, a catch-up after a while) runs in a worker.
   */
  quickWithinMs: number;
  /** The rows on screen are read again at most this often while a sync writes pages. */
  rereadMs: number;
}

/** A caller waiting for the sync to catch up to its number. */
interface Waiter {
  n: number;
  done: () => void;
}

const DEFAULTS: ScheduleOptions = { pageSize: 200, quickWithinMs: 60_000, rereadMs: 250 };

export class SyncScheduler {
  readonly #host: SyncHost;
  readonly #opts: ScheduleOptions;
  /** the sync under way: one at a time */
  #running: Promise<void> | undefined;
  /** calls made while it runs: each asks it to catch up */
  readonly #catchUps = new CatchUps();
  /** those callers, each answered once the sync has caught up to its number */
  #waiters: Waiter[] = [];
  /** notes already said (each once) */
  readonly #said = new Set<string>();
  /** aborted by stop(): the sync stops (its worker is asked to, then terminated) */
  readonly #stop = new AbortController();
  /** the re-reads: when the last ran (ms), one waiting for `rereadMs`, one queued for a gap, who waits for the next */
  #lastReread = 0;
  #rereadTimer: ReturnType<typeof setTimeout> | undefined;
  #rereadQueued = false;
  #afterReread: (() => void)[] = [];

  constructor(host: SyncHost, opts: Partial<ScheduleOptions> = {}) {
    this.#host = host;
    this.#opts = { ...DEFAULTS, ...opts };
  }

  /** A sync is under way. */
  get running(): boolean {
    return this.#running !== undefined;
  }

  /** stop() has run. */
  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** Stops the sync and the re-reads; whoever waits goes on (none will come). */
  stop(): void {
    if (this.#rereadTimer) clearTimeout(this.#rereadTimer);
    this.#rereadTimer = undefined;
    this.#stop.abort();
    for (const fn of this.#afterReread.splice(0)) fn();
  }

  /**
   * Syncs the archive with the service (one at a time); resolves when it ends. Called while a
   * sync runs, it resolves once the calls the service had at the call are archived.
   */
  sync(opts?: { backfill?: boolean }): Promise<void> {
    if (this.#running) {
      const n = this.#catchUps.ask();
      return new Promise<void>((done) => this.#waiters.push({ n, done }));
    }
    const host = this.#host;
    const stop = this.#stop.signal;
    const archive = host.archive();
    const was = host.status();
    const quick = was.complete && was.error === undefined && was.lastAt !== undefined && Date.now() - was.lastAt < this.#opts.quickWithinMs;
    // What the archive holds already ("1,000 calls", not "1,000 calls+" for a whole history).
    host.setStatus({ running: true, error: undefined, hint: undefined, lastAt: this.#lastSyncAt(archive), complete: was.complete || archive.complete() });
    const running = (async () => {
      try {
        const common: SyncOptions & { catchUp: CatchUps } = {
          backfill: opts?.backfill ?? true,
          wait: false,
          signal: stop,
          catchUp: this.#catchUps,
          // Pages landing while keys come are taken in the gap after one.
          onProgress: (p) => host.inGap(() => this.#progress(p)),
        };
        const worker = host.worker;
        const r: SyncResult =
          worker && !quick
            ? await worker().then((t) =>
                syncInWorker(
                  archive.path,
                  { baseUrl: t.baseUrl, apiKey: t.apiKey, traits: t.traits },
                  { ...common, debug: t.debug, onRateLimited: t.onRateLimited, concurrency: t.concurrency },
                ),
              )
            : await archive.sync(host.api, { ...common, pageSize: this.#opts.pageSize });
        if (stop.aborted) return; // the owner is gone: its archive is closed
        // How the service had to be read: said once.
        for (const text of r.notes ?? []) {
          if (this.#said.has(text)) continue;
          this.#said.add(text);
          host.note(text);
        }
        // The rows as the sync left them, before it is said to be over (when another process
        // holds the sync, what it writes is read from the same file); nothing to read when
        // nothing changed (the live refresh, most of the time).
        if (r.added || r.updated || r.removed || r.busy) await new Promise<void>((done) => this.#rereadInGap(done));
        if (stop.aborted) return;
        host.setStatus({
          running: false,
          phase: undefined,
          history: undefined,
          lastAt: this.#lastSyncAt(archive) ?? Date.now(),
          complete: r.complete || archive.status().complete,
        });
        // Another process's sync (busy) is read as it writes: no sync after this one for that.
        this.#answer(r.busy ? Infinity : r.caughtUp);
      } catch (err) {
        if (stop.aborted) return; // the owner is gone
        await new Promise<void>((done) => this.#rereadInGap(done));
        if (stop.aborted) return;
        const { message: error, hint } = failure(err);
        host.setStatus({ running: false, phase: undefined, history: undefined, error, hint, lastAt: this.#lastSyncAt(archive) });
        this.#answer(Infinity); // the error is on screen; another sync now would meet it again
      } finally {
        this.#running = undefined;
        if (stop.aborted) this.#answer(Infinity);
        // Asked for after this sync's last walk for new calls: one more sync, the quick kind.
        else if (this.#waiters.length) void this.sync();
      }
    })();
    this.#running = running;
    return running;
  }

  /** A page landed (in a gap between keys): the phase and the back-fill's reach, the callers it answers, the rows on screen. */
  #progress(p: SyncProgress) {
    const host = this.#host;
    if (this.stopped) return;
    if (host.status().phase !== p.phase) host.setStatus({ phase: p.phase });
    if (p.phase === 'backfill') {
      const history = {
        back: p.reachedBack,
        share: p.remaining === undefined || p.held + p.remaining === 0 ? undefined : p.held / (p.held + p.remaining),
      };
      // A new status only when what the header says changes (its whole percent, its day).
      const was = host.status().history;
      const pct = (h?: { share?: number }) => (h?.share === undefined ? undefined : Math.floor(h.share * 100));
      if (!was || was.back?.slice(0, 10) !== history.back?.slice(0, 10) || pct(was) !== pct(history)) host.setStatus({ history });
    }
    if (p.caughtUp !== undefined) {
      // The calls asked for are on screen when the callers go on.
      const upTo = p.caughtUp;
      this.#rereadInGap(() => this.#answer(upTo));
    } else if (p.added || p.updated) this.#rereadSoon();
  }

  /** Answers the callers whose calls are archived now. */
  #answer(upTo: number) {
    const left: Waiter[] = [];
    for (const w of this.#waiters) {
      if (w.n <= upTo) w.done();
      else left.push(w);
    }
    this.#waiters = left;
  }

  #lastSyncAt(archive: CallArchive): number | undefined {
    const last = archive.lastSync();
    return last ? Date.parse(last.at) : undefined;
  }

  /** The rows on screen as the archive holds them now. */
  #reread = () => {
    this.#rereadQueued = false;
    if (this.#rereadTimer) {
      clearTimeout(this.#rereadTimer);
      this.#rereadTimer = undefined;
    }
    if (this.stopped) return;
    this.#lastReread = Date.now();
    this.#host.reread();
    for (const fn of this.#afterReread.splice(0)) fn();
  };

  /** A re-read in the next gap between keys; `then` after it. */
  #rereadInGap(then?: () => void) {
    if (then) this.#afterReread.push(then);
    if (this.#rereadQueued) return;
    this.#rereadQueued = true;
    this.#host.inGap(this.#reread);
  }

  /** The rows on screen follow the archive as pages land, but not more often than `rereadMs`. */
  #rereadSoon() {
    if (this.#rereadQueued || this.#rereadTimer) return;
    const wait = this.#lastReread + this.#opts.rereadMs - Date.now();
    if (wait <= 0) return this.#rereadInGap();
    this.#rereadTimer = setTimeout(() => {
      this.#rereadTimer = undefined;
      this.#rereadInGap();
    }, wait);
    this.#rereadTimer.unref?.();
  }
}
