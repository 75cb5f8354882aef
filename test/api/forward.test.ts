// The console's api while it connects (src/target.ts ApiOnceConnected, over src/api/forward.ts):
// every request of the real client is forwarded once connected, with its arguments and answer,
// though none is written out in the stand-in (a method added to the client is forwarded as it
// is); what the stand-in holds itself (its state, its traits) works through the proxy; it is not
// taken for a promise; a failed connection fails each request with its error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { createClient } from '../../src/api/client.js';
import { ApiOnceConnected, type Connection } from '../../src/target.js';

/** A connected api that answers each request with its name and arguments. */
function echoApi(): VoiceAgentApi {
  const own = { baseUrl: 'http://echo.invalid', connectionState: 'online', traits: {}, onConnectionState: () => () => {}, learned: [] as unknown[] };
  return new Proxy(own, {
    get: (t, k) =>
      k in t || k === 'then'
        ? t[k as keyof typeof t]
        : k === 'learn'
          ? (p: unknown) => t.learned.push(p)
          : (...a: unknown[]) => Promise.resolve({ name: k, args: a }),
  }) as unknown as VoiceAgentApi;
}

const connection = (api: VoiceAgentApi): Connection => ({ api, target: { kind: 'remote' } as never, close: async () => {} });

test('every request of the client is forwarded once connected, with its arguments and its answer', async () => {
  // The client's own methods, read at run time: one added to it is checked here without an edit.
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-test' });
  const own = new Set(['onConnectionState', 'learn', 'close']);
  const requests = Object.keys(client).filter((k) => typeof (client as unknown as Record<string, unknown>)[k] === 'function' && !own.has(k));
  await client.close();
  assert.ok(requests.length >= 15, requests.join(' '));

  let connect!: (c: Connection) => void;
  const api = new ApiOnceConnected(new Promise<Connection>((r) => (connect = r)));
  assert.equal(api.connectionState, 'connecting');
  assert.equal(api.baseUrl, '');
  const asked = requests.map((name) => (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]('x', { n: 1 }));
  connect(connection(echoApi()));
  const answers = await Promise.all(asked);
  assert.deepEqual(
    answers,
    requests.map((name) => ({ name, args: ['x', { n: 1 }] })),
  );
  assert.equal(api.baseUrl, 'http://echo.invalid');
  assert.equal(api.connectionState, 'online');
  assert.equal(api.listCalls, api.listCalls, 'the same function each time');
});

test('the stand-in is not a promise, and what it holds itself works through its proxy', async () => {
  let connect!: (c: Connection) => void;
  const api = new ApiOnceConnected(new Promise<Connection>((r) => (connect = r)));
  assert.equal((api as unknown as { then?: unknown }).then, undefined);
  assert.equal(await Promise.resolve(api), api, 'awaited, it is itself');
  const states: string[] = [];
  api.onConnectionState((s) => states.push(s));
  api.learn({ filesPageCap: 5 });
  assert.deepEqual(api.traits, {});
  const echo = echoApi();
  connect(connection(echo));
  await api.close();
  assert.deepEqual(states, ['online']);
  assert.deepEqual((echo as unknown as { learned: unknown[] }).learned, [{ filesPageCap: 5 }], 'learnt before it connected, passed on');
});

test('a connection that failed fails each request with its error', async () => {
  const api = new ApiOnceConnected(Promise.reject(new Error('the sandbox did not start')));
  await assert.rejects(api.listAssistants(), /the sandbox did not start/);
  await assert.rejects(api.getCall('c1'), /the sandbox did not start/);
  assert.equal(api.connectionState, 'offline');
  await api.close(); // nothing to close
});
