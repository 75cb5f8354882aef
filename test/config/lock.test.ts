// The lock beside a file many processes write (src/config/lock.ts): one writer at a time, a dead
// writer's lock taken over, and never a live writer's lock taken for a dead one's.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLock, withLockSync } from '../../src/config/lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** No process has this pid (above any pid_max). */
const DEAD = 999_999_999;

/**
 * The race a short-lived writer (a command) opens: a waiting writer reads the holder's pid, the
 * holder releases the lock and exits, a third writer takes the lock, and only then does the waiting
 * writer ask whether the pid it read is alive. It is not, but the lock is no longer that one.
 *
 * Liveness is asked of process.kill(pid, 0), so the test plays the race there: when the waiting
 * writer asks about the old holder, the lock has just been released and taken by a live writer
 * (this test's parent process). With `at: 'rename'` the lock is taken later still, just before the
 * waiting writer moves the stale lock aside (two writers broke it at once; the other one won).
 * The live writer releases it on the waiting writer's second look at it.
 */
function playRace(lock: string, at: 'liveness' | 'rename') {
  const live = process.ppid;
  const kill = process.kill;
  const fsp = process.getBuiltinModule('node:fs/promises');
  const rename = fsp.rename;
  const state = { swapped: false, lookedAtLive: 0, liveReleased: false };
  const takenByLive = () => {
    if (state.swapped) return;
    state.swapped = true;
    rmSync(lock);
    writeFileSync(lock, String(live));
  };
  process.kill = ((pid: number, signal?: string | number) => {
    if (signal === 0 && pid === DEAD) {
      if (at === 'liveness') takenByLive();
      throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
    }
    if (signal === 0 && pid === live && ++state.lookedAtLive === 2) {
      assert.equal(readFileSync(lock, 'utf8'), String(live), "the live writer's lock is still there when it releases it");
      rmSync(lock);
      state.liveReleased = true;
    }
    return kill.call(process, pid, signal);
  }) as typeof process.kill;
  fsp.rename = (async (from: string, to: string) => {
    if (at === 'rename' && from === lock) takenByLive();
    return rename(from, to);
  }) as typeof fsp.rename;
  return {
    state,
    restore: () => {
      process.kill = kill;
      fsp.rename = rename;
    },
  };
}

async function underRace(file: string, at: 'liveness' | 'rename', mode: 'sync' | 'async') {
  const lock = `${file}.lock`;
  writeFileSync(lock, String(DEAD));
  const race = playRace(lock, at);
  let ranWhileHeld: boolean | undefined;
  try {
    const body = () => {
      ranWhileHeld = !race.state.liveReleased;
      return 'done';
    };
    const result = mode === 'sync' ? withLockSync(file, body) : await withLock(file, async () => body());
    assert.equal(result, 'done');
  } finally {
    race.restore();
  }
  assert.ok(race.state.swapped, 'the race was played');
  assert.equal(ranWhileHeld, false, 'the writer waited for the live writer to release the lock');
  assert.ok(!existsSync(lock), 'no lock left behind');
}

for (const mode of ['sync', 'async'] as const) {
  test(`${mode}: a lock whose holder exits just after releasing it is not taken from the writer that took it next`, async () => {
    await underRace(join(dir, 'index.json'), 'liveness', mode);
  });

  test(`${mode}: a lock left by a process that died is taken over, and released after`, async () => {
    const file = join(dir, 'index.json');
    writeFileSync(`${file}.lock`, String(DEAD));
    const result = mode === 'sync' ? withLockSync(file, () => 1) : await withLock(file, async () => 1);
    assert.equal(result, 1);
    assert.ok(!existsSync(`${file}.lock`));
  });
}

// The sync writer renames with node:fs's renameSync, which the test cannot step into.
test('async: two writers break a dead lock at once; the one that finds the other has taken it meanwhile puts it back', async () => {
  await underRace(join(dir, 'index.json'), 'rename', 'async');
});

for (const mode of ['sync', 'async'] as const) {
  test(`${mode}: a writer whose lock was taken over while it stalled leaves the new holder's lock in place`, async () => {
    const file = join(dir, 'index.json');
    const lock = `${file}.lock`;
    // The writer stalled past the stale age; another writer (a live process) broke its lock and holds it now.
    const takenOver = () => {
      rmSync(lock);
      writeFileSync(lock, String(process.ppid));
      return 'written';
    };
    assert.equal(mode === 'sync' ? withLockSync(file, takenOver) : await withLock(file, async () => takenOver()), 'written');
    assert.equal(readFileSync(lock, 'utf8'), String(process.ppid), "the other writer's lock is still there");
  });
}
