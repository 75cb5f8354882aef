// The console on the terminals people have, on the real renderer against a real sandbox: without
// colour (NO_COLOR), in small windows down to 40×10 and below, with messages of any length; and
// the views that must show all there is: an assistant's detail to its last line, raw JSON whole.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import type { Route } from '../../src/store/index.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

// Colour on in chalk, as on a colour terminal, so that "no colour" is the console's doing; chalk
// reads this when Ink loads, hence the late imports.
process.env.FORCE_COLOR = '1';
const { openConsole } = await import('./support.js');
const { sandboxForFile } = await import('../support/sandbox.js');
const { createClient } = await import('../../src/api/client.js');
const { KEYS } = await import('../support/ink.js');
const { until } = await import('../support/wait.js');
const { rememberSession } = await import('../../src/config/sessions.js');
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');

const sb = sandboxForFile();
/** The console's data dir: the chat list shows the session remembered there. */
let dataDir: string;
const ids = { active: '', inactive: '', plan: '' };
const PLAN_PROMPT = 'Summarise the call in two sentences.';
const HANGUP = 'Hang up once the caller says goodbye; the last line of this detail.';
const LONG = `${'word '.repeat(60)}THE-END-OF-THE-PROMPT`;

setUpAndTearDown(
  async () => {
    await sb.started;
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    try {
      const all = await api.listAssistants();
      ids.active = all.find((a) => a.status !== false)!.id;
      dataDir = mkdtempSync(join(tmpdir(), 'sb-caps-'));
      // Two, so that j has a row to move to.
      for (const name of ['Caps check', 'Caps check again']) {
        const session = (await api.createSession({ assistantId: ids.active, name })).record!;
        rememberSession('sandbox', { id: session.id, name, assistantId: ids.active }, dataDir);
      }
      ids.inactive = (await api.createAssistant({ name: 'Sleepy Inactive', status: false } as never)).record!.id;
      ids.plan = (
        await api.createAssistant({
          name: 'Planned',
          analysisPlan: { summaryPrompt: PLAN_PROMPT, structuredDataSchema: { type: 'object' } },
          hangupUsingPrompt: { enabled: true, prompt: HANGUP },
          model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: LONG }] },
        } as never)
      ).record!.id;
    } finally {
      await api.close();
    }
  },
  async () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  },
);

