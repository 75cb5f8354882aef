// The call log's sort (O) under a `/` filter: the matches come in the chosen order, not newest
// first; the header marks it; g/G land on the order's ends and the status line's n/total follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callDuration } from '../../src/api/records.js';
import type { Call } from '../../src/api/schemas.js';
import { openArchivedCallLog } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';

const sb = createMemoryApi();
const KEYS = { enter: '\r' } as const;

/** The call log's header line in the frame. */
const header = (frame: string) => frame.split('\n').find((l) => /\bCREATED\b.*\bSTATUS\b/.test(l)) ?? '';
/** A call's talk time, none as -1 (sorted last). */
const dur = (c: Call) => callDuration(c) ?? -1;

test('/ then O: the matches in duration order, longest first; g/G at its ends; n/total right', async () => {
  const { c, all, selected } = await openArchivedCallLog(sb);
  try {
    const matching = all.filter((x) => x.type?.includes('outbound'));
    assert.ok(matching.length > 100 && matching.length < all.length, 'a filter that leaves more than a screen, not every call');
    await c.press('/');
    await c.type('outbound');
    await c.press(KEYS.enter);
    const n = matching.length;
    await c.waitFor(`${n} calls · 1/${n}`);
    await until(() => !c.store.getState().callLog.filtering, 'the walk done');

    await c.press('O', 'O', 'O', 'O', 'O', 'O');
    await c.waitFor('DUR ▼');
    assert.match(header(c.frame()), /DUR ▼/, 'the header shows the order under the filter');
    // O keeps the cursor on its call (test/store/call-filter-sort.test.ts); g goes to the top of the order.
    await c.press('g');
    await c.waitFor(`${n} calls · 1/${n}`);
    const longest = Math.max(...matching.map(dur));
    await until(() => selected() !== undefined && dur(selected()!) === longest, 'the longest match first');

    // Every match, once, in the order: longest first, ties newest first, calls without a duration last.
    const seen: Call[] = [];
    for (let i = 0; i < n; i++) {
      c.store.getState().actions.setCursor(i, n, 20);
      seen.push(selected());
    }
    assert.deepEqual(new Set(seen.map((x) => x.id)), new Set(matching.map((x) => x.id)), 'the matches, none other');
    assert.equal(new Set(seen.map((x) => x.id)).size, n, 'none twice');
    seen.forEach((x, i) => {
      if (i === 0) return;
      const prev = seen[i - 1];
      assert.ok(dur(prev) >= dur(x), `row ${i}: ${dur(prev)} before ${dur(x)}`);
      if (dur(prev) === dur(x)) assert.ok(Date.parse(prev.createdAt) >= Date.parse(x.createdAt), `row ${i}: a tie, newest first`);
    });

    await c.press('g');
    await c.press('G');
    await c.waitFor(`${n} calls · ${n}/${n}`);
    assert.equal(selected()?.id, seen.at(-1)!.id, 'G: the last of the order');
    assert.equal(dur(selected()!), Math.min(...matching.map(dur)), 'G: the shortest (or one without a duration)');
    await c.press('g');
    await c.waitFor(`${n} calls · 1/${n}`);
    assert.equal(selected()?.id, seen[0].id, 'g: the first of the order');
  } finally {
    await c.close();
  }
});
