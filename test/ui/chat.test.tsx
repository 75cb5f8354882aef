// The Chat screens against a real sandbox over HTTP: start a session and talk, variables, a send
// that fails and keeps its text, reopening history, and Esc cancelling a slow send.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { startRestartableSandbox, startTestSandbox, sandboxForFile } from '../support/sandbox.js';
import { KEYS, renderApp } from '../support/ink.js';
import { createClient } from '../../src/api/client.js';
import { listSessions, rememberSession } from '../../src/config/sessions.js';
import { createConsoleStore, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;
const CTRL_V = '\x16';

/** The console on the real client, with the sessions index in its own temp dir. */
async function openChat(baseUrl: string, apiKey: string, opts: { initialRoute?: Route; dataDir?: string } = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-chat-'));
  const api = createClient({ baseUrl, apiKey, retries: 0 });
  const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl, dataDir }, { routes: ROUTES, initialRoute: opts.initialRoute });
  const app = await renderApp(createElement(App, { store }));
  return {
    ...app,
    store,
    dataDir,
    conv: (id: string) => store.getState().chat.conversations[id],
    topRoute: () => store.getState().stack.at(-1)!,
    async close() {
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function sessionIdOf(route: Route): string {
  assert.equal(route.name, 'chat-session', `expected a conversation on top, got ${JSON.stringify(route)}`);
  return (route as { sessionId: string }).sessionId;
}

describe('Chat screen', () => {
  const sb = sandboxForFile();

  test('a list filtered to nothing offers Enter as off, and says why when it is pressed', async () => {
    const c = await openChat(sb.url, sb.apiKey);
    try {
      await c.waitFor('NAME');
      await c.press('/');
      await c.type('zzzz');
      await c.press(KEYS.enter);
      await c.waitFor(/Enter open \(no assistant here\)/);
      await c.press(KEYS.enter);
      await c.waitFor('"open" is off: no assistant here');
      assert.equal(c.topRoute().name, 'assistants', 'nothing opened');
    } finally {
      await c.close();
    }
  });

  test('4, n, pick the assistant, send: the first message opens, the reply appears, the index remembers it', async () => {
    const c = await openChat(sb.url, sb.apiKey);
    try {
      await c.waitFor('NAME');
      await c.press('4');
      await c.waitFor('No chats yet');
      await c.press('n');
      await c.waitFor('pick the assistant');
      await c.type('Ava');
      await c.press(KEYS.enter);
      await c.waitFor('Name (optional)');
      await c.type('hours check');
      await c.press(KEYS.enter);
      await c.waitFor('Good day, Bright Smile Dental'); // Ava speaks first
      const id = sessionIdOf(c.topRoute());
      assert.match(c.frame(), /hours check/);
      await c.type('What are your opening hours on Saturday?');
      assert.ok(c.frame().includes('› What are your opening hours on Saturday?'));
      await c.press(KEYS.enter);
      const f = await c.waitFor("Here's what I found in opening-hours.md");
      assert.match(f, /You · \d\d:\d\d/);
      assert.match(f, /\$0\.\d{3}/, 'the turn and the session show a cost');
      assert.equal(c.conv(id).draft, '', 'the input is cleared once the reply is in');
      assert.equal(c.conv(id).turns.length, 3);
      await c.store.getState().actions.flushSessionIndex();
      const remembered = listSessions('sandbox', c.dataDir).find((s) => s.id === id);
      assert.ok(remembered, 'the session is in the local index');
      assert.equal(remembered!.name, 'hours check');
      assert.equal(remembered!.messageCount, 3);
      assert.match(remembered!.lastMessage ?? '', /opening-hours\.md/);
      // Up recalls what was said; Down returns to the (empty) draft.
      await c.press(KEYS.up);
      assert.equal(c.conv(id).draft, 'What are your opening hours on Saturday?');
      await c.press(KEYS.down);
      assert.equal(c.conv(id).draft, '');
      // q and digits are text here; Esc on the empty input goes back to the list, which shows the session.
      await c.type('q4');
      assert.equal(c.conv(id).draft, 'q4');
      assert.equal(c.store.getState().quitting, false);
      await c.press(KEYS.backspace, KEYS.backspace, KEYS.escape);
      const list = await c.waitFor('LAST MESSAGE');
      assert.ok(list.includes('hours check'), list);
      assert.ok(list.includes('Ava'), 'the assistant is shown by name');
    } finally {
      await c.close();
    }
  });

  test('c on an assistant opens a new chat with it; a variable set with Ctrl-V is substituted in the reply and remembered', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const made = (
      await api.createAssistant({
        name: 'Greeter',
        firstMessage: 'Welcome back, {{customerName}}!',
        firstMessageMode: 'assistant-waits-for-user',
      })
    ).record!;
    await api.close();
    const c = await openChat(sb.url, sb.apiKey);
    try {
      await c.waitFor('NAME');
      await c.press('/');
      await c.type('Greeter');
      await c.press(KEYS.enter, 'c');
      await c.waitFor('Say something to start.'); // this assistant waits for the user
      const id = sessionIdOf(c.topRoute());
      assert.equal(c.conv(id).assistantId, made.id);
      await c.press(CTRL_V);
      await c.waitFor('Variables — sent with every message');
      await c.type('customerName=Ada');
      await c.press(KEYS.ctrlS);
      await c.waitFor('vars customerName=Ada');
      await c.type('hello');
      await c.press(KEYS.enter);
      await c.waitFor('Welcome back, Ada!');
      await c.store.getState().actions.flushSessionIndex();
      const remembered = listSessions('sandbox', c.dataDir).find((s) => s.id === id);
      assert.deepEqual(remembered?.variableValues, { customerName: 'Ada' });
      // Esc leads back to the Assistants screen it came from.
      await c.press(KEYS.escape);
      await c.waitFor('NAME');
      assert.equal(c.topRoute().name, 'assistants');
    } finally {
      await c.close();
    }
  });

  test('a bad variable line is named and nothing is saved', async () => {
    const c = await openChat(sb.url, sb.apiKey, { initialRoute: { name: 'chat', assistantId: (await firstAssistant(sb)).id } });
    try {
      await c.waitFor('1 message ·'); // the conversation is in (the footer shows before it)
      const id = sessionIdOf(c.topRoute());
      await c.press(CTRL_V);
      await c.waitFor('Variables — sent');
      await c.type('no equals sign');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Line 1 ("no equals sign") is not key=value');
      assert.deepEqual(c.conv(id).variables, {});
      await c.press(KEYS.escape);
      await c.waitFor(/^(?![\s\S]*Variables — sent)/); // Esc closed the editor
      assert.deepEqual(c.conv(id).variables, {});
    } finally {
      await c.close();
    }
  });

  test('reopening a session shows its history from the service, and the index is refreshed from it', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const a = await firstAssistant(sb);
    const session = (await api.createSession({ assistantId: a.id, name: 'earlier chat' })).record!;
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-chat-'));
    rememberSession('sandbox', session, dataDir); // remembered before the message below
    await api.sendChat({ sessionId: session.id, input: 'Where can I park?' });
    await api.close();
    const c = await openChat(sb.url, sb.apiKey, { initialRoute: { name: 'chat' }, dataDir });
    try {
      const list = await c.waitFor('earlier chat');
      assert.match(list, /LAST MESSAGE/);
      await c.press(KEYS.enter);
      const f = await c.waitFor('Where can I park?');
      assert.ok(f.includes('Free parking is available'), f);
      assert.equal(sessionIdOf(c.topRoute()), session.id);
      await c.store.getState().actions.flushSessionIndex();
      const entry = listSessions('sandbox', dataDir).find((s) => s.id === session.id)!;
      assert.equal(entry.messageCount, session.messages!.length + 2);
      assert.match(entry.lastMessage ?? '', /Free parking/);
    } finally {
      await c.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a long history shows its newest turns; PgUp/PgDn scroll the transcript, and the input stays put', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const session = (await api.createSession({ assistantId: (await firstAssistant(sb)).id })).record!;
    for (let i = 1; i <= 8; i++) await api.sendChat({ sessionId: session.id, input: `question number ${i} about parking` });
    await api.close();
    const c = await openChat(sb.url, sb.apiKey, { initialRoute: { name: 'chat', sessionId: session.id } });
    try {
      let f = await c.waitFor('question number 8');
      assert.ok(!f.includes('question number 1 '), 'the oldest turns are out of view');
      assert.match(f, /PgUp for earlier messages/);
      await c.type('draft text');
      await c.press('\x1b[5~', '\x1b[5~', '\x1b[5~', '\x1b[5~', '\x1b[5~', '\x1b[5~'); // PgUp
      f = await c.waitFor('question number 1 ');
      assert.match(f, /lines up · PgDn for newer/);
      assert.ok(!f.includes('question number 8'), f);
      assert.ok(f.includes('› draft text'), 'the input line stays at the bottom with its text');
      await c.press('\x1b[6~', '\x1b[6~', '\x1b[6~', '\x1b[6~', '\x1b[6~', '\x1b[6~'); // PgDn
      await c.waitFor('question number 8');
    } finally {
      await c.close();
    }
  });

  test(':chat <id> and o open any session id; an unknown id shows the service message', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const session = (await api.createSession({ assistantId: (await firstAssistant(sb)).id, name: 'by id' })).record!;
    await api.close();
    const c = await openChat(sb.url, sb.apiKey);
    try {
      await c.waitFor('NAME');
      await c.press(':');
      await c.type(`chat ${session.id}`);
      await c.press(KEYS.enter);
      await c.waitFor('by id');
      assert.equal(sessionIdOf(c.topRoute()), session.id);
      await c.press(KEYS.escape); // the sessions list was put under it
      await c.waitFor('No chats yet');
      await c.press('o');
      const asking = await c.waitFor('Session id:');
      // Its prompt has the keys: the list's are not offered under it.
      assert.doesNotMatch(asking.trimEnd().split('\n').at(-1) ?? '', /n new|copy the id/);
      await c.type('no-such-session');
      await c.press(KEYS.enter);
      const f = await c.waitFor('Could not load session no-such-session');
      assert.match(f, /no chat session with id no-such-session/);
    } finally {
      await c.close();
    }
  });
});