/** A foreground or background colour in any SGR of the text. */
const hasColour = (text: string) => [...text.matchAll(/\x1b\[([\d;]*)m/g)].some((m) => m[1].split(';').some((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)));
const plain = (text: string) => text.replace(/\x1b\[[\d;]*m/g, '');
const settle = () => new Promise((r) => setTimeout(r, 60));

test('NO_COLOR: no colour anywhere (header included), the selected row marked by a › column in the lists and the picker', async () => {
  // The capabilities the console is handed, as run.tsx hands it the terminal's.
  const noColor = { capabilities: { color: false } };
  for (const initialRoute of [{ name: 'assistants' }, { name: 'numbers' }, { name: 'files' }, { name: 'calls' }, { name: 'chat' }] as Route[]) {
    const c = await openConsole(sb, { initialRoute, target: { dataDir }, ...noColor });
    try {
      await c.waitFor(/● online[\s\S]*(NAME|DID|CREATED|SIZE)/);
      // Waits by the frame, not a clock: a busy machine draws later, not differently. The marker
      // is looked for in the text without its SGR codes, which may stand before it.
      await until(() => /^› \S/m.test(plain(c.frame())), `${initialRoute.name}: the selected row's › marker`);
      const frame = c.frame();
      assert.ok(!hasColour(c.frames.join('')), `${initialRoute.name}: colour codes on screen:\n${JSON.stringify(frame.slice(0, 300))}`);
      assert.match(plain(frame), /^› \S/m, `${initialRoute.name}: the selected row is marked:\n${plain(frame)}`);
      // The marker follows the cursor.
      const before = plain(frame)
        .split('\n')
        .findIndex((l) => l.startsWith('› '));
      await c.press('j');
      await until(
        () =>
          plain(c.frame())
            .split('\n')
            .findIndex((l) => l.startsWith('› ')) ===
          before + 1,
        `${initialRoute.name}: the marker one row down`,
      );
      const after = plain(c.frame())
        .split('\n')
        .findIndex((l) => l.startsWith('› '));
      assert.equal(after, before + 1, `${initialRoute.name}: the marker moved with j`);
    } finally {
      await c.close();
    }
  }
  const picker = await openConsole(sb, { initialRoute: { name: 'numbers' }, ...noColor });
  try {
    await picker.waitFor('DID');
    await picker.press('l');
    await picker.waitFor('Link an assistant');
    assert.match(plain(picker.frame()), /^› \S/m, 'the picker marks its selected row');
    assert.ok(!hasColour(picker.frames.join('')), 'no colour in the picker');
  } finally {
    await picker.close();
  }
  // And with colour: the same console is coloured, without the marker column.
  const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
  try {
    await c.waitFor('NAME');
    await settle();
    assert.ok(hasColour(c.frame()), 'coloured with colour on');
    assert.doesNotMatch(plain(c.frame()), /^› /m);
  } finally {
    await c.close();
  }
});

/** The frame's lines, checked: never taller than the window, the header on top, the footer at the bottom. */
function assertFrame(frame: string, rows: number, what: string) {
  const lines = plain(frame).split('\n');
  assert.ok(lines.length <= rows, `${what}: ${lines.length} lines in a ${rows}-row window:\n${plain(frame)}`);
  assert.match(lines[0], /^Switchboard │/, `${what}: the header is the first line:\n${plain(frame)}`);
  assert.match(lines[lines.length - 1], /^\S+ \S/, `${what}: the footer (key hints) is the last line:\n${plain(frame)}`);
}

// Below 40×10, one line; bigger again, the console is back.
test('small windows: at 40×10 every screen, the delete dialog and a long flash keep header and footer', async () => {
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const session = (await api.createSession({ assistantId: ids.active })).record!.id;
  await api.close();
  const screens: Route[] = [
    { name: 'assistants' },
    { name: 'numbers' },
    { name: 'calls' },
    { name: 'files' },
    { name: 'chat' },
    { name: 'assistant', id: ids.plan },
    { name: 'assistant-new' },
    { name: 'assistant-edit', id: ids.plan },
    { name: 'call-filters' },
    { name: 'call-outbound', assistantId: ids.active },
    { name: 'chat-new' },
    { name: 'chat-session', sessionId: session },
    { name: 'file-upload' },
    { name: 'help' },
    { name: 'json', title: 'raw', value: { a: 'b'.repeat(500) } },
  ];
  for (const initialRoute of screens) {
    const c = await openConsole(sb, { initialRoute });
    try {
      c.store.getState().actions.resize(40, 10);
      await c.waitFor('Switchboard');
      await new Promise((r) => setTimeout(r, 300));
      await settle();
      assertFrame(c.frame(), 10, initialRoute.name);
    } finally {
      await c.close();
    }
  }
  const c = await openConsole(sb, { initialRoute: { name: 'files' } });
  try {
    await c.waitFor('SIZE');
    for (const [columns, rows] of [
      [40, 10],
      [50, 12],
      [80, 14],
    ]) {
      c.store.getState().actions.resize(columns, rows);
      await settle();
      await c.press('d');
      await c.waitFor('cancel');
      assertFrame(c.frame(), rows, `the delete dialog at ${columns}×${rows}`);
      c.store.getState().actions.flash(`Could not delete: ${'the service said no. '.repeat(30)}`, 'error');
      await settle();
      assertFrame(c.frame(), rows, `the delete dialog and a long flash at ${columns}×${rows}`);
      await c.press('n');
      await settle();
    }
    c.store.getState().actions.resize(30, 8);
    await c.waitFor('Too small');
    assert.equal(plain(c.frame()).trim().split('\n').length, 1, `one line below the minimum:\n${c.frame()}`);
    assert.match(plain(c.frame()), /Too small \(30×8\); needs 40×10/);
    c.store.getState().actions.resize(80, 24);
    await c.waitFor('SIZE');
    assertFrame(c.frame(), 24, 'resized back to 80×24');
  } finally {
    await c.close();
  }
});

test('a flash of any length: cut to two lines ending in …, the whole text in the debug log, and the flash says where', async () => {
  const logged: string[] = [];
  const c = await openConsole(sb, { initialRoute: { name: 'assistants' }, debugLog: (line) => (logged.push(line), '~/.local/state/switchboard/debug.log') });
  try {
    await c.waitFor('NAME');
    const text = `Could not save the assistant: ${'field x is wrong; '.repeat(200)}\nsecond line\nTHE END`;
    c.store.getState().actions.flash(text, 'error');
    await c.waitFor('full text in');
    const lines = plain(c.frame()).split('\n');
    const at = lines.findIndex((l) => l.startsWith('Could not save'));
    assert.ok(at > 0, c.frame());
    assert.match(lines[at], /…$/, 'the first line ends in …');
    assert.equal(lines[at + 1], '! shows it whole · full text in ~/.local/state/switchboard/debug.log');
    assert.ok(lines.length <= 24, 'the frame still fits');
    assert.equal(logged.length, 1);
    assert.ok(logged[0].includes(text), 'the debug log has the whole text');
    // A short flash is one line, and is not logged.
    c.store.getState().actions.flash('Saved');
    await c.waitFor('Saved');
    assert.equal(logged.length, 1);
    assert.doesNotMatch(c.frame(), /full text in/);
  } finally {
    await c.close();
  }
});

test('an assistant detail scrolls to its last line (the hang-up prompt), keeps the analysis plan JSON indented; y shows whole strings, wrapped', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'assistant', id: ids.plan } });
  try {
    await c.waitFor('Planned');
    c.store.getState().actions.resize(100, 16);
    await settle();
    await c.press('G');
    await settle();
    assert.ok(plain(c.frame()).includes(HANGUP), `G shows the last line:\n${plain(c.frame())}`);
    for (let i = 0; i < 8; i++) await c.press('k');
    await settle();
    for (let i = 0; i < 40; i++) await c.press('j');
    await settle();
    assert.ok(plain(c.frame()).includes(HANGUP), `j to the end shows the last line:\n${plain(c.frame())}`);
    await c.press('g');
    await settle();
    c.store.getState().actions.resize(100, 60);
    await c.waitFor('Analysis plan');
    assert.match(
      plain(c.frame()),
      new RegExp(`^    "summaryPrompt": "${PLAN_PROMPT.replace(/\./g, '\\.')}",$`, 'm'),
      `the plan's JSON keeps its indentation:\n${plain(c.frame())}`,
    );
    assert.match(plain(c.frame()), /^ {6}"type": "object"$/m, 'nested keys keep their deeper indentation');

    await c.press('y');
    await c.waitFor('"analysisPlan"');
    const frame = plain(c.frame());
    assert.ok(frame.replace(/\n\s*/g, ' ').includes('THE-END-OF-THE-PROMPT'), `the whole prompt is in the raw JSON, wrapped:\n${frame}`);
    assert.doesNotMatch(
      frame
        .split('\n')
        .filter((l) => l.includes('word word'))
        .join('\n'),
      /…/,
      'no line of the prompt is cut with …',
    );
    await c.press(KEYS.escape);
  } finally {
    await c.close();
  }
});

