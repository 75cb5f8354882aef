// A test file's set-up and tear-down. When `--test-name-pattern` matches none of a file's tests,
// Node's runner starts the file's `before` hooks and runs its `after` hooks without waiting for
// them: a tear-down found nothing to close, the set-up finished after it, and the servers it
// started kept the file's process alive for ever. Here a tear-down runs only for a set-up that
// started, and only once it has ended (however it ended: one cut short leaves less to undo).
import { after, before } from 'node:test';

/** `setup` as the file's (or suite's) `before`, `teardown` as its `after`. */
export function setUpAndTearDown(setup: () => unknown, teardown: () => unknown): void {
  let started: Promise<unknown> | undefined;
  before(() => (started = Promise.resolve().then(setup)));
  after(async () => {
    if (!started) return;
    await started.catch(() => {});
    await teardown();
  });
}
