// The console's write actions against a service that answers in other forms: a 2xx is reported
// as done whatever its body, and a create whose fate is unknown is sent again only when asked to.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/index.js';
import { drain, json, startServer, type TestServer } from '../api/servers.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

let server: TestServer;
let api: VoiceAgentApi;
let store: ConsoleStore;
const assistant = { id: 'a1', name: 'Front desk', createdAt: '2026-11-01T00:00:00.000Z' };
const number = { id: 'p1', did: '+14155550100', assistantId: null };
/** How POST and PATCH are answered; GETs answer the lists. null: never (a timeout). */
let write: ((res: ServerResponse) => void) | null = null;

setUpAndTearDown(
  async () => {
    server = await startServer(async (req, res) => {
      await drain(req);
      if (req.method === 'GET') {
        if (req.url?.startsWith('/assistants/')) return json(res, 200, assistant);
        if (req.url?.startsWith('/assistants')) return json(res, 200, [assistant]);
        if (req.url?.startsWith('/phone-numbers')) return json(res, 200, [number]);
        return json(res, 200, []);
      }
      write?.(res);
    });
    api = createClient({ baseUrl: server.url, apiKey: 'sk-test-store-writes', timeouts: { headersMs: 300 } });
    store = createConsoleStore(api, { kind: 'remote', profile: 'hosted', baseUrl: server.url }, { routes: ROUTES, pollMs: 3_600_000 });
  },
  async () => {
    store.getState().actions.dispose();
    await api.close();
    await server.close();
  },
);

const posts = () => server.requests.filter((r) => r.method === 'POST').length;

test("number link answered 200 text/plain: done, with the service's words", async () => {
  write = (res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('Inbound agent configured successfully');
  assert.equal(await store.getState().actions.linkNumber('p1', 'a1'), true);
  assert.deepEqual(store.getState().flash && { kind: store.getState().flash!.kind, text: store.getState().flash!.text }, {
    kind: 'info',
    text: 'Inbound agent configured successfully',
  });
});

test('an edit answered { message, data } is saved; one answered in text/plain is saved and re-read', async () => {
  write = (res) => json(res, 200, { message: 'Assistant updated successfully', data: { ...assistant, name: 'Renamed' } });
  const saved = await store.getState().actions.updateAssistant('a1', { description: 'x' });
  assert.ok(saved && saved !== 'saved');
  assert.equal(store.getState().flash!.kind, 'info');
  write = (res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('Updated');
  assert.ok(await store.getState().actions.updateAssistant('a1', { description: 'y' }));
  assert.equal(store.getState().flash!.kind, 'info');
  assert.match(store.getState().flash!.text, /^Saved assistant Front desk/);
});

test('a create that times out is not sent again without being asked; with again it is, once', async () => {
  write = null;
  const before = posts();
  assert.equal(await store.getState().actions.createAssistant({ name: 'New desk' }), null);
  assert.match(
    store.getState().flash!.text,
    /^The assistant may have been created: .*may have happened anyway: look for "New desk" in `switchboard assistants list`/,
  );
  assert.ok(store.getState().createAttempt);
  assert.equal(await store.getState().actions.createAssistant({ name: 'New desk' }), null);
  assert.equal(posts(), before + 1, 'refused without again');
  write = (res) => json(res, 201, { message: 'Assistant created successfully' });
  // Accepted with no record: the newest 'Front desk' is not 'New desk', so it is created but not shown.
  assert.equal(await store.getState().actions.createAssistant({ name: 'New desk' }, { again: true }), 'created');
  assert.equal(posts(), before + 2);
  assert.equal(store.getState().flash!.kind, 'info');
  assert.match(store.getState().flash!.text, /^Created; its answer \(201: "Assistant created successfully"\)/);
  // The record was looked up by name when it can be found.
  // That one too left its result open (created, not shown): the next is refused without again.
  assert.equal(await store.getState().actions.createAssistant({ name: 'Front desk' }), null);
  const found = await store.getState().actions.createAssistant({ name: 'Front desk' }, { again: true });
  assert.ok(found && found !== 'created', 'accepted, and found by its name');
  assert.equal(store.getState().createAttempt, null, 'found: nothing left open');
  assert.equal(found.id, 'a1');
  assert.match(store.getState().flash!.text, /^Created assistant Front desk \(found as the newest assistant named "Front desk"/);
});