test('numbers link picker: the assistant linked now is marked; linking an inactive one asks first', async () => {
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const number = (await api.listPhoneNumbers())[0];
  await api.linkNumber({ phoneNumberId: number.id, assistantId: ids.active });
  await api.close();
  const c = await openConsole(sb, { initialRoute: { name: 'numbers' } });
  try {
    await c.waitFor('DID');
    c.store.getState().actions.push({ name: 'number-link', id: number.id });
    await c.waitFor('Link an assistant');
    await c.waitFor('Sleepy');
    const frame = plain(c.frame());
    const linked = frame.split('\n').filter((l) => l.includes('linked now'));
    assert.equal(linked.length, 1, `one assistant is marked as linked now:\n${frame}`);
    assert.ok(linked[0].includes(ids.active), linked[0]);
    assert.match(
      frame.split('\n').find((l) => l.includes('Sleepy'))!,
      /inactive/,
    );
    await c.type('Sleepy');
    await c.press(KEYS.enter);
    // Linked now: the re-link question, which says the new one is inactive.
    await c.waitFor('Change where inbound calls go?');
    assert.match(c.store.getState().dialog!.message, /they reach Sleepy Inactive, which is inactive and answers no calls/);
    await c.press('n');
    await settle();
    const check = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const still = (await check.listPhoneNumbers()).find((n) => n.id === number.id);
    await check.close();
    assert.equal(still?.assistantId, ids.active, 'declined: the link is unchanged');
    await c.press(KEYS.enter);
    await c.waitFor('Change where inbound calls go?');
    await c.press('y');
    await c.waitFor(/DID[\s\S]*Sleepy Inactive/);
  } finally {
    await c.close();
  }
});

