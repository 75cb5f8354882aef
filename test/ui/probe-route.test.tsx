// A route in one place: a read-only screen defined here, in one spec, and added to the list of
// routes the console is made from (RouteRegistry over ROUTE_LIST, as src/ui/screens/routes.ts makes
// the console's), with no other file touched. Its digit opens it, its own keys run their handlers,
// help lists it under its section, the footer shows its keys, a key that is off says why (in the
// footer, in help, and when pressed), and the frame before Ink shows its loading line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { Text } from 'ink';
import { Footer } from '../../src/ui/keymap.js';
import { keymapWith } from '../../src/ui/keys-file.js';
import { ROUTE_LIST, RouteRegistry } from '../../src/ui/screens/routes.js';
import type { RouteGroup } from '../../src/ui/screens/route-spec.js';
import type { ConsoleActions, ConsoleState } from '../../src/store/index.js';
import { useDetailKeys, useListKeys } from '../../src/ui/hooks/useScreenKeys.js';
import { useTopView } from '../../src/ui/hooks/useTopView.js';
import { useSelection } from '../../src/ui/hooks/selection.js';
import { rowKey } from '../../src/ui/screens/keys.js';
import { chromeFrame } from '../../src/ui/start.js';
import { createMemoryApi } from '../support/memory-api.js';
import { openConsole } from './support.js';
import { until } from '../support/wait.js';

const ponged: string[] = [];

type Args = { state: ConsoleState; actions: ConsoleActions };

function Probe({ height }: { height: number }) {
  useDetailKeys({ lines: 1, height });
  return createElement(Text, null, 'the probe body');
}

/** The probe's spec, as a screen folder's spec.ts would declare it (its params: none). */
const PROBE = {
  probe: {
    title: () => 'Probe',
    contexts: ['probe', 'detail', 'global'],
    jump: '9',
    help: 'Probe screen',
    firstFrame: () => 'Loading the probe…',
    component: async () => Probe,
    keys: {
      ping: { keys: [{ char: 'p' }], hint: 'ping the probe', footer: Footer.Normal, run: ({ actions }: Args) => actions.flash('pinged') },
      pong: {
        keys: [{ char: 'P' }],
        hint: 'pong',
        footer: Footer.Normal,
        run: () => void ponged.push('pong'),
        disabled: ({ state }: Args) => (state.lastFlash?.text === 'pinged' ? undefined : 'ping first'),
      },
    },
  },
} as unknown as RouteGroup<{ probe: Record<never, never> }>;

test('a probe screen added by its spec and one line in the list: its digit, keys, help section, footer, disabled reason and first frame', async () => {
  const registry = new RouteRegistry([...ROUTE_LIST, PROBE] as unknown as RouteGroup<Record<string, object>>[]);
  const api = createMemoryApi();
  const c = await openConsole(api, { initialRoute: { name: 'assistants' }, registry });
  try {
    await c.waitFor('Assistants');
    // Its digit, from its spec.
    await c.press('9');
    await c.waitFor('the probe body');
    assert.equal(c.store.getState().stack.at(-1)?.name, 'probe');
    // The footer: its own keys, the one that is off with why.
    await c.waitFor('p ping the probe');
    assert.match(c.frame(), /P pong \(ping first\)/);
    // Pressed while off: it says why, and its handler does not run.
    await c.press('P');
    await c.waitFor('"pong" is off: ping first');
    assert.deepEqual(ponged, []);
    // Help: this screen's keys first, the reason beside the one that is off.
    await c.press('?');
    await c.waitFor('This screen: Probe');
    assert.match(c.frame(), /P +pong \(off: ping first\)/);
    await c.press('\u001b');
    await until(() => (c.store.getState().stack.at(-1)?.name as string) === 'probe', 'back on the probe');
    // Its handler runs; the other key's reason goes, and that key runs too.
    await c.press('p');
    await c.waitFor('pinged');
    await until(() => !/ping first/.test(c.frame()), 'the reason is gone from the footer');
    assert.match(c.frame(), /P pong/);
    await c.press('P');
    await until(() => ponged.length === 1, 'pong ran');
    // Help opened elsewhere lists the probe's keys under its section, and its digit among the keys of every screen.
    await c.press('1');
    await until(() => c.store.getState().stack.at(-1)?.name === 'assistants', 'the digit 1 still opens the assistants');
    await c.press('?');
    await c.waitFor('This screen: Assistants');
    await c.press('/');
    for (const ch of 'probe') await c.press(ch);
    await c.waitFor(/Probe screen/);
    assert.match(c.frame(), /p +ping the probe/);
    assert.match(c.frame(), /9 +probe/);
  } finally {
    await c.close();
  }
  // Help's sections and the global digit come from the spec too.
  const section = registry.keymap.sections.find((s) => s.title === 'Probe screen');
  assert.deepEqual(section?.contexts, ['probe']);
  assert.ok(registry.keymap.bindingsFor(['global']).some((b) => b.keys === '9' && b.hint === 'probe'));
  // The frame drawn before Ink: the chrome, and its loading line where its body goes.
  const frame = chromeFrame(
    { kind: 'sandbox', profile: 'sandbox', baseUrl: 'starting…' },
    { name: 'probe' } as never,
    80,
    24,
    false,
    registry.keymap,
    registry,
  );
  assert.match(frame, /\x1b\[2;1HProbe/);
  assert.match(frame, /\x1b\[3;1HLoading the probe…/);
  assert.match(frame, /p ping the probe/);
});

test("the probe's own key, declared only in its spec, is remapped by a keys file by its command name", async () => {
  const registry = new RouteRegistry([...ROUTE_LIST, PROBE] as unknown as RouteGroup<Record<string, object>>[]);
  const keymap = keymapWith(registry.keymap, { probe: { ping: 'x' } });
  const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'probe' } as never, registry, keymap });
  try {
    await c.waitFor('x ping the probe');
    // Its old key is no key there now.
    await c.press('p');
    assert.notEqual(c.store.getState().lastFlash?.text, 'pinged');
    await c.press('x');
    await c.waitFor('pinged');
  } finally {
    await c.close();
  }
  assert.throws(() => keymapWith(registry.keymap, { probe: { pingg: 'x' } }), /"pingg" is not a command; in probe: ping, pong/);
});

