// Keys typed straight after a key that opens another screen go, in order, to the screen it opens,
// whatever lies between (a chat creating its session, a form loading what its pickers offer, a
// screen's code loading, the palette or the filter opening): never to the global keys nor to the
// screen left behind. Each test sends the opening key and the text after it in ONE write, against
// a real sandbox behind a proxy that holds every request back, so the text surely arrives while
// the next screen still waits on the service.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { tick } from '../support/ink.js';
import { until } from '../support/wait.js';
import { sandboxForFile, withLatency, type SlowService } from '../support/sandbox.js';
import { routeKey, viewOf } from '../../src/store/index.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import type { Assistant } from '../../src/api/schemas.js';

const sb = sandboxForFile();
let slow: SlowService;
const DELAY_MS = 300;

before(async () => {
  await sb.started;
  slow = await withLatency(sb.url, DELAY_MS);
});
after(() => slow.close());

/** The console on Assistants, its rows in, on the slow service. */
async function onAssistants() {
  const c = await openConsole({ ...sb, url: slow.url });
  await c.waitFor('Riley');
  await tick();
  return c;
}

const top = (c: Awaited<ReturnType<typeof onAssistants>>) => c.store.getState().stack.at(-1)!;

test('c and "quick question? 1 or 2" in one write: every character is in the new chat\'s input, and the console runs', async () => {
  const c = await onAssistants();
  try {
    c.stdin.write('cquick question? 1 or 2');
    await until(() => top(c).name === 'chat-session', 'the conversation opens');
    const id = (top(c) as { sessionId: string }).sessionId;
    await until(() => (c.store.getState().chat.conversations[id]?.draft ?? '') === 'quick question? 1 or 2', 'the draft is the text typed');
    await c.waitFor('› quick question? 1 or 2');
    assert.equal(c.store.getState().quitting, false);
    assert.deepEqual(
      c.store.getState().stack.map((r) => r.name),
      ['assistants', 'chat-session'],
      'no help, no other screen on the way',
    );
  } finally {
    await c.close();
  }
});

test('4, n, Enter, Enter and a message in one write: the new chat picks, starts and has the message in its input', async () => {
  const c = await onAssistants();
  try {
    c.stdin.write('4n\r\rhello q? 3');
    await until(() => top(c).name === 'chat-session', 'the conversation opens');
    const id = (top(c) as { sessionId: string }).sessionId;
    await until(() => (c.store.getState().chat.conversations[id]?.draft ?? '') === 'hello q? 3', 'the draft is the text typed');
    assert.equal(c.store.getState().quitting, false);
  } finally {
    await c.close();
  }
});

test('c on an assistant the service does not have: the text typed after it runs no key (no quit, no retry) and is said to be unused', async () => {
  // The list the console shows has one assistant more than the service, first: the sandbox answers
  // its new session with a 404.
  const ghost = { id: '00000000-0000-4000-8000-00000000dead', name: 'Zed — not on the service' };
  const c = await openConsole(
    { ...sb, url: slow.url },
    {
      wrapApi: (api) => {
        const wrapped: VoiceAgentApi = Object.create(api);
        wrapped.listAssistants = async (opts) => [ghost as Assistant, ...(await api.listAssistants(opts))];
        return wrapped;
      },
    },
  );
  try {
    await c.waitFor('Zed — not on the service');
    await tick();
    c.stdin.write('cquick question? 1 or 2');
    await c.waitFor('Could not start a chat with Zed');
    await c.waitFor('typed ahead went unused');
    await tick();
    assert.equal(c.store.getState().quitting, false);
    assert.deepEqual(
      c.store.getState().stack.map((r) => r.name),
      ['assistants', 'chat'],
    );
    assert.equal(c.store.getState().chat.starts[ghost.id]?.status, 'error', 'the r of "or" did not ask again');
    // Typed now, on the screen as it is, keys are commands again: 4 goes to the sessions.
    await c.press('4');
    await until(() => top(c).name === 'chat' && !('assistantId' in top(c)), 'the sessions');
  } finally {
    await c.close();
  }
});

test("n and a name in one write: the name is in the new assistant form's Name field", async () => {
  const c = await onAssistants();
  try {
    c.stdin.write('nQuick 1? q');
    await until(() => top(c).name === 'assistant-new', 'the form opens');
    await c.waitFor(/Name\s+Quick 1\? q/);
    assert.equal(c.store.getState().quitting, false);
    assert.equal(top(c).name, 'assistant-new');
  } finally {
    await c.close();
  }
});

test('e and more of the name in one write: the edit form, loaded from the service, has it after the name', async () => {
  const c = await onAssistants();
  try {
    const first = c.store.getState().assistants.data![0];
    c.stdin.write('e 2? q');
    await until(() => top(c).name === 'assistant-edit', 'the form opens');
    await c.waitFor(`${first.name} 2? q`);
    assert.equal(c.store.getState().quitting, false);
  } finally {
    await c.close();
  }
});

test('o, Tabs and a number in one write: the outbound form has it in Customer number', async () => {
  const c = await onAssistants();
  try {
    c.stdin.write('o\t\t+14155550123q');
    await until(() => top(c).name === 'call-outbound', 'the form opens');
    await c.waitFor(/Customer number\s+\+14155550123q/);
    assert.equal(c.store.getState().quitting, false);
    assert.equal(top(c).name, 'call-outbound');
  } finally {
    await c.close();
  }
});

test(': and a command in one write run it; the keys after it go to the screen it opens', async () => {
  const c = await onAssistants();
  try {
    c.stdin.write(':numbers\rj');
    await until(() => top(c).name === 'numbers', 'Numbers opens');
    await c.waitFor(/\+\d{6}/);
    await until(() => viewOf(c.store.getState(), routeKey({ name: 'numbers' })).cursor === 1, 'j moved to the second number');
    assert.equal(c.store.getState().quitting, false);
  } finally {
    await c.close();
  }
});

test('/ and a filter in one write: the filter has all of it (q and digits too)', async () => {
  const c = await onAssistants();
  try {
    c.stdin.write('/q1?');
    await until(() => viewOf(c.store.getState(), routeKey({ name: 'assistants' })).filter === 'q1?', 'the filter is the text typed');
    assert.equal(c.store.getState().quitting, false);
    assert.equal(top(c).name, 'assistants');
  } finally {
    await c.close();
  }
});