test('an error state of any length: a few lines ending in …, the whole message in the debug log, and where', async () => {
  const { createServer } = await import('node:http');
  // React is CommonJS: its exports are the default export's (a bundle's import() of it has no others).
  const { createElement } = (await import('react')).default;
  const { createConsoleStore } = await import('../../src/store/index.js');
  const { App } = await import('../../src/ui/app.js');
  const { renderApp } = await import('../support/ink.js');
  const message = `The service refused: ${'this part explains at length. '.repeat(300)}\nTHE END`;
  const server = createServer((_req, res) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  const api = createClient({ baseUrl: url, apiKey: 'sk-long-error-test-0000' });
  const logged: string[] = [];
  const store = createConsoleStore(
    api,
    { kind: 'remote', profile: 'long', baseUrl: url },
    { routes: ROUTES, initialRoute: { name: 'files' }, debugLog: (line) => (logged.push(line), '~/.local/state/switchboard/debug.log') },
  );
  const app = await renderApp(createElement(App, { store }));
  try {
    await app.waitFor('full text in');
    const lines = plain(app.frame()).split('\n');
    const first = lines.findIndex((l) => l.includes('The service refused'));
    assert.ok(first > 0, app.frame());
    assert.match(lines[first + 2], /…$/, 'the third line ends in …');
    assert.equal(lines[first + 3], 'full text in ~/.local/state/switchboard/debug.log');
    assert.ok(lines.length <= 24, 'the frame fits the window');
    assertFrame(app.frame(), 24, 'a long error state');
    assert.ok(
      logged.some((l) => l.includes('THE END')),
      'the whole message is in the debug log',
    );
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await api.close();
    await new Promise((r) => server.close(r));
  }
});

test('the call log at 40×10 keeps its table header: the chart goes first when the rows run short', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor('calls/day');
    c.store.getState().actions.resize(40, 10);
    await until(() => plain(c.frame()).split('\n').length <= 10 && /^\W*CREATED\s+\S/m.test(plain(c.frame())), 'the table header at 40×10');
    const lines = plain(c.frame()).split('\n');
    assertFrame(c.frame(), 10, 'the call log at 40×10');
    const header = lines.findIndex((l) => /CREATED/.test(l));
    assert.ok(lines.slice(header + 1).filter((l) => /^\W*\d{4}-\d\d-\d\d/.test(l)).length >= 2, `rows under the header:\n${lines.join('\n')}`);
    c.store.getState().actions.resize(80, 24);
    await until(() => /calls\/day/.test(plain(c.frame())) && /CREATED/.test(plain(c.frame())), 'the chart and the header at 80×24');
  } finally {
    await c.close();
  }
});
