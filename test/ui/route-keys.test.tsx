// A route's own keys, declared in its spec (ui/screens/<folder>/spec.ts) rather than in keymap.ts's
// table: a key whose action is unavailable says why in the footer, in help and when pressed, its
// handler reads the store; routes may share one of their keys (one command, remapped by one name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Footer, routeBindings } from '../../src/ui/keymap.js';
import { DEFAULT_ROUTES } from '../../src/ui/screens/routes.js';
import { keymapWith } from '../../src/ui/keys-file.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { openArchivedCallLog, openConsole } from './support.js';

test("the call log's S (its spec's key) is off on a log with no call: a press and help say why", async () => {
  const c = await openConsole(createMemoryApi({ seed: false }), { initialRoute: { name: 'calls' } });
  try {
    // The footer has no room for S beside the log's other keys; the review's test below shows a reason there.
    await until(() => c.store.getState().callLog.status === 'ready' && !c.store.getState().archiveSync.running, 'the log is read');
    await c.press('S');
    await c.waitFor('"stats" is off: no call to count');
    assert.equal(c.store.getState().stack.at(-1)?.name, 'calls', 'the stats did not open');
    await c.press('?');
    await c.waitFor('This screen: Calls');
    await c.press('/');
    await c.type('stats');
    await c.waitFor(/S +stats \(off: no call to count\)/);
  } finally {
    await c.close();
  }
});

test('with calls in the log S opens the stats', async () => {
  const { c } = await openArchivedCallLog(createMemoryApi());
  try {
    await c.press('?');
    await c.waitFor('This screen: Calls');
    await c.press('/');
    await c.type('stats');
    assert.doesNotMatch(await c.waitFor(/S +stats/), /S +stats \(/);
    await c.press('\u001b', '\u001b');
    await until(() => c.store.getState().stack.at(-1)?.name === 'calls', 'back on the log');
    await c.press('S');
    await until(() => c.store.getState().stack.at(-1)?.name === 'call-stats', 'the stats open');
  } finally {
    await c.close();
  }
});

test("the YAML review's Enter (its spec's key) with nothing to apply: the footer and a press say why, and nothing is applied", async () => {
  const c = await openConsole(createMemoryApi({ seed: false }), { initialRoute: { name: 'assistant-yaml', id: 'a1' } });
  try {
    await c.waitFor('Nothing to review.');
    await c.waitFor('Enter apply the changes (nothing to review)');
    await c.press('\r');
    await c.waitFor('"apply the changes" is off: nothing to review');
    assert.equal(c.store.getState().assistantEdit, null);
    assert.match(c.frame(), /Esc discard them/);
  } finally {
    await c.close();
  }
});

test("the routes' keys are the keymap's, in each one's context: f, L, S on the log, s on the log and the search, u on the files", () => {
  const keys = DEFAULT_ROUTES.keymap;
  assert.deepEqual(keys.binding('search')?.contexts, ['calls', 'search']);
  assert.deepEqual(keys.binding('stats')?.contexts, ['calls']);
  assert.deepEqual(keys.binding('upload')?.contexts, ['files']);
  assert.equal(keys.writes('upload'), true);
  assert.deepEqual(keys.binding('runTestsAgain')?.contexts, ['tests']);
  // keys.yaml remaps a route's key by its command name, in each context it lives in.
  const mine = keymapWith(keys, { calls: { search: 'F' }, search: { search: 'ctrl-s' } });
  assert.equal(mine.bindingsFor(['calls']).find((b) => b.command === 'search')?.keys, 'F');
  assert.equal(mine.bindingsFor(['search']).find((b) => b.command === 'search')?.keys, 'Ctrl-S');
});

test('routes sharing a key must agree on it; a key may not take the name of a command of the table', () => {
  const ping = { keys: [{ char: 'p' }], hint: 'ping', footer: Footer.Normal };
  const { table } = routeBindings([
    { name: 'a', contexts: ['a', 'list'], keys: { ping } },
    { name: 'b', contexts: ['b', 'detail'], keys: { ping } },
  ]);
  assert.deepEqual(table.ping?.contexts, ['a', 'b']);
  assert.throws(
    () =>
      routeBindings([
        { name: 'a', contexts: ['a'], keys: { ping } },
        { name: 'b', contexts: ['b'], keys: { ping: { ...ping, hint: 'pong' } } },
      ]),
    /route b: its key "ping" is another route's, with other keys or hint/,
  );
  assert.throws(() => routeBindings([{ name: 'a', contexts: ['a'], keys: { refresh: ping } }]), /its key "refresh" is a command already/);
});
