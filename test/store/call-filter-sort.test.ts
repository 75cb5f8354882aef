// The call log's order under a `/` filter, in the store: the cursor stays on its call when O
// changes the order, and when a walk again (a sync brought calls) sorts a new match above it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMemoryApi, type MemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { callDuration } from '../../src/api/records.js';
import { CALL_SORT_COLUMNS } from '../../src/store/calls.js';
import { createConsoleStore, viewOf, type ConsoleStore } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

describe('console store: the call log sorted under a / filter', () => {
  let api: MemoryApi;
  let store: ConsoleStore;
  before(async () => {
    api = createMemoryApi();
    store = createConsoleStore(
      api,
      { kind: 'sandbox', profile: 'sandbox', baseUrl: api.baseUrl },
      { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000 },
    );
    store.getState().actions.resize(100, 30);
    await until(() => store.getState().callLog.total === api.records.calls.length && !store.getState().archiveSync.running, 'the archive holds the log');
  });
  after(async () => {
    store.getState().actions.dispose();
    await api.close();
  });
  const view = () => viewOf(store.getState(), 'calls');
  const selected = () => {
    const log = store.getState().callLog;
    return log.calls[view().cursor - log.from];
  };
  const filtered = () => until(() => !store.getState().callLog.filtering && store.getState().callLog.total > 0, 'the walk done');

  test('O keeps the cursor on its call, on the same screen row, through every order', async () => {
    const { actions } = store.getState();
    actions.setFilter('outbound');
    await filtered();
    const total = store.getState().callLog.total;
    actions.setCursor(30, total, 20);
    actions.setCursor(40, total, 20);
    const call = selected()!;
    let row = view().cursor - view().scroll;
    assert.equal(view().key, call.id);
    const places = new Set<number>();
    for (const _ of CALL_SORT_COLUMNS.flatMap((c) => [c, c])) {
      actions.cycleSort(CALL_SORT_COLUMNS);
      const sort = view().sort;
      assert.equal(selected()?.id, call.id, `${sort?.column} ${sort?.desc ? 'descending' : 'ascending'}: still on its call`);
      assert.equal(view().cursor - view().scroll, Math.min(row, view().cursor), 'on the same screen row (or as near the top as it can be)');
      row = view().cursor - view().scroll;
      places.add(view().cursor);
    }
    assert.ok(places.size > 2, `the orders put it in different places (${[...places].join(', ')})`);
    assert.equal(store.getState().callLog.total, total, 'the same matches');
  });

  test('a new match that sorts above the cursor moves the cursor down with its call', async () => {
    const { actions } = store.getState();
    while (view().sort?.column !== 'DUR' || !view().sort?.desc) actions.cycleSort(CALL_SORT_COLUMNS);
    await filtered();
    const total = store.getState().callLog.total;
    actions.setCursor(5, total, 20);
    const call = selected()!;
    // An outbound call longer than any: first in this order.
    const like = api.records.calls.find((c) => c.type === 'outboundPhoneCall')!;
    const newest = Math.max(...api.records.calls.map((c) => c.createdAt));
    const createdAt = newest + 1000;
    const endedAt = Math.min(Date.now() - 1000, createdAt + 3_600_000);
    api.records.calls.unshift({ ...like, id: randomUUID(), createdAt, ringingAt: createdAt, answeredAt: createdAt + 1000, endedAt });
    await store.getState().actions.refreshCalls();
    await until(() => store.getState().callLog.total === total + 1 && !store.getState().callLog.filtering, 'the new match found');
    const log = store.getState().callLog;
    assert.ok((callDuration(log.calls[0 - log.from]) ?? 0) > (callDuration(call) ?? 0), 'the new call sorts first');
    assert.equal(selected()?.id, call.id, 'the cursor is still on its call');
    assert.equal(view().cursor, 6, 'one row down');
  });
});
