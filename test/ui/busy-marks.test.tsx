// The live call log refreshes every few seconds: its "syncing…" and the header's "⟳ refreshing…"
// show only for a refresh that lasts, never as a blink on each quick one; and a screen's own timers
// (that mark's, the spinner's) change what is drawn only in a key gap.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { Text } from 'ink';
import { until } from '../support/wait.js';
import { renderApp, tick } from '../support/ink.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { createConsoleStore, StoreProvider } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';
import { Spinner } from '../../src/ui/components/Spinner.js';
import { useLasting } from '../../src/ui/hooks/useLasting.js';

describe('busy marks', () => {
  const sb = createMemoryApi();

  test('quick live refreshes draw no busy mark; a slow one does', async () => {
    let slow = false;
    const c = await openConsole(sb, {
      initialRoute: { name: 'calls' },
      pollMs: 100,
      // The service, slowed on demand: each call-log page answers late.
      wrapApi: (api) =>
        new Proxy(api, {
          get: (t, p) =>
            p === 'listCalls' || p === 'callDetails'
              ? async (...args: Parameters<typeof api.listCalls>) => {
                  if (slow) await new Promise((r) => setTimeout(r, 1500));
                  return p === 'listCalls' ? api.listCalls(...args) : api.callDetails(...args);
                }
              : Reflect.get(t, p, t),
        }),
    });
    try {
      await c.waitFor('calls/day');
      await until(() => c.store.getState().archiveSync.complete && !c.store.getState().archiveSync.running, 'the first sync');
      const from = c.frames.length;
      // Several live syncs, each quick.
      let syncs = 0;
      const unsubscribe = c.store.subscribe((s, prev) => void (prev.archiveSync.running && !s.archiveSync.running && syncs++));
      await until(() => syncs >= 5, 'five live syncs');
      unsubscribe();
      const drawn = c.frames.slice(from).join('\n');
      assert.ok(!drawn.includes('syncing…') && !drawn.includes('refreshing…'), `a quick refresh blinked a busy mark:\n${drawn.slice(-2000)}`);
      slow = true;
      await c.waitFor('syncing…');
    } finally {
      await c.close();
    }
  });
});

describe('long messages', () => {
  const sb = createMemoryApi();

  test('a cut message says ! opens it whole, and ! does so after it has gone', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('NAME');
      c.store.getState().actions.resize(60, 24);
      const path = `/home/someone/projects/${'deep/'.repeat(12)}riley.test.yaml`;
      const text = `Saved as a test; run it: switchboard test ${path} (or :test)`;
      c.store.getState().actions.flash(text);
      const frame = await c.waitFor('(! shows it whole)');
      assert.match(frame, /Saved as a test; run it: switchboard test/);
      c.store.getState().actions.clearFlash();
      await c.press('!');
      await until(() => c.store.getState().stack.at(-1)!.name === 'message', 'the message view');
      const whole = await c.waitFor('riley.test.yaml');
      assert.ok(whole.replace(/\n/g, '').includes('(or :test)'), whole);
    } finally {
      await c.close();
    }
  });
});

describe("the screens' own timers", () => {
  const sb = createMemoryApi();
  const cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-timers-'));
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  // A timer's frame landing just before a key would hold the key's frame behind Ink's frame rate
  // limit: each timer's change goes through the store's key gaps. The test holds what is handed to
  // the gap; the change shows only once it is let go.
  const Lasting = () => createElement(Text, null, useLasting(true, 20) ? 'lasted' : 'not yet');
  for (const [name, component, shown] of [
    ['a mark shown once work has lasted (useLasting)', Lasting, 'lasted'],
    ['the spinner', Spinner, '⠙'],
  ] as const) {
    test(`${name}: its change waits for a key gap`, async () => {
      const store = createConsoleStore(sb, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.baseUrl, cacheDir }, { routes: ROUTES, pollMs: 3_600_000 });
      const held: Array<() => void> = [];
      store.getState().actions.inKeyGap = (fn) => void held.push(fn);
      const app = await renderApp(createElement(StoreProvider, { store, children: createElement(component) }));
      try {
        await until(() => held.length > 0, 'the timer handing its change to the key gap');
        await tick();
        assert.ok(!app.frame().includes(shown), `shown before its gap:\n${app.frame()}`);
        for (const fn of held.splice(0)) fn();
        await until(() => app.frame().includes(shown), `${shown} once the gap came`);
      } finally {
        app.unmount();
        store.getState().actions.dispose();
      }
    });
  }
});

describe("the call log's read ahead", () => {
  const sb = createMemoryApi();

  // The store reads the rows past those it holds in the gap after a key (store/calls.ts). While the
  // screen's rows stay the same objects, that read must draw no frame of its own: a frame drawn in
  // the gap can hold back the next key's behind Ink's frame rate limit.
  test('moving the window of rows held draws nothing while the rows on screen stay', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    try {
      await c.waitFor('calls/day');
      await until(() => c.store.getState().archiveSync.complete && !c.store.getState().archiveSync.running, 'the first sync');
      const plain: number[] = [];
      let moved: number | undefined;
      for (let i = 0; i < 200 && moved === undefined; i++) {
        const [frames, from] = [c.frames.length, c.store.getState().callLog.from];
        await c.press('j');
        await tick();
        const drawn = c.frames.length - frames;
        if (c.store.getState().callLog.from !== from) moved = drawn;
        else plain.push(drawn);
      }
      assert.ok(moved !== undefined, 'the window moved');
      assert.ok(plain.length > 0 && plain.every((n) => n === plain[0]), `a j draws the same frames each time: ${plain.join(' ')}`);
      assert.equal(moved, plain[0], 'the j whose gap moved the window drew no more than any other j');
    } finally {
      await c.close();
    }
  });
});
