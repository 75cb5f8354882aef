// The worker thread of a sync (started by worker.ts syncInWorker; a bundle entry of its own,
// dist/chunks/sync-worker.mjs): the archive and the client only, no UI. Its own connection to the
// archive file, its own client for the target, the same CallArchive.sync; everything it has to
// say goes to the thread that started it as messages.
import { stat } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '../api/client.js';
import { errorToWire } from '../api/errors.js';
import { loadTraits, rememberTraits } from '../config/traits.js';
import { niceThisThread } from '../priority.js';
import { openArchive, type CallArchive } from './index.js';
import type { FromSyncWorker, SyncWorkerData, ToSyncWorker } from './worker.js';

/**
 * This thread yields the CPU to the one that started it (the console's, drawing frames and reading
 * keys): on Linux a thread has a nice value of its own (src/priority.ts). Elsewhere the thread
 * keeps its priority.
 */
const SYNC_NICE = 10;

const data = workerData as SyncWorkerData;
// Threads inherit the nice value of the thread that creates them: the process's thread pool (file
// system, DNS) is started now if it is not yet (by this request), so it stays at the console's.
await stat(data.path).catch(() => undefined);
niceThisThread(SYNC_NICE);
const port = parentPort!;
const post = (m: FromSyncWorker) => port.postMessage(m);
const stop = new AbortController();
const catchUp = { latest: data.catchUp };
port.on('message', (m: ToSyncWorker) => {
  if (m.type === 'abort') stop.abort();
  else if (m.type === 'catch-up') catchUp.latest = Math.max(catchUp.latest, m.latest);
});

const key = data.target.traits;
const api = createClient({
  baseUrl: data.target.baseUrl,
  apiKey: data.target.apiKey,
  ...(key ? { traits: loadTraits(key.profile, key.url), onLearned: (patch) => void rememberTraits(key.profile, key.url, patch) } : {}),
  debug: data.debug ? (line) => post({ type: 'debug', line }) : undefined,
  onRateLimited: (wait) => post({ type: 'rate-limited', wait }),
});
let archive: CallArchive | undefined;
try {
  // Opened without a service: the thread that started this one opened it for the right service.
  archive = openArchive(data.path);
  const result = await archive.sync(api, {
    ...data.options,
    owner: data.owner,
    signal: stop.signal,
    catchUp,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'done', result });
} catch (err) {
  post({ type: 'failed', error: errorToWire(err) });
} finally {
  archive?.close();
  await api.close();
  // Nothing left to wait for: the thread ends (its messages are delivered first).
  port.unref();
}
