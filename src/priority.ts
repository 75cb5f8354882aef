// CPU priority on a shared machine. The console's own thread reads keys and draws frames, so
// nothing else the console runs may hold a core it wants: the embedded sandbox child runs at nice
// 5 (src/target.ts), the archive sync's worker thread at nice 10 (src/archive/sync-worker.ts), and
// V8's helper threads — garbage collection and compilation for every isolate in the process, the
// sync worker's too, which keeps them busy through a back-fill — at nice 5. On Linux a thread has
// a nice value of its own, set through its thread id; elsewhere nothing changes.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** V8's helper threads (and any other thread of the process but the caller's and libuv's file system pool). */
const HELPER_THREAD_NICE = 5;

/**
 * The calling thread's id (Linux), or undefined. Exported for test/reliability/priority.test.ts,
 * whose child process imports it by URL (out of knip's sight).
 * @public
 */
export function threadId(): number | undefined {
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** A thread's nice value (/proc/self/task/<tid>/stat, field 19), or undefined. */
function threadNice(tid: number): number | undefined {
  try {
    const n = Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the calling thread's nice value (Linux); false when it could not. */
export function niceThisThread(nice: number): boolean {
  const tid = threadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every other thread of the process that runs at a higher priority than `nice` is lowered to it,
 * but libuv's pool (it does this thread's file system work, which a frame may wait for). Called
 * by the console at start, before it starts any worker thread: the threads then are V8's (one per
 * core or so, and its delayed-task scheduler) and Node's own. Returns how many were lowered.
 */
export function lowerOtherThreads(nice = HELPER_THREAD_NICE): number {
  const self = threadId();
  if (self === undefined) return 0;
  let lowered = 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const t of tids) {
    const tid = Number(t);
    if (tid === self) continue;
    try {
      if (readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() === 'libuv-worker') continue;
      const now = threadNice(tid);
      if (now === undefined || now >= nice) continue;
      setPriority(tid, nice);
      lowered++;
    } catch {
      // gone meanwhile, or not allowed: it keeps its priority
    }
  }
  return lowered;
}