/** The probe list's rows (each test sets them) and the rows its spec's key took. */
let probeRows: { id: string }[] = [];
const taken: string[] = [];

/** A list: its rows, the cursor's marked; it says which is under the cursor, and binds only movement. */
function ProbeList({ height }: { height: number }) {
  const view = useTopView();
  const selected = probeRows[Math.min(view.cursor, probeRows.length - 1)];
  useSelection({ row: selected });
  useListKeys({ count: probeRows.length, height, bindings: {} });
  const text = probeRows.length ? probeRows.map((r, i) => `${i === view.cursor ? '>' : ' '} row ${r.id}`).join('\n') : 'no probe rows';
  return createElement(Text, null, text);
}

const PROBE_LIST = {
  'probe-list': {
    title: () => 'Probe list',
    contexts: ['probe-list', 'list', 'global'],
    jump: '8',
    help: 'Probe list',
    component: async () => ProbeList,
    // Its key on a row, declared here only: the handler gets the row the list says is under the cursor.
    keys: { take: rowKey<{ id: string }>({ keys: [{ char: 't' }], hint: 'take it', footer: Footer.Normal }, 'probe row', (r) => void taken.push(r.id)) },
  },
} as unknown as RouteGroup<{ 'probe-list': Record<never, never> }>;

test("a list route's key on the row under the cursor lives in its spec: off with no row, and on the row j moved to", async () => {
  const registry = new RouteRegistry([...ROUTE_LIST, PROBE_LIST] as unknown as RouteGroup<Record<string, object>>[]);
  probeRows = [];
  let c = await openConsole(createMemoryApi(), { initialRoute: { name: 'probe-list' } as never, registry });
  try {
    await c.waitFor('no probe rows');
    await c.waitFor('t take it (no probe row here)');
    await c.press('t');
    await c.waitFor('"take it" is off: no probe row here');
    assert.deepEqual(taken, []);
  } finally {
    await c.close();
  }
  probeRows = [{ id: 'a1' }, { id: 'b2' }, { id: 'c3' }];
  c = await openConsole(createMemoryApi(), { initialRoute: { name: 'probe-list' } as never, registry });
  try {
    await c.waitFor('> row a1');
    assert.doesNotMatch(c.frame(), /no probe row here/);
    await c.press('j');
    await c.waitFor('> row b2');
    await c.press('t');
    await until(() => taken.length === 1, 'take ran');
    assert.deepEqual(taken, ['b2']);
    await c.press('G');
    await c.waitFor('> row c3');
    await c.press('t');
    await until(() => taken.length === 2, 'take ran again');
    assert.deepEqual(taken, ['b2', 'c3']);
  } finally {
    await c.close();
  }
});
