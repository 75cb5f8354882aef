// A lock file beside a file that many processes write (the session index, learned service
// traits): <file>.lock, created exclusively and holding the owner's pid. A holder that died or
// stalls past LOCK_STALE_MS is taken over. Writers read what the file holds now under the lock,
// apply their change and replace the file by an atomic rename, so no writer loses another's.
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, tempName } from './files.js';
import { makeDirs } from './private-dir.js';

/** A lock older than this belongs to a writer that died or hung (a write takes milliseconds). */
const LOCK_STALE_MS = 5_000;
/** How long a writer waits for the lock before it gives up with an error. */
const LOCK_WAIT_MS = 10_000;

// The lock: <file>.lock, holding the owner's pid. Taken over when its owner
// is gone or it is older than LOCK_STALE_MS.
const lockFor = (path: string) => `${path}.lock`;

/** Whether process `pid` runs (one of another user's counts: kill says EPERM, not ESRCH). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long a holder may keep the lock, and a writer wait for it: a lock held across requests to a service needs longer. */
export interface LockTimes {
  staleMs?: number;
  waitMs?: number;
}

function isStale(text: string, mtimeMs: number, staleMs: number): boolean {
  return !pidAlive(Number(text.trim())) || Date.now() - mtimeMs > staleMs;
}

// The protocol is written once, as a generator that yields each file-system call's result
// (a value, or a promise of it); withLockSync runs it with the sync calls, withLock with the
// promise ones, awaiting each in turn.
type Io<T> = T | Promise<T>;
type Steps<R> = Generator<unknown, R, unknown>;

/** One call's result, handed back by the driver: `yield* step(fs.readFile(p))` is the text. */
function* step<T>(result: Io<T>): Steps<T> {
  return (yield result) as T;
}

/** A lock file as one open file shows it: its holder's pid, and which file it is (a lock released and taken again is another). */
interface Held {
  text: string;
  ino: number;
  mtimeMs: number;
}

const sameLock = (a: Held, b: Held) => a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.text === b.text;

interface LockFs {
  writeFile(path: string, data: string): Io<void>;
  link(existing: string, path: string): Io<void>;
  rename(from: string, to: string): Io<void>;
  inspect(path: string): Io<Held>;
  rm(path: string): Io<void>;
  sleep(ms: number): Io<void>;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

const syncFs: LockFs = {
  writeFile: (path, data) => writeFileSync(path, data, { mode: 0o600 }),
  link: (existing, path) => linkSync(existing, path),
  rename: (from, to) => renameSync(from, to),
  inspect: (path) => {
    const fd = openSync(path, 'r');
    try {
      const { ino, mtimeMs } = fstatSync(fd);
      return { text: readFileSync(fd, 'utf8'), ino, mtimeMs };
    } finally {
      closeSync(fd);
    }
  },
  rm: (path) => rmSync(path, { force: true }),
  sleep: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
};

// node:fs/promises and node:crypto are loaded at first use: a command that takes no lock loads neither.
const fsp = () => process.getBuiltinModule('node:fs/promises');
const asyncFs: LockFs = {
  writeFile: (path, data) => fsp().writeFile(path, data, { mode: 0o600 }),
  link: (existing, path) => fsp().link(existing, path),
  rename: (from, to) => fsp().rename(from, to),
  inspect: async (path) => {
    const handle = await fsp().open(path, 'r');
    try {
      const { ino, mtimeMs } = await handle.stat();
      return { text: await handle.readFile('utf8'), ino, mtimeMs };
    } finally {
      await handle.close();
    }
  },
  rm: (path) => fsp().rm(path, { force: true }),
  sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
};

function runSync<R>(steps: Steps<R>): R {
  let next = steps.next();
  while (!next.done) next = steps.next(next.value);
  return next.value;
}

async function runAsync<R>(steps: Steps<R>): Promise<R> {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = await next.value;
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}

// The lock file is made whole before it appears: written under a unique name, then hard-linked
// to the lock's name, which fails if the lock exists. No reader ever sees a lock without its pid.
// Gives the lock taken (the file written, looked at before it is linked: a link changes neither
// its inode nor its mtime, and nothing can fail between taking the lock and returning it), or
// undefined to try again.
function* tryLock(fs: LockFs, lock: string, ownPidIsMine: boolean, staleMs: number): Steps<Held | undefined> {
  const tmp = tempName(lock);
  try {
    yield* step(fs.writeFile(tmp, String(process.pid)));
    const mine = yield* step(fs.inspect(tmp));
    yield* step(fs.link(tmp, lock));
    return mine;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      mkdirPrivate(lock);
      return undefined;
    }
    if (code !== 'EEXIST') throw new ConfigError(`cannot lock ${lock}: ${(err as Error).message}`);
    try {
      const held = yield* step(fs.inspect(lock));
      if (ownPidIsMine && Number(held.text.trim()) === process.pid) return held;
      if (isStale(held.text, held.mtimeMs, staleMs)) yield* breakStale(fs, lock, held);
    } catch {
      // gone meanwhile: try again
    }
    return undefined;
  } finally {
    yield* step(fs.rm(tmp));
  }
}

