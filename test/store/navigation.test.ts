import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryApi, type MemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { createConsoleStore, routeKey, topRoute, viewOf, type ConsoleStore } from '../../src/store/index.js';
import { scrollFor } from '../../src/store/navigation.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

describe('console store: navigation', () => {
  let api: MemoryApi;
  let store: ConsoleStore;
  before(() => void (api = createMemoryApi()));
  after(async () => {
    store?.getState().actions.dispose();
    await api.close();
  });
  const fresh = () => {
    store?.getState().actions.dispose();
    store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: api.baseUrl }, { routes: ROUTES });
    return store;
  };
  const names = () => store.getState().stack.map((r) => r.name);

  test('push, back and the bottom route staying put', () => {
    const { actions } = fresh().getState();
    actions.push({ name: 'assistant', id: 'a1' });
    actions.push({ name: 'assistant-edit', id: 'a1' });
    actions.push({ name: 'assistant-edit', id: 'a1' }); // same route twice is one entry
    assert.deepEqual(names(), ['assistants', 'assistant', 'assistant-edit']);
    actions.back();
    actions.back();
    actions.back();
    assert.deepEqual(names(), ['assistants']);
  });

  test('goTo replaces the stack and `-` swaps back to the previous view', () => {
    const { actions } = fresh().getState();
    actions.push({ name: 'assistant', id: 'a1' });
    actions.goTo({ name: 'calls' });
    assert.deepEqual(names(), ['calls']);
    actions.previousView();
    assert.deepEqual(names(), ['assistants', 'assistant']);
    actions.previousView();
    assert.deepEqual(names(), ['calls']);
  });

  test('view state (cursor, scroll, filter) is kept per route and restored on return', () => {
    const { actions } = fresh().getState();
    actions.moveCursor(7, 20, 5);
    assert.equal(viewOf(store.getState(), 'assistants').cursor, 7);
    assert.equal(viewOf(store.getState(), 'assistants').scroll, 3);
    actions.goTo({ name: 'files' });
    actions.setFilter('pdf');
    actions.moveCursor(2, 10, 5);
    actions.goTo({ name: 'assistants' });
    assert.equal(viewOf(store.getState(), routeKey(topRoute(store.getState()))).cursor, 7);
    actions.goTo({ name: 'files' });
    assert.deepEqual(viewOf(store.getState(), 'files'), { cursor: 2, scroll: 0, filter: 'pdf' });
  });

  test('the cursor stays inside the list and the window follows it', () => {
    const { actions } = fresh().getState();
    actions.moveCursor(-3, 10, 4);
    assert.equal(viewOf(store.getState(), 'assistants').cursor, 0);
    actions.moveCursor(100, 10, 4);
    assert.deepEqual(viewOf(store.getState(), 'assistants'), { cursor: 9, scroll: 6, filter: '' });
    assert.equal(scrollFor(2, 5, 4), 2);
    assert.equal(scrollFor(6, 5, 4), 5);
  });

  test('entering a screen loads it through the api; errors keep the service message', async () => {
    fresh();
    await until(() => store.getState().assistants.status === 'ready');
    assert.ok(store.getState().assistants.data!.length > 0);
    assert.ok(store.getState().assistants.fetchedAt);
    store.getState().actions.goTo({ name: 'file', id: 'no-such-file' });
    await until(() => store.getState().records['file:no-such-file']?.status === 'error');
    assert.match(store.getState().records['file:no-such-file']!.error!, /not found|no such|404/i);
  });
});
