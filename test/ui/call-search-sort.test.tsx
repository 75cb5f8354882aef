// Search results sort (O) and filter (/) the hits loaded, as the other lists do: the header marks
// the order, the rows follow it, and the status line counts what the filter leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openArchivedCallLog } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

const sb = createMemoryApi();
const KEYS = { enter: '\r' } as const;

/** Seconds of a DUR cell (`7m13s`, `42s`); none (`—`) as -1. */
const seconds = (cell: string) => {
  const m = /^(?:(\d+)m)?(\d+)s$/.exec(cell);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : -1;
};
/** The DUR cell (the last column at this width) of each hit's first line in the frame, top to bottom. */
const durations = (frame: string) =>
  frame
    .split('\n')
    .filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d /.test(l))
    .map((l) => seconds(/(\S+)\s*$/.exec(l)?.[1] ?? ''));

test('search results: O sorts the hits (DUR ▼ longest first), / filters them and the count says so', async () => {
  const { c } = await openArchivedCallLog(sb);
  try {
    await c.press('s');
    await c.type('customer');
    await c.press(KEYS.enter);
    await c.waitFor(/\d+ calls mention customer/);
    const before = durations(c.frame());
    assert.ok(before.length > 3, 'several hits on screen');
    await c.press('O', 'O', 'O', 'O', 'O', 'O');
    const sorted = durations(await c.waitFor('DUR ▼'));
    assert.ok(sorted.length > 3);
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => b - a),
      'longest first',
    );
    assert.notDeepEqual(sorted, before, 'not the newest-first order');

    await c.press('/');
    await c.type('outbound');
    await c.press(KEYS.enter);
    const frame = await c.waitFor(/\d+ of them match \/outbound · 1\/\d+/);
    const rows = frame.split('\n').filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d /.test(l));
    assert.ok(rows.length > 0 && rows.every((l) => l.includes('outbound')), 'only the hits the filter leaves');
    const left = durations(frame);
    assert.deepEqual(
      left,
      [...left].sort((a, b) => b - a),
      'still in the order',
    );
  } finally {
    await c.close();
  }
});
