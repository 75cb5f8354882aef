// The lists open with their last-known rows (src/config/cached-lists.ts via the store), marked cached
// until the service answers; the service's answer replaces them and becomes the next start's cache.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { createConsoleStore } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { ApiOnceConnected } from '../../src/target.js';
import { createClient } from '../../src/api/client.js';
import { cachedListPath, readCachedList } from '../../src/config/cached-lists.js';
import { renderApp } from '../support/ink.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

const sb = sandboxForFile();
let cacheDir: string;
before(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
});
after(async () => {
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a second start shows the rows the first one got, marked cached, until the service answers', async () => {
  const first = await openConsole(sb, { cacheDir });
  let names: string[];
  try {
    const frame = await first.waitFor(/\d+ assistants/);
    assert.doesNotMatch(frame, /cached/, 'rows from the service are not marked cached');
    names = (first.store.getState().assistants.data ?? []).map((a) => a.name ?? a.id);
    assert.ok(names.length > 0);
    // Written after the answer, in the background.
    for (let i = 0; i < 100 && !readCachedList(cacheDir, 'sandbox', `sandbox:${sb.url}`, 'assistants'); i++) await new Promise((r) => setTimeout(r, 10));
  } finally {
    await first.close();
  }
  assert.equal(statSync(cachedListPath(cacheDir, 'sandbox', 'assistants')).mode & 0o777, 0o600);
  assert.equal(statSync(join(cacheDir, 'lists', 'sandbox')).mode & 0o777, 0o700);

  // The service is slow to come up: the cached rows are on screen at the first frame.
  let connect!: (api: ReturnType<typeof createClient>) => void;
  const connecting = new Promise<ReturnType<typeof createClient>>((r) => (connect = r));
  const api = new ApiOnceConnected(
    connecting.then((client) => ({ api: client, target: { kind: 'sandbox', profile: 'sandbox' } as never, close: () => client.close() })),
  );
  const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir }, { routes: ROUTES });
  const app = await renderApp(createElement(App, { store }));
  const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const frame = app.frame();
    assert.match(frame, /cached from \d+ s ago · refreshing…/);
    assert.ok(frame.includes(names[0].slice(0, 12)), `cached rows at the first frame:\n${frame}`);
    connect(client);
    const fresh = await app.waitFor(/\d+ assistants · \d+\/\d+\s*$/m);
    assert.doesNotMatch(fresh, /cached/, 'the mark goes once the service has answered');
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await client.close();
  }
});

test('when the service cannot be reached, the cached rows stay, saying why they were not refreshed', async () => {
  const c = await openConsole(sb, { cacheDir, apiKey: 'sk-wrong-key-0000' });
  try {
    const frame = await c.waitFor(/could not refresh/);
    assert.match(frame, /cached from .* · could not refresh: /);
    assert.ok((c.store.getState().assistants.data ?? []).length > 0, 'the cached rows are still shown');
  } finally {
    await c.close();
  }
});

test("another service under the same profile name does not show the first one's rows as cached", async () => {
  // SWITCHBOARD_BASE_URL pointed the profile elsewhere: nothing cached for that service, and a
  // wrong key there, so nothing is shown at all.
  const c = await openConsole(sb, { cacheDir, apiKey: 'sk-wrong-key-0000', target: { service: 'remote:http://elsewhere.test' } });
  try {
    const frame = await c.waitFor(/refused|401/);
    assert.doesNotMatch(frame, /cached from/);
    assert.equal(c.store.getState().assistants.data, undefined, 'no rows of the other service');
  } finally {
    await c.close();
  }
});

test('an edit made here is written to the cache: the next start shows the edited value, not the one from before', async () => {
  const first = await openConsole(sb, { cacheDir });
  let id: string;
  let fetchedAt: number | undefined;
  try {
    await first.waitFor(/\d+ assistants · \d+\/\d+\s*$/m);
    const before = first.store.getState().assistants;
    fetchedAt = before.fetchedAt;
    id = before.data![0]!.id;
    for (let i = 0; i < 100 && readCachedList(cacheDir, 'sandbox', `sandbox:${sb.url}`, 'assistants')?.savedAt !== fetchedAt; i++)
      await new Promise((r) => setTimeout(r, 10));
    const saved = await first.store.getState().actions.updateAssistant(id, { name: 'Renamed in the console' });
    assert.ok(saved && saved !== 'saved', 'the service took the edit');
  } finally {
    await first.close();
  }
  const kept = readCachedList<{ id: string; name?: string }[]>(cacheDir, 'sandbox', `sandbox:${sb.url}`, 'assistants');
  assert.equal(kept?.rows.find((a) => a.id === id)?.name, 'Renamed in the console', 'the cached row is the edited one');
  assert.equal(kept?.savedAt, fetchedAt, 'saved as of when the list was fetched: the cached mark says how old the other rows are');

  // The next start, its service not answering yet: the edited value, marked cached.
  const api = new ApiOnceConnected(new Promise(() => undefined));
  const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir }, { routes: ROUTES });
  const app = await renderApp(createElement(App, { store }));
  try {
    const frame = app.frame();
    assert.match(frame, /cached from .* · refreshing…/);
    assert.ok(frame.includes('Renamed in the'), `the edited name at the first frame:\n${frame}`);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
  }
});

test("an assistant's page drawn from the cached list says it is cached until its record lands", async () => {
  const kept = readCachedList<{ id: string; name?: string }[]>(cacheDir, 'sandbox', `sandbox:${sb.url}`, 'assistants');
  const row = kept!.rows[0]!;
  const api = new ApiOnceConnected(new Promise(() => undefined));
  const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir }, { routes: ROUTES });
  const app = await renderApp(createElement(App, { store }));
  try {
    store.getState().actions.push({ name: 'assistant', id: row.id });
    const frame = await app.waitFor('System prompt');
    assert.ok(frame.includes((row.name ?? row.id).slice(0, 12)), `the cached row's fields:\n${frame}`);
    assert.match(frame, /cached from .* · refreshing…/, `the cached mark on the page:\n${frame}`);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
  }
});
