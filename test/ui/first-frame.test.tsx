// The frame drawn before Ink has loaded (src/ui/start.ts chromeFrame) must be the app's own first
// frame's chrome: same header, breadcrumbs and key hints, on the same rows, so the hand-over to Ink
// shows nothing jump. Both come from src/ui/chrome-text.ts; this test fails if either side stops
// using it. Where the body goes it has the route's loading line alone: bodies are Ink's to draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { createConsoleStore, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { chromeFrame } from '../../src/ui/start.js';
import { ApiOnceConnected } from '../../src/target.js';
import { renderApp } from '../support/ink.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCachedList } from '../../src/config/cached-lists.js';
import { openArchive } from '../../src/archive/index.js';
import { createClient } from '../../src/api/client.js';
import { startTestSandbox } from '../support/sandbox.js';
import { ROUTES, loadingLine } from '../../src/ui/screens/routes.js';

/** Still connecting: every request waits (the console's state while the sandbox starts). */
const connecting = new ApiOnceConnected(new Promise(() => undefined));

/** Row number → text, from the cursor-addressed frame. */
function rowsOf(frame: string): Map<number, string> {
  const rows = new Map<number, string>();
  for (const m of frame.matchAll(/\x1b\[(\d+);1H([^\x1b]*)/g)) rows.set(Number(m[1]), m[2]);
  return rows;
}

for (const route of [{ name: 'assistants' }, { name: 'chat' }, { name: 'calls' }] as Route[]) {
  test(`the early frame is the app's chrome on the ${route.name} screen`, async () => {
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: 'starting…' };
    const store = createConsoleStore(connecting, target, { routes: ROUTES, initialRoute: route });
    const app = await renderApp(createElement(App, { store }));
    try {
      const { columns, rows } = store.getState();
      const ink = app.frame().split('\n');
      assert.equal(ink.length, rows, 'the app fills the terminal');
      const early = rowsOf(chromeFrame(target, route, columns, rows, false));
      assert.deepEqual([...early.keys()], [1, 2, 3, rows]);
      assert.equal(early.get(3), loadingLine(route), "the route's loading line, where its body goes");
      assert.equal(early.get(1), ink[0].trimEnd(), 'header');
      assert.match(early.get(1)!, /^Switchboard │ sandbox starting… │ profile sandbox │ ○ connecting$/);
      assert.equal(early.get(2), ink[1].trimEnd(), 'breadcrumbs');
      assert.equal(early.get(rows), ink[rows - 1].trimEnd(), 'key hints');
      assert.ok(early.get(rows)!.length > 20, 'the key hints are there');
    } finally {
      app.unmount();
      store.getState().actions.dispose();
    }
  });
}

