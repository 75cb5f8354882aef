// What a store's slices hold between calls (the `/` scan, the flash's timer, the sync) is the
// slice's own, made with the store: never shared with another store made in the same process,
// and released by dispose() without touching the other store. No service: every request fails at once.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import type { Call } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

/** A service that answers nothing: every request fails, so nothing but the archive fills the stores. */
function downApi(): VoiceAgentApi {
  const base = { baseUrl: 'http://127.0.0.1:9', connectionState: 'online', traits: {}, onConnectionState: () => () => {}, learn: () => {} };
  return new Proxy(base, {
    get: (t, k) => (k in t ? t[k as keyof typeof t] : () => Promise.reject(new Error('the service is down'))),
  }) as unknown as VoiceAgentApi;
}

const call = (id: string, name: string, ms: number): Call =>
  ({ id, createdAt: new Date(ms).toISOString(), status: 'ended', customer: { number: '+14155550100', name } }) as Call;

const ids = (s: ConsoleStore) => s.getState().callLog.calls.map((c) => c.id);

test('two stores hold their own state: a scan, a flash and a dispose in one leave the other as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-two-stores-'));
  const stores: ConsoleStore[] = [];
  try {
    const make = (name: string, calls: Call[]) => {
      const path = join(dir, `${name}.db`);
      const seed = openArchive(path, { service: name });
      seed.put(calls);
      seed.close();
      const store = createConsoleStore(
        downApi(),
        { kind: 'remote', profile: name, baseUrl: `http://${name}`, archive: { path, service: name } },
        { routes: ROUTES },
      );
      stores.push(store);
      return store;
    };
    const now = Date.now();
    const a = make('a', [call('a1', 'Ada', now - 2000), call('a2', 'Bob', now - 1000)]);
    const b = make('b', [call('b1', 'Ada', now - 3000), call('b2', 'Cy', now - 2500)]);

    await a.getState().actions.loadCalls();
    await b.getState().actions.loadCalls();
    a.getState().actions.filterCalls('bob');
    assert.deepEqual(ids(a), ['a2']);
    assert.deepEqual(ids(b), ['b2', 'b1'], "a's scan is not b's");
    b.getState().actions.filterCalls('ada');
    assert.deepEqual(ids(b), ['b1']);
    assert.deepEqual(ids(a), ['a2'], "b's scan is not a's");
    // a's text again: its own scan is held (no new walk, the same rows).
    const held = a.getState().callLog.calls;
    a.getState().actions.filterCalls('bob');
    assert.equal(a.getState().callLog.calls, held);

    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      // Each store's flash has its own expiry: a's second flash replaces a's timer, not b's.
      b.getState().actions.flash('b says');
      a.getState().actions.flash('one');
      a.getState().actions.flash('two');
      mock.timers.tick(5000);
      assert.equal(a.getState().flash, null, "a's flash expired");
      assert.equal(b.getState().flash, null, "b's flash expired on its own timer");

      // dispose() stops a's timers and no other store's.
      a.getState().actions.flash('three');
      b.getState().actions.flash('b again');
      a.getState().actions.dispose();
      assert.equal(a.disposed, true);
      assert.equal(b.disposed, false);
      mock.timers.tick(5000);
      assert.equal(a.getState().flash?.text, 'three', "a's expiry was stopped by its dispose");
      assert.equal(b.getState().flash, null, "b's expiry still runs");
    } finally {
      mock.timers.reset();
    }
    // b still reads its archive and walks it (a's dispose closed only a's connections and scan).
    b.getState().actions.filterCalls('cy');
    assert.deepEqual(ids(b), ['b2']);
    b.getState().actions.filterCalls('');
    assert.deepEqual(ids(b), ['b2', 'b1']);
  } finally {
    for (const s of stores) s.getState().actions.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
