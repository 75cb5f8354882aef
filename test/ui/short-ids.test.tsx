// Short ids (src/format/short-id.ts): what a list shows of an id is unique among that list, and
// typed back in the palette it opens exactly that record — time-ordered call ids (UUIDv7, whose
// start is the time) included, and chat sessions too (`:chat <short id>`).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { KEYS, renderApp } from '../support/ink.js';
import { until } from '../support/wait.js';
import { sandboxForFile } from '../support/sandbox.js';
import { createMemoryApi } from '../support/memory-api.js';
import { openConsole } from './support.js';
import { createClient } from '../../src/api/client.js';
import { rememberSession } from '../../src/config/sessions.js';
import { createConsoleStore } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { ROUTES } from '../../src/ui/screens/routes.js';
import { matchRecords, shortIdLength, shortIdOf } from '../../src/format/short-id.js';

/** The ID cell of each call row on screen: the word after the CREATED time. */
function shownCallIds(frame: string): string[] {
  return frame
    .split('\n')
    .map((l) => /^\W*\d{4}-\d\d-\d\d \d\d:\d\d\s+(\S+)/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
}

describe('short ids in the call log', () => {
  const sb = createMemoryApi();
  // Calls placed within a minute: their UUIDv7s start with the same 8 characters (the time).
  const start = sb.records.calls[0].id.slice(0, 8);
  for (const call of sb.records.calls.slice(0, 10)) call.id = start + call.id.slice(8);

  test('at 80 columns no two call rows show the same id, and each shown id opens its own call', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      c.store.getState().actions.resize(80, 24);
      await c.waitFor(/\bDUR\b/);
      await until(() => !c.store.getState().archiveSync.running, 'the first sync');
      await until(() => shownCallIds(c.frame()).length >= 5, 'call rows');
      const shown = shownCallIds(c.frame());
      const held = c.store.getState().callLog.calls;
      assert.ok(
        held.slice(0, 10).every((x) => x.id.startsWith(start)),
        'the newest rows share their id start',
      );
      assert.equal(new Set(shown).size, shown.length, `every row shows its own id:\n${c.frame()}`);
      for (const [i, text] of shown.slice(0, 3).entries()) {
        assert.ok(held[i].id.includes(text), `row ${i} shows part of its id: ${text}`);
        await c.press(':');
        await c.type(`calls ${text}`);
        await c.press(KEYS.enter);
        await until(() => c.store.getState().stack.at(-1)?.name === 'call', `:calls ${text} opens a call`);
        assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: held[i].id }, `:calls ${text}`);
        await c.press(KEYS.escape);
        await until(() => c.store.getState().stack.at(-1)?.name === 'calls', 'back on the log');
      }
    } finally {
      await c.close();
    }
  });
});

describe('the short-id rule', () => {
  test('one length per list, from 8 up until every id ends differently; each short id names its record alone', () => {
    const t = '0190a1b2-c3d4-7';
    const ids = [`${t}000-8000-aaa112345678`, `${t}001-8000-aaa212345678`, `${t}002-8000-aaa3abcdef12`, 'x1abcd'];
    const n = shortIdLength(ids);
    assert.equal(n, 9, 'two ids share their last 8 characters');
    const records = ids.map((id) => ({ id }));
    for (const id of ids) assert.deepEqual(matchRecords(shortIdOf(id, n), records).records, [{ id }], shortIdOf(id, n));
    assert.equal(shortIdOf('x1abcd', n), 'x1abcd', 'an id shorter than the length is shown whole');
    assert.deepEqual(
      matchRecords('0190a1b2', records).records.map((r) => r.id),
      ids.slice(0, 3),
      'the start of an id still finds those it starts',
    );
    assert.deepEqual(matchRecords('…abcdef12', records).records, [{ id: ids[2] }], 'a short id copied with its ellipsis');
  });
});

describe(':chat with a short id', () => {
  const sb = sandboxForFile();

  /** The conversation `id` opens and loads, with no "no chat session" on screen. */
  async function opensSession(store: ReturnType<typeof createConsoleStore>, app: Awaited<ReturnType<typeof renderApp>>, id: string) {
    await until(() => store.getState().stack.at(-1)?.name === 'chat-session', 'the conversation opens');
    assert.deepEqual(store.getState().stack.at(-1), { name: 'chat-session', sessionId: id });
    await until(() => store.getState().chat.conversations[id]?.status === 'ready', 'the session loads');
    assert.doesNotMatch(app.frame(), /no chat session/);
  }

  test('o and the short id the sessions list shows open that session, not a 404', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-short-'));
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, retries: 0 });
    const [assistant] = await api.listAssistants();
    const session = (await api.createSession({ assistantId: assistant.id, name: 'by its short id' })).record!;
    rememberSession('sandbox', { id: session.id, name: 'by its short id', assistantId: assistant.id, createdAt: session.createdAt ?? undefined }, dataDir);
    const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, dataDir }, { routes: ROUTES });
    const app = await renderApp(createElement(App, { store }));
    try {
      await app.waitFor('NAME');
      const short = shortIdOf(session.id);
      await app.press('4');
      await app.waitFor(short);
      await app.press('o');
      await app.waitFor('Session id:');
      await app.type(short);
      await app.press(KEYS.enter);
      await opensSession(store, app, session.id);
    } finally {
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('`:chat <the short id the sessions list shows>` opens that session, not a 404', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-short-'));
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, retries: 0 });
    const [assistant] = await api.listAssistants();
    const ids: string[] = [];
    for (const name of ['first', 'second']) {
      const session = (await api.createSession({ assistantId: assistant.id, name })).record!;
      rememberSession('sandbox', { id: session.id, name, assistantId: assistant.id, createdAt: session.createdAt ?? undefined }, dataDir);
      ids.push(session.id);
    }
    const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, dataDir }, { routes: ROUTES });
    const app = await renderApp(createElement(App, { store }));
    try {
      await app.waitFor('NAME');
      const short = shortIdOf(ids[1]);
      await app.press('4');
      await app.waitFor(short);
      await app.press(':');
      await app.type(`chat ${short}`);
      await app.press(KEYS.enter);
      await opensSession(store, app, ids[1]);
    } finally {
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
