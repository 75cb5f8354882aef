// The chat slice against real HTTP: the sandbox for sessions and the index, and a small recording
// server to see exactly what each message sends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { startFaultyServer, type FaultyServer } from '../support/faulty-server.js';
import { until } from '../support/wait.js';
import { createClient } from '../../src/api/client.js';
import { listSessions } from '../../src/config/sessions.js';
import { createConsoleStore, topRoute, type ConsoleStore, type Route } from '../../src/store/index.js';
import { mergeTurns, totalCost, variablesFrom } from '../../src/store/chat.js';
import { parseVariables } from '../../src/ui/screens/chat/VariablesEditor.js';
import { turnLines, windowTurns } from '../../src/ui/screens/chat/transcript.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

describe('chat slice against the sandbox', () => {
  const sb = sandboxForFile();
  let api: ReturnType<typeof createClient>;
  let dir: string;
  let store: ConsoleStore;
  before(async () => {
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  });
  after(async () => {
    store?.getState().actions.dispose();
    await api.close();
  });
  const fresh = (initialRoute?: Route) => {
    store?.getState().actions.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'switchboard-chat-store-'));
    store = createConsoleStore(api, { kind: 'sandbox', profile: 'work', baseUrl: sb.url, dataDir: dir }, { routes: ROUTES, initialRoute });
    return store;
  };

  test('a chat route naming an assistant (chat --assistant) creates one session, remembers it and gives way to the conversation', async () => {
    const ava = (await api.listAssistants()).find((a) => a.name?.startsWith('Ava'))!;
    fresh({ name: 'chat', assistantId: ava.id });
    await until(() => topRoute(store.getState()).name === 'chat-session');
    const stack = store.getState().stack.map((r) => r.name);
    assert.deepEqual(stack, ['chat', 'chat-session'], 'the sessions list is under a chat opened from the top');
    const id = (topRoute(store.getState()) as { sessionId: string }).sessionId;
    await store.getState().actions.flushSessionIndex();
    const remembered = listSessions('work', dir);
    assert.equal(remembered.length, 1, 'exactly one session, though the initial route is entered twice');
    assert.equal(remembered[0].id, id);
    assert.equal(remembered[0].assistantId, ava.id);
    const c = store.getState().chat.conversations[id];
    assert.equal(c.turns[0].role, 'assistant');
    assert.match(c.turns[0].content, /Good day/);
  });

  test('sending with an empty draft does nothing; a reply adds both turns with time and cost', async () => {
    fresh();
    const a = (await api.listAssistants())[0];
    const id = (await store.getState().actions.startChat(a.id))!;
    assert.equal(await store.getState().actions.sendMessage(id), false);
    store.getState().actions.setDraft(id, 'What is your return window?');
    assert.equal(await store.getState().actions.sendMessage(id), true);
    const c = store.getState().chat.conversations[id];
    const [user, reply] = c.turns.slice(-2);
    assert.equal(user.role, 'user');
    assert.equal(user.content, 'What is your return window?');
    assert.ok(user.at && reply.at);
    assert.ok(reply.cost! > 0);
    assert.equal(totalCost(c.turns), reply.cost);
    assert.equal(c.draft, '');
  });

  test('reopening reloads from the service and keeps the times and costs seen here', async () => {
    fresh();
    const a = (await api.listAssistants())[0];
    const id = (await store.getState().actions.startChat(a.id))!;
    store.getState().actions.setDraft(id, 'hello');
    await store.getState().actions.sendMessage(id);
    await api.sendChat({ sessionId: id, input: 'sent from elsewhere' });
    const before = store.getState().chat.conversations[id].turns;
    await store.getState().actions.openSession(id);
    const after = store.getState().chat.conversations[id].turns;
    assert.equal(after.length, before.length + 2);
    assert.equal(after[before.length - 1].cost, before[before.length - 1].cost);
    assert.equal(after.at(-2)!.content, 'sent from elsewhere');
    await store.getState().actions.flushSessionIndex();
    assert.equal(listSessions('work', dir)[0].messageCount, after.length, 'the index is refreshed from the service');
  });

  test('after a restart, a session reopened shows the times and costs the index kept; the index is re-stamped', async () => {
    fresh();
    const a = (await api.listAssistants())[0];
    const id = (await store.getState().actions.startChat(a.id))!;
    store.getState().actions.setDraft(id, 'What is your return window?');
    await store.getState().actions.sendMessage(id);
    const seen = store.getState().chat.conversations[id].turns;
    // The console quits as live-console does: its index writes land, then the store is let go.
    await store.getState().actions.flushSessionIndex();
    store.getState().actions.dispose();
    await api.sendChat({ sessionId: id, input: 'sent from elsewhere' });
    store = createConsoleStore(api, { kind: 'sandbox', profile: 'work', baseUrl: sb.url, dataDir: dir }, { routes: ROUTES });
    await store.getState().actions.openSession(id);
    const turns = store.getState().chat.conversations[id].turns;
    assert.equal(turns.length, seen.length + 2);
    assert.deepEqual(
      turns.slice(0, seen.length).map((t) => [t.role, t.at, t.cost]),
      seen.map((t) => [t.role, t.at, t.cost]),
    );
    assert.ok(seen.at(-1)!.cost! > 0 && seen.at(-1)!.at);
    assert.equal(turns.at(-2)!.at, undefined, 'a turn sent elsewhere has no time here');
    await store.getState().actions.flushSessionIndex();
    assert.equal(listSessions('work', dir)[0].turnStamps?.length, turns.length);
  });

  test('an unknown session id is an error naming it; a broken index is an error, not a crash', async () => {
    fresh();
    await store.getState().actions.openSession('nope');
    assert.match(store.getState().chat.conversations.nope.error!, /no chat session with id nope/);
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    writeFileSync(join(dir, 'sessions', 'work.json'), '{ not json');
    store.getState().actions.loadSessionIndex();
    assert.equal(store.getState().chat.index.status, 'error');
    assert.match(store.getState().chat.index.error!, /work\.json/);
  });
});

