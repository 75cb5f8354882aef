// A drill-down's filter (an assistant's calls, `C`) belongs to the drill-down: the call log is as
// it was once it is left. The console's search says that it searches what the log's filters let
// through, and the chart tells "no call matches the filters" from an empty archive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { chartText } from '../../src/ui/screens/calls/log-text.js';

const sb = createMemoryApi();

test('an assistant, C, Esc, 3: the main call log has no filter, and shows every call', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    await until(() => !c.store.getState().archiveSync.running, 'the archive synced');
    const all = c.store.getState().callLog.total;
    await c.press('1');
    await c.waitFor('NAME');
    const first = c.store.getState().assistants.data![0];
    await c.press('C');
    await until(() => c.store.getState().callLog.form.assistantId === first.id, 'the drill-down filters to the assistant');
    await c.waitFor(`filters: assistant ${first.name}`);
    await c.press(KEYS.escape);
    await until(() => c.store.getState().stack.at(-1)!.name === 'assistants');
    await c.press('3');
    await until(() => c.store.getState().stack.at(-1)!.name === 'calls');
    await until(() => c.store.getState().callLog.total === all, 'every call again');
    assert.equal(c.store.getState().callLog.form.assistantId, '');
    const frame = await c.waitFor('no filters (f)');
    assert.doesNotMatch(frame, /no calls in the archive yet/);
  } finally {
    await c.close();
  }
});

test('the search from a drilled-down log says it searches what the filters let through', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
  try {
    await c.waitFor('NAME');
    await c.press('C');
    await c.waitFor('filters: assistant');
    await c.press(':');
    await c.type('search refund');
    await c.press(KEYS.enter);
    await c.waitFor(/call log's filters \(assistant/);
  } finally {
    await c.close();
  }
});

test("the chart's empty line tells a filter that matches nothing from an empty archive", () => {
  assert.equal(chartText([], 80, true).legend, 'calls/day: no calls match the filters');
  assert.equal(chartText([], 80).legend, 'calls/day: no calls in the archive yet');
});
