// A sync in a worker thread, so its work never runs on the caller's event loop: the console's
// sync (its first back-fill parses and writes hundreds of thousands of calls) runs here while the
// console's thread draws frames and reads keys. The worker (sync-worker.ts) opens its own
// connection to the same archive file and makes its own client for the same target, then runs
// the same CallArchive.sync; this side gets its progress, debug lines and rate-limit waits as
// messages, and its result or its error (rebuilt as the same kind: src/api/errors.ts WireError).
//
// One worker per sync, ended when the sync ends (a second V8 isolate costs memory). An abort asks
// the worker to stop (its sync's `finally` releases the lease), then terminates it after a short
// grace; a worker that ended without releasing the lease (terminated, crashed) has it released
// here: its pid is this live process, so the lease would look held to the next sync.
import type { Worker } from 'node:worker_threads';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RateLimitWait } from '../api/http.js';
import { AbortedError, errorFromWire, type WireError } from '../api/errors.js';
import { openSqlite } from '../sqlite.js';
import { leaseOwner, releaseLease, type CatchUps, type SyncOptions, type SyncProgress, type SyncResult } from './sync.js';

/** The service the worker's client talks to. The key stays in this process's memory (workerData), never in a log. */
export interface SyncTarget {
  baseUrl: string;
  apiKey: string;
  /** Where what is learned about the service is kept (src/target.ts traitsKeyOf): the worker's client starts from it and adds to it. */
  traits?: { profile: string; url: string };
}

export interface WorkerSyncOptions extends Pick<SyncOptions, 'backfill' | 'wait' | 'pageSize' | 'concurrency' | 'signal' | 'onProgress'> {
  /** The client's request lines (--debug), as the caller's own client would write them. */
  debug?: (line: string) => void;
  /** Told before each wait on a 429. */
  onRateLimited?: (wait: RateLimitWait) => void;
  /** After an abort, how long the worker has to stop by itself before it is terminated (0: terminated at once). */
  graceMs?: number;
  /** Catch-up requests (SyncOptions.catchUp), passed on to the worker's sync as they are asked. */
  catchUp?: CatchUps;
}

/** What the worker is given. */
export interface SyncWorkerData {
  path: string;
  target: SyncTarget;
  owner: string;
  debug: boolean;
  options: Pick<SyncOptions, 'backfill' | 'wait' | 'pageSize' | 'concurrency'>;
  /** The latest catch-up request when the worker started (answered by its first walk). */
  catchUp: number;
}

export type ToSyncWorker = { type: 'abort' } | { type: 'catch-up'; latest: number };
export type FromSyncWorker =
  | { type: 'progress'; progress: SyncProgress }
  | { type: 'debug'; line: string }
  | { type: 'rate-limited'; wait: RateLimitWait }
  | { type: 'done'; result: SyncResult }
  | { type: 'failed'; error: WireError };

const GRACE_MS = 250;
/** The worker's heap: a page of 1000 calls and a batch of 5000 being written fit many times over; a runaway does not take the console with it. */
const WORKER_HEAP_MB = 256;
/**
 * Its young generation: V8's default (up to 3 × 16 MB) made the console larger during a
 * back-fill, for no faster sync; the extra scavenges of a smaller one run on the worker's thread.
 */
const WORKER_YOUNG_MB = 8;

/**
 * Where the worker's code is: next to this file in the source (tests run it under tsx, which the
 * worker inherits through execArgv), or the bundle's `chunks/sync-worker.mjs` (this code is in
 * dist/commands.cjs, dist/main.mjs or one of dist/chunks/; src/scripts/build.mjs makes the entry).
 */
function syncWorkerFile(here = import.meta.url): URL {
  const file = fileURLToPath(here);
  if (file.endsWith('.ts')) return new URL('./sync-worker.ts', here);
  const dir = dirname(file);
  return pathToFileURL(join(basename(dir) === 'chunks' ? dir : join(dir, 'chunks'), 'sync-worker.mjs'));
}

/** Syncs the archive at `path` with the service at `target`, in a worker thread; resolves or rejects as CallArchive.sync would. */
export function syncInWorker(path: string, target: SyncTarget, opts: WorkerSyncOptions = {}): Promise<SyncResult> {
  const owner = leaseOwner();
  const data: SyncWorkerData = {
    path,
    target,
    owner,
    debug: opts.debug !== undefined,
    options: { backfill: opts.backfill, wait: opts.wait, pageSize: opts.pageSize, concurrency: opts.concurrency },
    catchUp: opts.catchUp?.latest ?? 0,
  };
  return new Promise<SyncResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new AbortedError('GET', '/calls/details', target.baseUrl));
    let worker: Worker;
    try {
      // Loaded here, not with the archive: a command that only reads it loads no worker_threads.
      worker = new (process.getBuiltinModule('node:worker_threads').Worker)(syncWorkerFile(), {
        workerData: data,
        stdout: true,
        stderr: true,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
      });
    } catch (err) {
      return reject(err as Error);
    }
    // Nothing it prints may reach the caller's terminal (the console's screen).
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        for (const line of text.split('\n')) if (line.trim()) opts.debug?.(`sync worker: ${line}`);
      });
    }
    let outcome: { ok: true; result: SyncResult } | { ok: false; error: Error } | undefined;
    let released = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      // Stopped, it no longer keeps the process alive: a console that quits mid-sync exits at once
      // (SQLite drops the unfinished transaction; a lease whose process is gone is taken over).
      worker.unref();
      const graceMs = opts.graceMs ?? GRACE_MS;
      if (graceMs <= 0) return void worker.terminate();
      worker.postMessage({ type: 'abort' } satisfies ToSyncWorker);
      grace = setTimeout(() => void worker.terminate(), graceMs);
      grace.unref();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const unlisten = opts.catchUp?.listen((latest) => worker.postMessage({ type: 'catch-up', latest } satisfies ToSyncWorker));
    worker.on('message', (m: FromSyncWorker) => {
      switch (m.type) {
        case 'progress':
          return opts.onProgress?.(m.progress);
        case 'debug':
          return opts.debug?.(m.line);
        case 'rate-limited':
          return opts.onRateLimited?.(m.wait);
        case 'done':
          released = true;
          outcome = { ok: true, result: m.result };
          return;
        case 'failed':
          released = true;
          outcome = { ok: false, error: errorFromWire(m.error) };
          return;
      }
    });
    worker.on('error', (err) => {
      outcome ??= { ok: false, error: new Error(`the archive sync stopped: ${err.message}`) };
    });
    // Settled when the worker is gone, so a sync started after this one ends finds the lease free.
    worker.on('exit', (code) => {
      clearTimeout(grace);
      opts.signal?.removeEventListener('abort', onAbort);
      unlisten?.();
      if (!released) releaseAbandoned(path, owner);
      if (!outcome)
        outcome = {
          ok: false,
          error: opts.signal?.aborted
            ? new AbortedError('GET', '/calls/details', target.baseUrl)
            : new Error(`the archive sync stopped (its worker exited with code ${code})`),
        };
      if (outcome.ok) resolve(outcome.result);
      else reject(outcome.error);
    });
  });
}

/** The lease of a worker that ended without its `finally` (terminated mid-sync): released on a connection of its own. */
function releaseAbandoned(path: string, owner: string): void {
  try {
    const db = openSqlite(path, { timeout: 250 });
    try {
      releaseLease(db, owner);
    } finally {
      db.close();
    }
  } catch {
    // The file is busy or gone: the lease expires by itself (src/archive/sync.ts LEASE_MS).
  }
}
