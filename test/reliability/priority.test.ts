// The console's thread keeps the CPU first (src/priority.ts): lowerOtherThreads puts every other
// thread of the process (V8's helpers, which collect the sync worker's garbage through a
// back-fill) at nice 5, but not the calling thread nor libuv's file system pool; a thread already
// lower (a sync worker at 10) stays where it is. Linux only: elsewhere a thread has no nice value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const skip = process.platform === 'linux' ? false : 'threads have nice values of their own on Linux only';

test('lowerOtherThreads: every thread but the caller and libuv pool at nice 5, a lower one left alone', { skip }, () => {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { stat } from 'node:fs/promises';
    import { Worker } from 'node:worker_threads';
    import { lowerOtherThreads, threadId } from ${JSON.stringify(pathToFileURL(resolve(root, 'src/priority.ts')).href)};
    await stat('.'); // libuv's pool is started
    // A worker that lowers itself to 10 first, and waits.
    const w = new Worker(
      "import { setPriority } from 'node:os'; import { readlinkSync } from 'node:fs'; import { parentPort } from 'node:worker_threads'; " +
        "const t = Number(readlinkSync('/proc/thread-self').split('/').pop()); setPriority(t, 10); parentPort.postMessage(t); setInterval(() => {}, 1000);",
      { eval: true },
    );
    const workerTid = await new Promise((r) => w.once('message', r));
    const lowered = lowerOtherThreads();
    const threads = readdirSync('/proc/self/task').map((t) => ({
      tid: Number(t),
      comm: readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim(),
      nice: Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]),
    }));
    console.log(JSON.stringify({ self: threadId(), workerTid, lowered, threads }));
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { self, workerTid, lowered, threads } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
    self: number;
    workerTid: number;
    lowered: number;
    threads: { tid: number; comm: string; nice: number }[];
  };
  assert.ok(self > 0, 'the caller is known');
  // The child starts at this test's priority (0, unless the suite itself runs under nice).
  const base = getPriority();
  const others = threads.filter((t) => t.tid !== self && t.tid !== workerTid && t.comm !== 'libuv-worker');
  assert.ok(others.length >= 2, `V8's helper threads are there (${JSON.stringify(threads)})`);
  if (base < 5) assert.ok(lowered >= others.length, `it lowered them (${lowered})`);
  for (const t of others) assert.equal(t.nice, Math.max(base, 5), `${t.comm} ${t.tid} at nice 5`);
  assert.equal(threads.find((t) => t.tid === self)?.nice, base, 'the caller keeps its priority');
  for (const t of threads.filter((x) => x.comm === 'libuv-worker')) assert.equal(t.nice, base, 'the file system pool keeps it too');
  assert.ok(
    threads.some((t) => t.comm === 'libuv-worker'),
    'the pool was there to be left alone',
  );
  assert.equal(threads.find((t) => t.tid === workerTid)?.nice, 10, 'a thread already lower stays lower');
});
