// What a store's actions hold between calls (the `/` scan, the flash's timer, the sync's stop) is
// its own: on `store.runtime`, never shared with another store made in the same process, and
// released by dispose() without touching the other store. No service: every request fails at once.
import { test } from 'node:test';
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

/** The text of a store's `/` scan, if one is held. */
const scanText = (s: ConsoleStore) => s.runtime.callScan?.text;

const call = (id: string, name: string, ms: number): Call =>
  ({ id, createdAt: new Date(ms).toISOString(), status: 'ended', customer: { number: '+14155550100', name } }) as Call;

test('two stores hold their own runtime: a scan, a flash and a dispose in one leave the other as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-runtime-'));
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
    const b = make('b', [call('b1', 'Ada', now - 3000)]);
    assert.notEqual(a.runtime, b.runtime);

    await a.getState().actions.loadCalls();
    await b.getState().actions.loadCalls();
    a.getState().actions.filterCalls('bob');
    assert.equal(scanText(a), 'bob');
    assert.equal(scanText(b), undefined, "a's scan is not b's");
    assert.deepEqual(
      a.getState().callLog.calls.map((c) => c.id),
      ['a2'],
    );
    assert.deepEqual(
      b.getState().callLog.calls.map((c) => c.id),
      ['b1'],
    );

    b.getState().actions.filterCalls('ada');
    assert.equal(scanText(b), 'ada');
    assert.equal(scanText(a), 'bob');

    const seq = b.runtime.flash.seq;
    a.getState().actions.flash('one');
    a.getState().actions.flash('two');
    assert.ok(a.runtime.flash.timer, 'a flash has its expiry');
    assert.equal(b.runtime.flash.seq, seq, "a's flashes are not counted by b");

    a.getState().actions.dispose();
    assert.equal(a.runtime.disposed, true);
    assert.equal(a.runtime.callScan, undefined);
    assert.equal(a.runtime.flash.timer, undefined);
    assert.equal(a.runtime.sync.stop.signal.aborted, true);
    assert.equal(b.runtime.disposed, false);
    assert.equal(b.runtime.sync.stop.signal.aborted, false, "disposing a does not stop b's sync");
    assert.equal(scanText(b), 'ada');
    // b still reads its archive (a's dispose closed only a's connections).
    b.getState().actions.filterCalls('');
    assert.deepEqual(
      b.getState().callLog.calls.map((c) => c.id),
      ['b1'],
    );
  } finally {
    for (const s of stores) s.getState().actions.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