describe('chat slice against a recording server', () => {
  let server: Server;
  let url: string;
  const bodies: unknown[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/chats') {
          bodies.push(JSON.parse(raw));
          res.statusCode = 201;
          res.end(
            JSON.stringify({
              message: 'ok',
              chat: { id: `c${bodies.length}`, sessionId: 's1', output: [{ role: 'assistant', content: 'noted' }], cost: 0.01 },
            }),
          );
        } else if (req.method === 'GET' && req.url === '/chats/session/s1') {
          res.end(JSON.stringify({ message: 'ok', session: { id: 's1', name: 'rec', assistantId: 'a1', messages: [] } }));
        } else {
          res.statusCode = 400;
          res.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'input must not be empty' }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  test('variables go with every message of the session and are remembered with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-chat-store-'));
    const api = createClient({ baseUrl: url, apiKey: 'sk-test-0000' });
    const store = createConsoleStore(api, { kind: 'remote', profile: 'rec', baseUrl: url, dataDir: dir }, { routes: ROUTES });
    try {
      const { actions } = store.getState();
      await actions.openSession('s1');
      actions.setVariables('s1', { customerName: 'Ada', city: 'Oslo' });
      for (const text of ['first', 'second']) {
        actions.setDraft('s1', text);
        assert.equal(await actions.sendMessage('s1'), true);
      }
      assert.deepEqual(bodies, [
        { sessionId: 's1', input: 'first', assistantOverrides: { variableValues: { customerName: 'Ada', city: 'Oslo' } } },
        { sessionId: 's1', input: 'second', assistantOverrides: { variableValues: { customerName: 'Ada', city: 'Oslo' } } },
      ]);
      await store.getState().actions.flushSessionIndex();
      assert.deepEqual(listSessions('rec', dir)[0].variableValues, { customerName: 'Ada', city: 'Oslo' });
      assert.equal(totalCost(store.getState().chat.conversations.s1.turns), 0.02);
      // A fresh console reopening the session starts with its remembered variables.
      const again = createConsoleStore(api, { kind: 'remote', profile: 'rec', baseUrl: url, dataDir: dir }, { routes: ROUTES });
      await again.getState().actions.openSession('s1');
      assert.deepEqual(again.getState().chat.conversations.s1.variables, { customerName: 'Ada', city: 'Oslo' });
      again.getState().actions.dispose();
    } finally {
      store.getState().actions.dispose();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chat helpers', () => {
  test('mergeTurns keeps what this console saw only for turns that are still the same', () => {
    const known = [
      { role: 'user', content: 'hi', at: '2026-11-21T10:00:00Z' },
      { role: 'assistant', content: 'hello', at: '2026-11-21T10:00:01Z', cost: 0.001 },
    ];
    const merged = mergeTurns(known, [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'changed' },
      { role: 'user', content: 'new', createdAt: '2026-11-21T11:00:00Z' },
    ]);
    assert.deepEqual(merged, [
      { role: 'user', content: 'hi', at: '2026-11-21T10:00:00Z' },
      { role: 'assistant', content: 'changed' },
      { role: 'user', content: 'new', at: '2026-11-21T11:00:00Z' },
    ]);
  });

  test('parseVariables names the first bad line and skips blank ones', () => {
    assert.deepEqual(parseVariables(['name = Ada ', '', 'order.id=42']), { vars: { name: 'Ada', 'order.id': '42' } });
    assert.deepEqual(parseVariables(['ok=1', 'oops']), { error: 'Line 2 ("oops") is not key=value; a key is letters, digits, _ . or -' });
    assert.deepEqual(variablesFrom({ n: 1, s: 'x', o: { a: 1 } }), { n: '1', s: 'x', o: '{"a":1}' });
  });

  test('the transcript window ends at the newest line and scrolls up by lines', () => {
    assert.deepEqual(windowTurns([3, 4, 3], 5, 0).slices, [
      { index: 1, from: 2, to: 4 },
      { index: 2, from: 0, to: 3 },
    ]);
    const up = windowTurns([3, 4, 3], 5, 99);
    assert.equal(up.maxScroll, 5);
    assert.deepEqual(up.slices, [
      { index: 0, from: 0, to: 3 },
      { index: 1, from: 0, to: 2 },
    ]);
    const turn = { role: 'assistant', content: 'word '.repeat(30).trim(), cost: 0.002 };
    const lines = turnLines(turn, 'Ava', 40);
    assert.equal(lines[0].text, 'Ava · $0.002');
    assert.ok(lines.slice(1).every((l) => l.text.length <= 40));
    assert.equal(turnLines(turn, 'Ava', 40), lines, 'wrapped once per width');
  });
});

