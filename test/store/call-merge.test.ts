// The call log's cheap merges: older pages are appended, a refresh folds newer calls in front.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Call } from '../../src/api/schemas.js';
import { appendOlder, logRow, mergeNewer, nextPageSize, olderBatchDone, CALLS_PAGE_SIZE, OLDER_BATCH_MS } from '../../src/store/calls.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute)).toISOString();
const call = (id: string, minute: number, status = 'ended'): Call => ({ id, createdAt: at(minute), status });
const ids = (calls: Call[]) => calls.map((c) => c.id);

test('an older page is appended; calls at the boundary timestamp are not shown twice', () => {
  const loaded = [call('d', 9), call('c', 5), call('b', 5)];
  assert.deepEqual(ids(appendOlder(loaded, [call('c', 5), call('a', 5), call('z', 1)])), ['d', 'c', 'b', 'a', 'z']);
  assert.equal(appendOlder(loaded, []), loaded);
});

test('a refresh puts new calls in front and updates changed ones in place', () => {
  const loaded = [call('c', 9, 'in-progress'), call('b', 5), call('a', 1)];
  const merged = mergeNewer(loaded, [call('e', 12), call('d', 10), call('c', 9, 'ended')]);
  assert.deepEqual(ids(merged), ['e', 'd', 'c', 'b', 'a']);
  assert.equal(merged[2].status, 'ended');
  assert.equal(merged[3], loaded[1], 'calls the refresh did not touch are the same objects');
  assert.equal(loaded[0].status, 'in-progress', 'the loaded log is not mutated');
});

test('a quiet refresh keeps the log as it was (no redraw); a call in a gap falls back to a full merge', () => {
  const loaded = [call('c', 9), call('b', 5), call('a', 1)];
  assert.equal(mergeNewer(loaded, [call('c', 9)]), loaded);
  assert.deepEqual(ids(mergeNewer(loaded, [call('c', 9), call('x', 7)])), ['c', 'x', 'b', 'a']);
});

test('pages grow with what is loaded, up to the service maximum', () => {
  assert.equal(nextPageSize(0), CALLS_PAGE_SIZE);
  assert.equal(nextPageSize(400), 400);
  assert.equal(nextPageSize(50_000), 1000);
});

test('load more gathers pages until a quarter of the log, or for a bounded time', () => {
  assert.equal(olderBatchDone(CALLS_PAGE_SIZE, CALLS_PAGE_SIZE, 0), true, 'a small log grows by one page');
  assert.equal(olderBatchDone(1000, 40_000, 0), false, 'a big log waits for more than one page');
  assert.equal(olderBatchDone(10_000, 40_000, 0), true);
  assert.equal(olderBatchDone(1000, 40_000, OLDER_BATCH_MS), true, 'but not longer than the batch time');
});

test('a log row keeps what the table, chart and filter show, and nothing else', () => {
  const full: Call = { ...call('a', 1), type: 'inboundPhoneCall', assistantId: 'as1', customer: { number: '+1555', name: 'Ana' }, cost: 0.2, durationSeconds: 60, summary: 'hi', endedReason: 'done', startedAt: at(1), extra: { big: 'x' } };
  const row = logRow(full);
  assert.deepEqual(JSON.parse(JSON.stringify(row)), { id: 'a', createdAt: at(1), type: 'inboundPhoneCall', status: 'ended', assistantId: 'as1', customer: { number: '+1555', name: 'Ana' }, durationSeconds: 60, cost: 0.2 });
});
