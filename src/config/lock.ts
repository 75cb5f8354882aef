// A lock file beside a file that many processes write (the session index, learned service
// traits): <file>.lock, created exclusively and holding the owner's pid. A holder that died or
// stalls past LOCK_STALE_MS is taken over. Writers read what the file holds now under the lock,
// apply their change and replace the file by an atomic rename, so no writer loses another's.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { link, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from './files.js';

/** A lock older than this belongs to a writer that died or hung (a write takes milliseconds). */
const LOCK_STALE_MS = 5_000;
/** How long a writer waits for the lock before it gives up with an error. */
const LOCK_WAIT_MS = 10_000;

// The lock: <file>.lock, holding the owner's pid. Taken over when its owner
// is gone or it is older than LOCK_STALE_MS.
const lockFor = (path: string) => `${path}.lock`;

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(text: string, mtimeMs: number): boolean {
  return !pidAlive(Number(text.trim())) || Date.now() - mtimeMs > LOCK_STALE_MS;
}


// The lock file is made whole before it appears: written under a unique name, then hard-linked
// to the lock's name, which fails if the lock exists. No reader ever sees a lock without its pid.
function tryLockSync(lock: string, ownPidIsMine = false): boolean {
  const tmp = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, String(process.pid), { mode: 0o600 });
    linkSync(tmp, lock);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      mkdirPrivate(lock);
      return false;
    }
    if (code !== 'EEXIST') throw new ConfigError(`cannot lock ${lock}: ${(err as Error).message}`);
    try {
      const holder = readFileSync(lock, 'utf8');
      if (ownPidIsMine && Number(holder.trim()) === process.pid) return true;
      if (isStale(holder, statSync(lock).mtimeMs)) rmSync(lock, { force: true });
    } catch {
      // gone meanwhile: try again
    }
    return false;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The directory does not exist yet: made private, like the file. */
function mkdirPrivate(lock: string): void {
  mkdirSync(dirname(lock), { recursive: true, mode: 0o700 });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** `exiting`: a lock holding this process's pid is its own (an async write that will never resume). */
export function withLockSync<T>(path: string, fn: () => T, exiting = false): T {
  const lock = lockFor(path);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 2; !tryLockSync(lock, exiting); wait = Math.min(wait * 2, 50)) {
    if (Date.now() > deadline) throw new ConfigError(`${lock} stayed locked for ${LOCK_WAIT_MS / 1000}s; if no other switchboard is running, delete it`);
    Atomics.wait(sleeper, 0, 0, wait);
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

async function tryLock(lock: string): Promise<boolean> {
  const tmp = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, String(process.pid), { mode: 0o600 });
    await link(tmp, lock);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      mkdirPrivate(lock);
      return false;
    }
    if (code !== 'EEXIST') throw new ConfigError(`cannot lock ${lock}: ${(err as Error).message}`);
    try {
      if (isStale(await readFile(lock, 'utf8'), (await stat(lock)).mtimeMs)) await rm(lock, { force: true });
    } catch {
      // gone meanwhile: try again
    }
    return false;
  } finally {
    await rm(tmp, { force: true });
  }
}

export async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lock = lockFor(path);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 2; !(await tryLock(lock)); wait = Math.min(wait * 2, 50)) {
    if (Date.now() > deadline) throw new ConfigError(`${lock} stayed locked for ${LOCK_WAIT_MS / 1000}s; if no other switchboard is running, delete it`);
    await new Promise((r) => setTimeout(r, wait));
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}