describe('chat slice: a send that ends without an answer reconciles with the service', () => {
  const sb = sandboxForFile();
  let faulty: FaultyServer;
  let direct: ReturnType<typeof createClient>;
  let dir: string;
  before(async () => {
    faulty = await startFaultyServer({ mode: 'healthy', upstream: sb.url });
    direct = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    dir = mkdtempSync(join(tmpdir(), 'switchboard-chat-late-'));
  });
  after(async () => {
    await direct.close();
    await faulty.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A console whose requests pass the faulty server (healthy: to the sandbox), with a new session. */
  async function open(timeouts?: { headersMs: number }) {
    await faulty.setMode('healthy');
    const api = createClient({ baseUrl: faulty.url, apiKey: sb.apiKey, ...(timeouts ? { timeouts } : {}) });
    const store = createConsoleStore(api, { kind: 'remote', profile: 'late', baseUrl: faulty.url, dataDir: dir }, { routes: ROUTES });
    const a = (await direct.listAssistants())[0];
    const id = (await store.getState().actions.startChat(a.id))!;
    assert.ok(id);
    return { api, store, id, close: async () => (store.getState().actions.dispose(), await api.close()) };
  }
  const userCount = async (id: string, text: string) => (await direct.getSession(id)).messages!.filter((m) => m.role === 'user' && m.content === text).length;

  test('Esc after the service took the message: the conversation shows its message and reply, the input is empty, nothing is sent twice', async () => {
    const c = await open();
    try {
      const { actions } = c.store.getState();
      const text = 'Do you ship to Canada?';
      actions.setDraft(c.id, text);
      await faulty.setMode('late');
      const sending = actions.sendMessage(c.id);
      await until(() => faulty.seen.includes('POST /chats'), 'the message reached the service');
      for (let i = 0; i < 100 && (await userCount(c.id, text)) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      actions.cancelSend(c.id);
      assert.equal(await sending, false);
      const conv = c.store.getState().chat.conversations[c.id];
      assert.equal(conv.draft, '', 'the message left the input: the service has it');
      assert.deepEqual(
        conv.turns.slice(-2).map((t) => t.role),
        ['user', 'assistant'],
      );
      assert.equal(conv.turns.at(-2)!.content, text);
      assert.match(c.store.getState().flash!.text, /Cancelled, but the service already had your message; its reply is shown/);
      await faulty.setMode('healthy');
      assert.equal(await actions.sendMessage(c.id), false, 'nothing left to send');
      assert.equal(await userCount(c.id, text), 1);
    } finally {
      await c.close();
    }
  });

  test('a timeout the same way; and Esc before the service had it keeps the text, which then sends once', async () => {
    const c = await open({ headersMs: 400 });
    try {
      const { actions } = c.store.getState();
      actions.setDraft(c.id, 'What are your hours?');
      await faulty.setMode('late');
      assert.equal(await actions.sendMessage(c.id), false);
      assert.equal(c.store.getState().chat.conversations[c.id].draft, '');
      assert.equal(c.store.getState().chat.conversations[c.id].turns.at(-2)!.content, 'What are your hours?');
      assert.match(c.store.getState().flash!.text, /^No answer .*the service already had your message/);

      await faulty.setMode('slow'); // held before it reaches the service
      actions.setDraft(c.id, 'Is parking free?');
      const sending = actions.sendMessage(c.id);
      await until(() => faulty.seen.filter((s) => s === 'POST /chats').length === 2, 'the second message reached the faulty server');
      await faulty.setMode('healthy');
      actions.cancelSend(c.id);
      assert.equal(await sending, false);
      assert.equal(c.store.getState().chat.conversations[c.id].draft, 'Is parking free?', 'the service does not have it: the text stays');
      assert.match(c.store.getState().flash!.text, /does not have your message/);
      assert.equal(await actions.sendMessage(c.id), true);
      assert.equal(await userCount(c.id, 'Is parking free?'), 1);
    } finally {
      await c.close();
    }
  });

  test('the answer lost and the check failing too: the text stays; sending it again checks first and does not send a duplicate', async () => {
    const c = await open();
    try {
      const { actions } = c.store.getState();
      const text = 'Can I change my order?';
      actions.setDraft(c.id, text);
      await faulty.setMode('late');
      const sending = actions.sendMessage(c.id);
      for (let i = 0; i < 200 && (await userCount(c.id, text)) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await faulty.setMode('503'); // the held answer is cut off; the check gets a 503
      assert.equal(await sending, false);
      const conv = c.store.getState().chat.conversations[c.id];
      assert.equal(conv.draft, text);
      assert.match(conv.sendError!, /could not check whether the service has your message/);
      await faulty.setMode('healthy');
      assert.equal(await actions.sendMessage(c.id), false, 'not sent again');
      assert.match(c.store.getState().flash!.text, /Not sent again: the service already had your message/);
      assert.equal(c.store.getState().chat.conversations[c.id].draft, '');
      assert.equal(await userCount(c.id, text), 1, 'no duplicate on the service');
    } finally {
      await c.close();
    }
  });
});
