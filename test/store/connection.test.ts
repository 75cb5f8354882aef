// The header's connection state is the transport's: each request the client makes (through the
// store or not) moves it, from how the request ended on the wire. Against a real sandbox.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, sandboxForFile } from '../support/sandbox.js';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import type { Connection, SandboxEvent } from '../../src/target.js';
import { createConsoleStore, type ConsoleStore, type Route } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

const sb = sandboxForFile();
const open: { api: VoiceAgentApi; store: ConsoleStore }[] = [];
after(async () => {
  for (const o of open) {
    o.store.getState().actions.dispose();
    await o.api.close();
  }
});

function consoleOn(baseUrl: string, apiKey: string, route: Route = { name: 'files' }) {
  // No retries: a refused connection is reported at once.
  const api = createClient({ baseUrl, apiKey, retries: 0 });
  const store = createConsoleStore(api, { kind: 'remote', profile: 'test', baseUrl }, { routes: ROUTES, initialRoute: route });
  open.push({ api, store });
  return { api, store, state: () => store.getState().connectionState };
}

test('connecting until the first answer, then online', async () => {
  const c = consoleOn(sb.url, sb.apiKey);
  assert.equal(c.state(), 'connecting');
  await until(() => c.state() === 'online');
});

test('requests made outside the store move it too: it listens to the transport', async () => {
  const help: Route = { name: 'help' }; // a screen that loads nothing
  const right = consoleOn(sb.url, sb.apiKey, help);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(right.state(), 'connecting', 'nothing asked yet');
  await right.api.listPhoneNumbers();
  assert.equal(right.state(), 'online');
  const wrong = consoleOn(sb.url, 'sk-wrong-key-000000000000', help);
  await assert.rejects(wrong.api.listPhoneNumbers());
  assert.equal(wrong.state(), 'unauthorized');
});

test('a wrong key: unauthorized', async () => {
  const c = consoleOn(sb.url, 'sk-not-the-key-1234567890');
  await until(() => c.state() === 'unauthorized');
  await assert.rejects(c.api.listAssistants());
  assert.equal(c.state(), 'unauthorized');
});

test('a stopped sandbox: offline', async () => {
  const gone = await startTestSandbox();
  const c = consoleOn(gone.url, gone.apiKey);
  try {
    await until(() => c.state() === 'online');
  } finally {
    await gone.close();
  }
  await c.store.getState().actions.loadFiles({ force: true });
  assert.equal(c.state(), 'offline');
  assert.equal(c.store.getState().files.status, 'error');
});

test('input refused before anything is sent says nothing about the service', async () => {
  const c = consoleOn(sb.url, sb.apiKey);
  await until(() => c.state() === 'online');
  await c.store.getState().actions.loadAssistant(''); // "a assistant id is needed": never sent
  assert.equal(c.state(), 'online');
  await assert.rejects(c.api.getFile(' '));
  assert.equal(c.state(), 'online');
});

test('the embedded sandbox restarted elsewhere: the header says restarting, then the console follows the new client and is back online by itself', async () => {
  const { ApiOnceConnected } = await import('../../src/target.js');
  const other = await startTestSandbox();
  const first = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, retries: 0 });
  const second = createClient({ baseUrl: other.url, apiKey: other.apiKey, retries: 0 });
  const told = { sandbox: [] as ((e: SandboxEvent) => void)[], api: [] as ((a: VoiceAgentApi) => void)[] };
  const conn: Connection = {
    api: first,
    target: { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, apiKey: sb.apiKey } as Connection['target'],
    close: async () => undefined,
    onSandbox: (l) => (told.sandbox.push(l), () => undefined),
    onApiReplaced: (l) => (told.api.push(l), () => undefined),
  };
  const api = new ApiOnceConnected(Promise.resolve(conn));
  const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: sb.url };
  const store = createConsoleStore(api, target, { routes: ROUTES, initialRoute: { name: 'assistants' }, pollMs: 3_600_000 });
  try {
    await until(() => store.getState().connectionState === 'online' && store.getState().assistants.status === 'ready');
    told.sandbox.forEach((l) => l({ kind: 'stopped', why: 'killed by SIGKILL' }));
    assert.equal(store.getState().connectionState, 'restarting', 'not "offline": the console is on it');
    told.api.forEach((l) => l(second));
    const named = (await second.createAssistant({ name: 'Only on the new port' })).record!;
    told.sandbox.forEach((l) => l({ kind: 'restarted', ms: 300, url: other.url }));
    // Asked again at once (no tick: the poll interval is an hour), from the new client.
    await until(() => store.getState().assistants.data?.some((a) => a.id === named.id) === true, 'the list from the restarted sandbox');
    assert.equal(store.getState().connectionState, 'online');
    assert.equal(api.baseUrl, other.url);
  } finally {
    store.getState().actions.dispose();
    await first.close();
    await second.close();
    await other.close();
  }
});
