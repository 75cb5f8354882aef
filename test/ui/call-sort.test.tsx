// The call log's sort key (O): it cycles the column and direction, the header shows the order, the
// archive reads in it (not only the rows loaded), and g/G and the window around the cursor follow it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callDuration } from '../../src/api/records.js';
import { openArchivedCallLog } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';

const sb = createMemoryApi();

/** The call log's header line in the frame. */
const header = (frame: string) => frame.split('\n').find((l) => /\bCREATED\b.*\bSTATUS\b/.test(l)) ?? '';

test('O cycles the call log through created, status, duration and cost, each both ways; the header shows it; g/G reach its ends', async () => {
  const { c, all, view, selected } = await openArchivedCallLog(sb);
  try {
    const newest = [...all].sort((a, b) => (a.createdAt! < b.createdAt! ? 1 : -1));
    assert.equal(selected()?.id, newest[0].id, 'newest first by default');
    assert.doesNotMatch(header(c.frame()), /[▲▼]/);

    await c.press('O');
    await c.waitFor('CREATED ▲');
    assert.equal(selected()?.createdAt, newest.at(-1)!.createdAt, 'oldest first');
    await c.press('G');
    await until(() => selected()?.id !== undefined && view().cursor === all.length - 1, 'G: the last row');
    assert.equal(selected()?.createdAt, newest[0].createdAt, 'G: the newest is last');

    for (const mark of ['CREATED ▼', 'STATUS ▲', 'STATUS ▼', 'DUR ▲', 'DUR ▼']) {
      await c.press('O');
      await c.waitFor(mark);
      assert.equal(view().cursor, 0, `${mark}: the cursor goes to the top`);
    }
    assert.match(header(c.frame()), /DUR ▼/);
    const durations = all.map(callDuration).filter((d): d is number => typeof d === 'number');
    const longest = Math.max(...durations);
    const shortest = all.some((x) => callDuration(x) === undefined || callDuration(x) === null) ? undefined : Math.min(...durations);
    assert.equal(callDuration(selected()!), longest, 'the longest call of the whole log first, not of the rows loaded');
    // The window held is in that order.
    const held = c.store
      .getState()
      .callLog.calls.map(callDuration)
      .filter((d): d is number => typeof d === 'number');
    assert.deepEqual(
      held,
      [...held].sort((a, b) => b - a),
    );
    // G reads the far end in this order (a window read by offset, not the newest-first keyset).
    await c.press('G');
    await until(() => view().cursor === all.length - 1 && selected() !== undefined, 'G: the last row');
    assert.equal(callDuration(selected()!) ?? undefined, shortest, 'G: the shortest (or one without a duration) last');
    const log = c.store.getState().callLog;
    assert.equal(log.from + log.calls.length, all.length, 'the window ends at the last call');
    assert.equal(new Set(log.calls.map((x) => x.id)).size, log.calls.length, 'no call twice');
    // k goes up the same order, and g back to the top.
    await c.press('k');
    await until(() => view().cursor === all.length - 2, 'k');
    await c.press('g');
    await until(() => view().cursor === 0 && selected() !== undefined, 'g: the top');
    assert.equal(callDuration(selected()!), longest);

    await c.press('O', 'O');
    await c.waitFor('COST ▼');
    await c.press('O');
    // Past the last column: newest first again, no mark.
    await until(() => !/[▲▼]/.test(header(c.frame())), 'the mark goes');
    await until(() => selected()?.id === newest[0].id, 'newest first again');
  } finally {
    await c.close();
  }
});