describe('Chat screen: failures', () => {
  test('chat with an unknown assistant says so with the service message; 4 leads to the sessions', async () => {
    const sb = await startTestSandbox();
    const c = await openChat(sb.url, sb.apiKey, { initialRoute: { name: 'chat', assistantId: 'no-such-assistant' } });
    try {
      const f = await c.waitFor('Could not start a chat with no-such-assistant');
      assert.match(f, /404/);
      assert.match(f, /no-such-assistant/);
      // The sessions list's keys are not this screen's: the footer offers r, and n opens nothing.
      const footer = f.trimEnd().split('\n').at(-1) ?? '';
      assert.match(footer, /r refresh/, footer);
      assert.doesNotMatch(footer, /n new|open a session id|copy the id/, footer);
      await c.press('n');
      assert.equal(c.topRoute().name, 'chat');
      await c.press('4');
      await c.waitFor('No chats yet');
    } finally {
      await c.close();
      await sb.close();
    }
  });

  test('a send to a stopped sandbox keeps the text in the input and shows the error; it resends once the service is back', async () => {
    const sb = await startRestartableSandbox();
    const c = await openChat(sb.url, sb.apiKey, { initialRoute: { name: 'chat', assistantId: (await firstAssistant(sb)).id } });
    try {
      await c.waitFor('Good day, Bright Smile Dental');
      const id = sessionIdOf(c.topRoute());
      await sb.stop();
      await c.type('Do you take insurance?');
      await c.press(KEYS.enter);
      const f = await c.waitFor('Not sent:');
      assert.match(f, /refused|connect|reach|ECONNREFUSED/i);
      assert.ok(f.includes('› Do you take insurance?'), f);
      assert.equal(c.conv(id).draft, 'Do you take insurance?');
      assert.equal(c.conv(id).turns.length, 1, 'nothing was added to the transcript');
      // Esc leaves the chat even with text in the input; the draft stays with its session and
      // coming back (Enter on the sessions list) shows it.
      await c.press(KEYS.escape);
      assert.equal(c.topRoute().name, 'chat');
      assert.equal(c.conv(id).draft, 'Do you take insurance?');
      // The sessions list, its one row (the id column gives way to names at this width).
      await c.waitFor(/LAST MESSAGE[\s\S]*Chat with/);
      await c.press(KEYS.enter);
      assert.equal(sessionIdOf(c.topRoute()), id);
      assert.ok((await c.waitFor('› Do you take insurance?')).includes('› Do you take insurance?'));
      // The same service comes back (same port, key and data): Enter resends the kept text.
      await sb.restart({ seed: false });
      await c.press(KEYS.enter);
      await c.waitFor('insurance plans');
      assert.equal(c.conv(id).draft, '');
      assert.equal(c.conv(id).sendError, null);
    } finally {
      await c.close();
      await sb.close();
    }
  });

  test('Esc cancels a slow send (the request is aborted) and keeps the text', async () => {
    // A real HTTP server that answers the session at once but never answers a chat.
    const aborted: Promise<void>[] = [];
    let sawChat!: () => void;
    const chatArrived = new Promise<void>((r) => (sawChat = r));
    const server: Server = createServer((req: IncomingMessage, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/chats/session/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            message: 'ok',
            session: { id: 'slow-1', name: 'slow', assistantId: 'a1', status: 'active', messages: [{ role: 'assistant', content: 'Ask me anything.' }] },
          }),
        );
        return;
      }
      if (req.method === 'POST' && req.url === '/chats') {
        aborted.push(new Promise((r) => req.on('close', () => r())));
        sawChat();
        return; // never answers
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'nothing here' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const c = await openChat(`http://127.0.0.1:${port}`, 'sk-test-slow-0000', { initialRoute: { name: 'chat', sessionId: 'slow-1' } });
    try {
      await c.waitFor('Ask me anything.');
      await c.type('a slow question');
      await c.press(KEYS.enter);
      await chatArrived;
      const f = await c.waitFor('is answering');
      assert.match(f, /\d+s · Esc cancels/);
      await c.press(KEYS.escape);
      await aborted[0]; // the server saw the request go away
      await c.waitFor('› a slow question');
      assert.equal(c.conv('slow-1').sending, null);
      assert.equal(c.conv('slow-1').draft, 'a slow question');
      assert.equal(c.conv('slow-1').sendError, null);
      assert.equal(c.topRoute().name, 'chat-session', 'Esc while sending cancels; it does not leave');
      await c.waitFor('Cancelled: the service does not have your message; it is still in the input');
      assert.equal(c.store.getState().connectionState, 'online', 'a cancelled request says nothing about the service');
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

async function firstAssistant(sb: Sandbox) {
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const all = await api.listAssistants();
    return all.find((a) => a.name?.startsWith('Ava')) ?? all[0];
  } finally {
    await api.close();
  }
}
