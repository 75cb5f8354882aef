// `:calls <short id>` finds the call in the archive, not only among the rows the log has loaded,
// by its end (the short id the lists show) or its start, and an id the archive does not hold is
// asked of the service as typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openArchivedCallLog } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

const sb = createMemoryApi();

test(':calls with the start of an id opens an archived call the log has not loaded', async () => {
  const { c, all } = await openArchivedCallLog(sb);
  try {
    const loaded = new Set(c.store.getState().callLog.calls.map((x) => x.id));
    const far = all.find((x) => !loaded.has(x.id) && all.filter((y) => y.id.startsWith(x.id.slice(0, 8))).length === 1);
    assert.ok(far, 'a call the log has not loaded, with a unique 8-character start');
    await c.press(':');
    await c.type(`calls ${far.id.slice(0, 8)}`);
    await c.press(KEYS.enter);
    await until(() => c.store.getState().stack.at(-1)?.name === 'call', 'the call opens');
    assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: far.id });
  } finally {
    await c.close();
  }
});

test(':calls with the short id (the end of an id) opens an archived call the log has not loaded', async () => {
  const { c, all } = await openArchivedCallLog(sb);
  try {
    const loaded = new Set(c.store.getState().callLog.calls.map((x) => x.id));
    const far = all.find((x) => !loaded.has(x.id) && all.filter((y) => y.id.endsWith(x.id.slice(-8))).length === 1);
    assert.ok(far, 'a call the log has not loaded, with a unique 8-character end');
    await c.press(':');
    await c.type(`calls ${far.id.slice(-8).toUpperCase()}`);
    await c.press(KEYS.enter);
    await until(() => c.store.getState().stack.at(-1)?.name === 'call', 'the call opens');
    assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: far.id });
  } finally {
    await c.close();
  }
});