test('the early frame is colored only when asked, and never wider than the terminal', () => {
  const target = { kind: 'remote' as const, profile: 'production-with-a-long-name', baseUrl: 'https://api.example.com/some/long/path', maskedKey: 'sk-…c0de' };
  const plain = chromeFrame(target, { name: 'assistants' }, 40, 12, false);
  assert.doesNotMatch(plain.replace(/\x1b\[[\d;?]*[HJlh]/g, ''), /\x1b/, 'no color codes');
  for (const text of rowsOf(plain).values()) assert.ok([...text].length <= 40, `fits 40 columns: ${text}`);
  assert.match(chromeFrame(target, { name: 'assistants' }, 40, 12, true), /\x1b\[37;44m/);
});

// A started console shows the lists' last-known rows at Ink's first frame, marked cached; the
// frame before Ink has the loading line where they go, and none of them (one renderer draws bodies).
for (const route of [{ name: 'assistants' }, { name: 'numbers' }, { name: 'files' }] as Route[]) {
  test(`Ink's first frame shows the cached ${route.name} rows, marked cached; the early frame only its loading line`, async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
    const savedAt = Date.now() - 3 * 60_000;
    await writeCachedList(
      cacheDir,
      'sandbox',
      'sandbox:starting…',
      'assistants',
      [
        { id: 'a-1', name: 'Cached Concierge', status: true, model: { provider: 'openai', model: 'gpt-4o' } },
        { id: 'a-2', name: 'Cached Booker' },
      ],
      savedAt,
    );
    await writeCachedList(
      cacheDir,
      'sandbox',
      'sandbox:starting…',
      'numbers',
      [{ id: 'n-1', did: '+14155550123', provider: 'twilio', assistantId: 'a-2' }],
      savedAt,
    );
    await writeCachedList(
      cacheDir,
      'sandbox',
      'sandbox:starting…',
      'files',
      { files: [{ id: 'f-1', name: 'cached-faq.md', bytes: 2048 }], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } },
      savedAt,
    );
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: 'starting…', cacheDir };
    const store = createConsoleStore(connecting, target, { routes: ROUTES, initialRoute: route });
    const app = await renderApp(createElement(App, { store }));
    try {
      const { columns, rows } = store.getState();
      const ink = app.frame().split('\n');
      const early = rowsOf(chromeFrame(target, route, columns, rows, false));
      const expected = { assistants: 'Cached Concierge', numbers: '+14155550123', files: 'cached-faq.md' }[route.name as 'assistants'];
      assert.ok(
        ink.some((text) => text.includes(expected)),
        `Ink's first frame shows ${expected}:\n${ink.join('\n')}`,
      );
      assert.match(ink[2], /cached from 3 min ago · refreshing…/);
      assert.deepEqual([...early.keys()], [1, 2, 3, rows], 'the early frame has no body rows');
      assert.ok(![...early.values()].some((text) => text.includes(expected)), 'the early frame draws no cached row');
      if (route.name === 'numbers') assert.match(app.frame(), /Cached Booker/, "the linked assistant's cached name");
    } finally {
      app.unmount();
      store.getState().actions.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
}

test('no cache dir, or an unreadable cache file: no cached rows and no error', async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
  try {
    mkdirSync(join(cacheDir, 'lists', 'sandbox'), { recursive: true });
    writeFileSync(join(cacheDir, 'lists', 'sandbox', 'assistants.json'), '{"savedAt": 1, "rows": [');
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: 'starting…', cacheDir };
    assert.deepEqual([...rowsOf(chromeFrame(target, { name: 'assistants' }, 80, 24, false)).keys()], [1, 2, 3, 24]);
    const store = createConsoleStore(connecting, target, { routes: ROUTES });
    assert.equal(store.getState().assistants.data, undefined);
    store.getState().actions.dispose();
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

// Opened on the call log (`switchboard calls`), Ink's first frame shows the archive's newest calls
// (the store reads its window from the archive as it is made); the frame before Ink reads no archive.
test("opened on the call log, Ink's first frame shows the archive's rows; the early frame none", async () => {
  const sb = await startTestSandbox();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const path = join(dir, 'archive', 'sandbox.db');
    const service = 'sandbox:test';
    const archive = openArchive(path, { service });
    await archive.sync(api);
    archive.close();
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: 'starting…', cacheDir: dir, archive: { path, service } };
    const store = createConsoleStore(connecting, target, { routes: ROUTES, initialRoute: { name: 'calls' } });
    const app = await renderApp(createElement(App, { store }));
    try {
      const { columns, rows } = store.getState();
      const newest = store.getState().callLog.calls[0];
      assert.ok(newest, 'the archive holds the sandbox calls');
      assert.ok(app.frame().includes(newest.customer?.number ?? '?'), `the newest call is on Ink's first frame:\n${app.frame()}`);
      const early = rowsOf(chromeFrame(target, { name: 'calls' }, columns, rows, false));
      assert.deepEqual([...early.keys()], [1, 2, 3, rows]);
      assert.equal(early.get(3), 'Loading the call log…');
    } finally {
      app.unmount();
      store.getState().actions.dispose();
    }
  } finally {
    await api.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
