// A chat's total cost and message count survive a restart of the console and include turns sent
// with `switchboard chat send`: the session index keeps them, shared by every process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createElement } from 'react';
import { sandboxForFile } from '../support/sandbox.js';
import { renderApp } from '../support/ink.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, topRoute, type Route } from '../../src/store/index.js';
import { totalCost } from '../../src/store/chat.js';
import { money } from '../../src/format/display.js';
import { App } from '../../src/ui/app.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

const sb = sandboxForFile();
let home: CliHome;
before(async () => {
  home = tempHome();
});
after(async () => {
  home.cleanup();
});

/** A console as `switchboard` would open it with SWITCHBOARD_BASE_URL set: profile `env`, the home's data dir. */
async function console(initialRoute?: Route) {
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, retries: 0 });
  const store = createConsoleStore(
    api,
    { kind: 'remote', profile: 'env', baseUrl: sb.url, dataDir: join(home.env.XDG_DATA_HOME!, 'switchboard') },
    { routes: ROUTES, initialRoute },
  );
  const app = await renderApp(createElement(App, { store }));
  return {
    ...app,
    store,
    async close() {
      await store.getState().actions.flushSessionIndex(); // as the console does on exit
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
    },
  };
}

test('after a restart the conversation shows its total, including turns sent with `chat send`', async () => {
  const first = await console();
  let id: string;
  let total: number;
  try {
    const assistant = (await createClient({ baseUrl: sb.url, apiKey: sb.apiKey }).listAssistants())[0];
    id = (await first.store.getState().actions.startChat(assistant.id))!;
    for (const text of ['When are you open?', 'Do you have parking?']) {
      first.store.getState().actions.setDraft(id, text);
      assert.equal(await first.store.getState().actions.sendMessage(id), true);
    }
    total = totalCost(first.store.getState().chat.conversations[id].turns);
    assert.ok(total > 0);
  } finally {
    await first.close();
  }
  const sent = await runCli(['chat', 'send', '--session', id, 'And on Sundays?', '-o', 'json'], {
    env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey },
  });
  assert.equal(sent.code, 0, sent.stderr);
  total += (JSON.parse(sent.stdout) as { cost: number }).cost;

  const again = await console({ name: 'chat', sessionId: id }); // as `:chat <id>`: the list under it
  try {
    const frame = await again.waitFor('messages ·');
    const count = (await createClient({ baseUrl: sb.url, apiKey: sb.apiKey }).getSession(id)).messages!.length;
    assert.ok(frame.includes(`${count} messages · total ${money(total)}`), `${money(total)}: ${frame}`);
    // The sessions list shows the same count.
    again.store.getState().actions.back();
    const list = await again.waitFor('LAST MESSAGE');
    assert.match(list, new RegExp(`\\b${count}\\b`));
  } finally {
    await again.close();
  }
});

test("after a restart each turn's heading shows its time and cost again", async () => {
  const first = await console();
  let id: string;
  let cost: number;
  try {
    const assistant = (await createClient({ baseUrl: sb.url, apiKey: sb.apiKey }).listAssistants())[0];
    id = (await first.store.getState().actions.startChat(assistant.id))!;
    first.store.getState().actions.setDraft(id, 'When are you open?');
    assert.equal(await first.store.getState().actions.sendMessage(id), true);
    cost = first.store.getState().chat.conversations[id].turns.at(-1)!.cost!;
  } finally {
    await first.close();
  }
  const again = await console({ name: 'chat', sessionId: id });
  try {
    const frame = await again.waitFor('When are you open?');
    assert.match(frame, /You · \d\d:\d\d/, frame);
    assert.ok(new RegExp(` · \\d\\d:\\d\\d · ${money(cost).replace(/[$.]/g, '\\$&')}`).test(frame), frame);
  } finally {
    await again.close();
  }
});

test('a reply that left a {{variable}} unset: the chat says which, and the key that sets it', async () => {
  const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const { record } = await client.createAssistant({
    name: 'Vee',
    firstMessage: 'Welcome to {{company}}, {{name}}!',
    firstMessageMode: 'assistant-waits-for-user',
  });
  await client.close();
  const app = await console({ name: 'chat', assistantId: record!.id }); // as `switchboard chat --assistant`
  try {
    await app.waitFor('Say something to start.');
    const id = (topRoute(app.store.getState()) as { sessionId: string }).sessionId;
    app.store.getState().actions.setVariables(id, { name: 'Ada' });
    app.store.getState().actions.setDraft(id, 'Hello!');
    assert.equal(await app.store.getState().actions.sendMessage(id), true);
    const frame = await app.waitFor('no value');
    assert.match(frame, /Welcome to \{\{company\}\}, Ada!/);
    assert.match(frame, /\{\{company\}\} has no value in this chat · Ctrl-V sets variables/);
  } finally {
    await app.close();
  }
});
