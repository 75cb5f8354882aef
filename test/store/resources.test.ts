// Lists loaded again (a poll, coming back to a screen, r): when the service sends what is shown,
// the same object stays, so what the screens built on it (the call log's assistant names, each
// row's formatted line) is kept; a change is a new object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { createConsoleStore } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

test('a list that comes back unchanged is the same object; a changed one is new and holds the change', async () => {
  // Each load answers with new objects, as a request does: the store must see the rows are the same.
  const api = createMemoryApi();
  const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: api.baseUrl }, { routes: ROUTES, pollMs: 3_600_000 });
  try {
    const { actions } = store.getState();
    // The first screen (Assistants) loads them; then each load below is one request.
    await until(() => store.getState().assistants.status === 'ready', 'the assistants');
    await actions.loadAssistants({ force: true });
    const first = store.getState().assistants.data;
    assert.ok(first && first.length > 0);
    await actions.loadAssistants({ force: true });
    assert.equal(store.getState().assistants.data, first, 'the same rows: the same object');
    assert.equal(store.getState().assistants.status, 'ready');
    await until(() => store.getState().numbers.status !== 'loading', 'no load of numbers under way');
    await actions.loadNumbers({ force: true });
    const numbers = store.getState().numbers.data;
    await actions.loadNumbers({ force: true });
    assert.equal(store.getState().numbers.data, numbers);

    await api.createAssistant({ name: 'Changed Since' });
    await actions.loadAssistants({ force: true });
    const next = store.getState().assistants.data!;
    assert.notEqual(next, first, 'a change: a new object');
    assert.ok(next.some((a) => a.name === 'Changed Since'));
  } finally {
    store.getState().actions.dispose();
  }
});
