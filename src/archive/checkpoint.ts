// WAL checkpoints on another thread while a sync writes a large log.
//
// In WAL mode every committed page is written twice: appended to the -wal file, then copied
// into the database by a checkpoint, which SQLite runs in the committing thread (a visible share
// of a back-fill's CPU in perf). During a large walk the syncing connection stops checkpointing
// (wal_autocheckpoint 0) and a worker thread with its own connection runs a PASSIVE checkpoint
// after each commit, on the other core: a passive checkpoint neither waits for nor blocks the
// writer or any reader. The WAL starts over from its beginning only when a write begins with
// every frame copied, so the walk lets the thread catch up (`settle`) whenever the WAL has grown
// past a bound, and at its end. A crash at any moment leaves a WAL that the next connection
// recovers, as always: nothing here changes what a commit guarantees.
import type { DatabaseSync } from 'node:sqlite';

// Plain CommonJS run by the thread: only Node's built-ins, so the bundle needs no entry for it.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
// node:sqlite announces itself with an ExperimentalWarning, which the main thread already hides.
const emit = process.emitWarning;
process.emitWarning = () => {};
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
process.emitWarning = emit;
const db = new DatabaseSync(workerData.path, { timeout: 1000 });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (id) => {
  if (id === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    checkpoint.get();
  } catch {
    // another process holds the checkpoint lock, or the file is gone: the next request tries again
  }
  parentPort.postMessage(id);
});
`;

export interface Checkpointer {
  /** Asks for a checkpoint of everything committed so far; returns at once. */
  request(): void;
  /** Resolves once every checkpoint asked for has run (at once if the thread has failed). */
  settle(): Promise<void>;
  /** Settles, stops the thread and gives the connection its own checkpoints back. */
  close(): Promise<void>;
}

/** Starts a checkpointing thread for `db`, a WAL database at `path`. */
export function startCheckpointer(db: DatabaseSync, path: string): Checkpointer {
  const own = (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
  let asked = 0;
  let done = 0;
  let failed = false;
  let closed = false;
  const waiting: (() => void)[] = [];
  const wake = () => {
    if (done >= asked || failed) for (const w of waiting.splice(0)) w();
  };
  // Without the thread, the connection checkpoints for itself again, as it did before.
  const fail = () => {
    if (!failed && !closed && db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${own}`);
    failed = true;
    wake();
  };
  // Loaded here: a command that reads the archive starts no thread and loads no worker_threads.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const thread = new Worker(THREAD, { eval: true, workerData: { path }, stdout: true, stderr: true });
  thread.on('message', (id: number) => {
    done = id;
    wake();
  });
  thread.on('error', fail);
  const exited = new Promise<void>((resolve) =>
    thread.once('exit', () => {
      fail();
      resolve();
    }),
  );
  db.exec('PRAGMA wal_autocheckpoint = 0');
  const settle = () => (done >= asked || failed ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  return {
    request() {
      if (!closed && !failed) thread.postMessage(++asked);
    },
    settle,
    async close() {
      if (closed) return;
      await settle();
      closed = true;
      if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${own}`);
      thread.postMessage('close');
      await exited;
    },
  };
}
