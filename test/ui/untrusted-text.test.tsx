// Service text is data on every console screen: an assistant, a file, a session and chat
// messages whose names and texts carry ESC/CSI/OSC 52/OSC 8, BEL, BS, CR, C1 and newlines are
// shown escaped in titles, breadcrumbs, form values, chat author labels, the raw-JSON view and
// flashes and error states — no byte of those sequences reaches the terminal raw.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import { createClient } from '../../src/api/client.js';
import { rememberSession } from '../../src/config/sessions.js';
import { createConsoleStore, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { KEYS, renderApp } from '../support/ink.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

/** Every kind of control text a service could send: SGR, OSC 52 clipboard write, OSC 8 link, BS, CR, C1 CSI and NEL, a newline. */
export const HOSTILE = 'Evil\u001b[31mRED\u001b]52;c;cHduZWQ=\u0007\u001b]8;;http://x.test\u001b\\LINK\u001b]8;;\u001b\\B\bS\rC\u009b2JN\u0085L\nX';
/** Pieces of HOSTILE that must never reach the terminal raw. */
export const RAW: RegExp[] = [/\u001b\[31mRED/, /\u001b\]52/, /\u001b\]8;/, /\u0007/, /\u0008/, /S\rC/, /[\u0080-\u009f]/];
export const rawIn = (text: string) => RAW.filter((re) => re.test(text)).map(String);

const sb = sandboxForFile();
let dir: string;
const ids = { assistant: '', file: '', session: '' };
before(async () => {
  await sb.started;
  dir = mkdtempSync(join(tmpdir(), 'sb-untrusted-'));
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const a = (
      await api.createAssistant({
        name: HOSTILE,
        firstMessage: HOSTILE,
        model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: HOSTILE }] },
      } as never)
    ).record!;
    ids.assistant = a.id;
    const path = join(dir, 'kb\u001b]52;c;eA==\u0007\u009b.txt');
    writeFileSync(path, 'hello');
    ids.file = (await api.uploadFile(path)).record!.id;
    const s = (await api.createSession({ assistantId: a.id, name: HOSTILE })).record!;
    ids.session = s.id;
    // The chat list shows the sessions this machine started: this one, in the test's own data dir.
    rememberSession('sandbox', { id: s.id, name: HOSTILE, assistantId: a.id }, dir);
    await api.sendChat({ sessionId: s.id, input: HOSTILE });
    const number = (await api.listPhoneNumbers())[0];
    await api.linkNumber({ phoneNumberId: number.id, assistantId: a.id });
    await api.placeOutboundCall({ assistantId: a.id, phoneNumberId: number.id, customer: { number: '+14155550123', name: HOSTILE } });
  } finally {
    await api.close();
  }
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
});

test('console: every screen shows hostile service text escaped (titles, breadcrumbs, forms, chat, raw JSON, flashes)', async () => {
  const routes: Route[] = [
    { name: 'assistants' },
    { name: 'assistant', id: ids.assistant },
    { name: 'assistant-edit', id: ids.assistant },
    { name: 'assistant-kb', id: ids.assistant },
    { name: 'numbers' },
    { name: 'calls' },
    { name: 'call-outbound', assistantId: ids.assistant },
    { name: 'files' },
    { name: 'file', id: ids.file },
    { name: 'chat' },
    { name: 'chat-new' },
    { name: 'chat-session', sessionId: ids.session },
    { name: 'json', title: HOSTILE, value: { name: HOSTILE } },
  ];
  for (const route of routes) {
    const c = await openConsole(sb, { initialRoute: route, target: { dataDir: dir } });
    try {
      await c.waitFor(route.name === 'chat' ? 'NAME' : /Evil|kb/);
      // Deeper views too: the raw-JSON view of the record and a breadcrumb over it.
      if (route.name === 'assistant' || route.name === 'files' || route.name === 'chat') {
        await c.press('y');
        await new Promise((r) => setTimeout(r, 50));
        await c.press(KEYS.escape);
      }
      c.store.getState().actions.flash(HOSTILE, 'error');
      await new Promise((r) => setTimeout(r, 30));
      const all = c.frames.join('');
      assert.deepEqual(rawIn(all), [], `${route.name}: raw control text on screen:\n${c.frame()}`);
      // One-line places (header, breadcrumbs, flash) show the newline as a mark, not a line break.
      assert.ok(!/L\nX/.test(all), `${route.name}: a newline from data broke a one-line place:\n${c.frame()}`);
    } finally {
      await c.close();
    }
  }
});

test('console: a service error message on an error state is shown escaped', async () => {
  const server = createServer((_req, res) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message: HOSTILE }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createClient({ baseUrl: url, apiKey: 'sk-untrusted-test-0000' });
  const store = createConsoleStore(api, { kind: 'remote', profile: 'untrusted', baseUrl: url }, { routes: ROUTES, initialRoute: { name: 'files' } });
  const app = await renderApp(createElement(App, { store }));
  try {
    await app.waitFor('Evil');
    assert.deepEqual(rawIn(app.frames.join('')), [], `raw control text on screen:\n${app.frame()}`);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await api.close();
    await new Promise((r) => server.close(r));
  }
});

test('chat: "Loading …" and "… is answering…" show session and assistant names escaped, line separators too', async () => {
  const NAME = `${HOSTILE}\u2028Z\u2029`;
  let sawChat!: () => void;
  const chatArrived = new Promise<void>((r) => (sawChat = r));
  let releaseSession!: () => void;
  const sessionHeld = new Promise<void>((r) => (releaseSession = r));
  const server = createServer((req, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/assistants') return json({ assistants: [{ id: 'a1', name: NAME }] });
    if (req.method === 'GET' && req.url?.startsWith('/chats/session/')) {
      void sessionHeld.then(() =>
        json({ message: 'ok', session: { id: 's1', name: NAME, assistantId: 'a1', status: 'active', messages: [{ role: 'assistant', content: 'Hi.' }] } }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/chats') return void sawChat(); // never answers
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'nothing here' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createClient({ baseUrl: url, apiKey: 'sk-untrusted-test-0000', retries: 0 });
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-untrusted-chat-'));
  const store = createConsoleStore(
    api,
    { kind: 'remote', profile: 'untrusted', baseUrl: url, dataDir },
    { routes: ROUTES, initialRoute: { name: 'chat-session', sessionId: `s1${HOSTILE}` } },
  );
  const app = await renderApp(createElement(App, { store }));
  const lineBreaks = (text: string) => /[\u2028\u2029]/.test(text);
  try {
    await app.waitFor('Loading session s1Evil');
    store.getState().actions.back();
    store.getState().actions.push({ name: 'chat-session', sessionId: 's1' });
    releaseSession();
    await app.waitFor('Hi.');
    await app.type('hello');
    await app.press(KEYS.enter);
    await chatArrived;
    await app.waitFor('is answering');
    const all = app.frames.join('');
    assert.deepEqual(rawIn(all), [], `raw control text on screen:\n${app.frame()}`);
    assert.ok(!lineBreaks(all), `a line or paragraph separator reached the screen:\n${app.frame()}`);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await api.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
