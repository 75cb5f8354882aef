// A list's window moves only when the cursor would leave it: after scrolling down to the bottom
// row, k moves the highlight up and the rows stay put (the store's window is the table's body,
// not its height with the header).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeKey, viewOf } from '../../src/store/index.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

// The service, in memory: these tests are about the console, not HTTP.
const sb = createMemoryApi();

/** The table's first body row in the frame: the line under the header. */
function firstRow(frame: string): string {
  const lines = frame.split('\n');
  const header = lines.findIndex((l) => /\bASSISTANT\b.*\bDUR\b/.test(l));
  assert.ok(header >= 0, `no call table in:\n${frame}`);
  return lines[header + 1];
}

test('k on the bottom row of the call log moves the highlight, not the window', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor(/\bDUR\b/);
    const cursor = () => viewOf(c.store.getState(), routeKey({ name: 'calls' })).cursor;
    const top = firstRow(c.frame());
    let presses = 0;
    while (firstRow(c.frame()) === top) {
      await c.press('j');
      assert.ok(++presses < 60, 'the log never scrolled');
    }
    // The window just scrolled by one: the cursor is on its bottom row.
    const scrolled = firstRow(c.frame());
    assert.equal(cursor(), presses);
    await c.press('k');
    assert.equal(cursor(), presses - 1);
    assert.equal(firstRow(c.frame()), scrolled, 'the window stayed where it was');
    await c.press('j');
    assert.equal(firstRow(c.frame()), scrolled, 'and back down to the bottom row without scrolling');
  } finally {
    await c.close();
  }
});
