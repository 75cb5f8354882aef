// Keys in: several keys in one read are each dispatched in order, and a bracketed paste is text
// for the focused input, never commands for a list.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement, useState } from 'react';
import { Text } from 'ink';
import { KeypressProvider, Priority, useKeypress } from '../../src/ui/hooks/keypress.js';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, routeKey, topRoute, viewOf } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { KEYS, renderApp, tick } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole, startTestSandbox, PROMPT_AND_NAME, renderForm } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

describe('Keys in', () => {
  const sb = sandboxForFile();

  test('one write of jjjjj on the call log moves the highlight 5 rows, then kk 2 back', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      assert.ok(c.store.getState().callLog.calls.length > 6, 'the seed has enough calls');
      const cursor = () => viewOf(c.store.getState(), routeKey(topRoute(c.store.getState()))).cursor;
      assert.equal(cursor(), 0);
      c.stdin.write('jjjjj');
      await tick();
      assert.equal(cursor(), 5);
      // Mixed arrows and letters in one read.
      c.stdin.write(KEYS.up + KEYS.up + KEYS.down + 'k');
      await tick();
      assert.equal(cursor(), 3);
    } finally {
      await c.close();
    }
  });

  test(':calls and Enter in one write open Calls', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME'); // keys typed while the list loads wait for it (type-ahead)
      c.stdin.write(':calls\r');
      await tick();
      assert.equal(topRoute(c.store.getState()).name, 'calls');
      assert.equal(c.store.getState().mode, 'normal');
    } finally {
      await c.close();
    }
  });

  test('ten Backspaces in one write delete ten characters in an input', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('Assistants');
      await c.press('/');
      c.stdin.write('abcdefghijklmnop');
      await tick();
      assert.equal(viewOf(c.store.getState(), 'assistants').filter, 'abcdefghijklmnop');
      c.stdin.write(KEYS.backspace.repeat(10));
      await tick();
      assert.equal(viewOf(c.store.getState(), 'assistants').filter, 'abcdef');
    } finally {
      await c.close();
    }
  });

  test('a paste goes whole into a single-line input, its lines joined', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('Assistants');
      await c.press('/');
      c.stdin.write(`${PASTE_START}sup\nport${PASTE_END}`);
      await tick();
      assert.equal(viewOf(c.store.getState(), 'assistants').filter, 'sup port');
      assert.equal(c.store.getState().mode, 'filter', 'the newline in the paste did not end the filter');
    } finally {
      await c.close();
    }
  });

  test('a paste split across reads is one paste', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('Assistants');
      await c.press('/');
      c.stdin.write(`${PASTE_START}jj`);
      await tick();
      c.stdin.write(`kk\rq${PASTE_END}`);
      await tick();
      assert.equal(viewOf(c.store.getState(), 'assistants').filter, 'jjkk q');
      assert.equal(topRoute(c.store.getState()).name, 'assistants');
    } finally {
      await c.close();
    }
  });

  test('a paste while a list has focus fires none of its letters and says it needs an input', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      const before = c.store.getState().stack.length;
      c.stdin.write(`${PASTE_START}jjj2q${PASTE_END}`);
      await tick();
      const s = c.store.getState();
      assert.equal(viewOf(s, routeKey(topRoute(s))).cursor, 0);
      assert.equal(topRoute(s).name, 'calls');
      assert.equal(s.stack.length, before);
      assert.equal(s.quitting, false);
      assert.match(s.flash?.text ?? '', /paste/i);
    } finally {
      await c.close();
    }
  });

  test('a multi-line paste keeps its lines in the chat draft', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, retries: 0 });
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-keys-'));
    const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, dataDir }, { routes: ROUTES });
    const c = await renderApp(createElement(App, { store }));
    try {
      await c.waitFor('NAME');
      await c.press('c');
      await until(() => topRoute(store.getState()).name === 'chat-session', 'a conversation');
      const id = (topRoute(store.getState()) as { sessionId: string }).sessionId;
      await until(() => store.getState().chat.conversations[id] !== undefined, 'the conversation');
      c.stdin.write(`${PASTE_START}first line\r\nsecond line${PASTE_END}`);
      await tick();
      assert.equal(store.getState().chat.conversations[id].draft, 'first line\nsecond line');
    } finally {
      c.unmount();
      store.getState().actions.dispose();
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test('a multi-line paste keeps its lines in the system prompt field; a paste in a one-line field is one line', async () => {
  const c = await renderForm(PROMPT_AND_NAME);
  c.stdin.write(`${PASTE_START}You are Ava.\r\n\tBe brief.${PASTE_END}`);
  await tick();
  await c.press(KEYS.tab);
  c.stdin.write(`${PASTE_START}Front\ndesk${PASTE_END}`);
  await tick();
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { p: 'You are Ava.\n\tBe brief.', n: 'Front desk' });
  c.unmount();
});

test('the dispatcher says when each key has been drawn: one write of jjj is three keys, each drawn before it is told', async () => {
  const events: string[] = [];
  function Counter() {
    const [n, setN] = useState(0);
    useKeypress(
      (input) => {
        if (input !== 'j') return false;
        events.push('key');
        setN((x) => x + 1);
        return true;
      },
      { priority: Priority.Screen },
    );
    return createElement(Text, null, `count ${n}`);
  }
  const app = await renderApp(
    createElement(KeypressProvider, { onForceQuit: () => {}, onKeyDrawn: () => events.push(`drawn ${app.lastFrame()}`), children: createElement(Counter) }),
  );
  app.stdin.write('jjj');
  await tick();
  assert.deepEqual(events, ['key', 'drawn count 1', 'key', 'drawn count 2', 'key', 'drawn count 3']);
  app.unmount();
});

test("the console's keys reach the store's key gaps (actions.keyHandled), one call per key", async () => {
  const sb = await startTestSandbox();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-keys-'));
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const store = createConsoleStore(
    api,
    { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url, cacheDir: dataDir },
    { routes: ROUTES, initialRoute: { name: 'calls' }, pollMs: 3_600_000 },
  );
  const { actions } = store.getState();
  const keyHandled = actions.keyHandled;
  let told = 0;
  actions.keyHandled = () => {
    told++;
    keyHandled();
  };
  const app = await renderApp(createElement(App, { store }));
  try {
    await until(() => app.lastFrame()?.includes('calls/day') ?? false, 'the call log');
    app.stdin.write('jjjj');
    await tick();
    app.stdin.write('k');
    await tick();
    assert.equal(told, 5);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await api.close();
    await sb.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