/**
 * Removes the lock judged stale, and no other. A holder that releases the lock and exits while a
 * writer judges it leaves that writer with a dead pid and a lock another writer may have taken
 * since: removing it by name would let two writers in. So the lock is looked at again after the
 * judgement (once its holder is dead only another breaker can change it), then moved aside in one
 * atomic rename and removed only if it is the one judged. If two writers broke it at once and the
 * other has already taken the lock, the one moved aside is that writer's, and it is put back.
 */
function* breakStale(fs: LockFs, lock: string, judged: Held): Steps<void> {
  if (!sameLock(yield* step(fs.inspect(lock)), judged)) return;
  const aside = tempName(lock, '.stale');
  yield* step(fs.rename(lock, aside));
  try {
    if (!sameLock(yield* step(fs.inspect(aside)), judged)) yield* step(fs.link(aside, lock));
  } finally {
    yield* step(fs.rm(aside));
  }
}

/** The directory does not exist yet: made private, like the file. */
function mkdirPrivate(lock: string): void {
  makeDirs(dirname(lock), 0o700);
}

function* locked<T>(fs: LockFs, path: string, fn: () => Io<T>, ownPidIsMine: boolean, times: LockTimes): Steps<T> {
  const lock = lockFor(path);
  const waitMs = times.waitMs ?? LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let mine: Held | undefined;
  for (let wait = 2; !(mine = yield* tryLock(fs, lock, ownPidIsMine, times.staleMs ?? LOCK_STALE_MS)); wait = Math.min(wait * 2, 50)) {
    if (Date.now() > deadline) throw new ConfigError(`${lock} stayed locked for ${waitMs / 1000}s; if no other switchboard is running, delete it`);
    yield* step(fs.sleep(wait));
  }
  try {
    return yield* step(fn());
  } finally {
    yield* release(fs, lock, mine);
  }
}

/**
 * Removes the lock if it is still the one this writer took. A writer that stalled past
 * LOCK_STALE_MS (a stopped process, a suspended laptop) may find its lock broken and taken by
 * another writer: removing that one by name would let a third writer in beside it.
 */
function* release(fs: LockFs, lock: string, mine: Held): Steps<void> {
  let now: Held;
  try {
    now = yield* step(fs.inspect(lock));
  } catch {
    return; // gone: broken and released by another writer meanwhile
  }
  if (sameLock(now, mine)) yield* step(fs.rm(lock));
}

/** `exiting`: a lock holding this process's pid is its own (an async write that will never resume). */
export function withLockSync<T>(path: string, fn: () => T, exiting = false): T {
  return runSync(locked(syncFs, path, fn, exiting, {}));
}

export async function withLock<T>(path: string, fn: () => Promise<T>, times: LockTimes = {}): Promise<T> {
  return runAsync(locked(asyncFs, path, fn, false, times));
}
