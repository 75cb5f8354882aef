// `v` in a real terminal (tmux), with a scripted $PAGER: a call's page (fields, transcript) and a
// record's raw JSON go to the pager on its stdin, escaped (no raw ESC from the service reaches it);
// the pager has the terminal while it runs, and the console comes back when it exits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { viewCall } from '../../src/api/records.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

let home: string;
const sb = sandboxForFile();
let api: VoiceAgentApi;
let term: TmuxSession | undefined;

before(async () => {
  await sb.started;
  home = mkdtempSync(join(tmpdir(), 'sb-pager-'));
  api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
});
after(async () => {
  term?.kill();
  await api.close();
  removeTree(home);
});

// The pager: writes what it read to <state>.<run>, says so on the terminal, and holds it until the test says go.
const PAGER_SCRIPT = `
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const state = process.env.PAGE_STATE;
let n = 1;
while (existsSync(state + '.' + n)) n++;
writeFileSync(state + '.' + n, readFileSync(0));
process.stdout.write('PAGER RUN ' + n + ' HAS THE TERMINAL\\n');
for (let i = 0; i < 400 && !existsSync(state + '.go' + n); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
`;

test('v shows a call, and a raw JSON, in $PAGER, escaped; the console comes back after it', { skip }, async () => {
  const pager = join(home, 'pager.mjs');
  const state = join(home, 'page');
  writeFileSync(pager, PAGER_SCRIPT);
  const listed = (await api.listCalls({})).find((c) => c.status === 'ended')!;
  const call = await api.getCall(listed.id);
  const [assistant] = await api.listAssistants();
  await api.updateAssistant(assistant!.id, { description: 'Red \x1b[31mALERT\x1b[0m and a bell\x07' });
  term = startTmux({
    name: `sb-pager-${process.pid}`,
    cwd: root,
    command: `${JSON.stringify(process.execPath)} ${cli}`,
    env: {
      ...homeEnv(home),
      TERM: 'xterm-256color',
      SWITCHBOARD_BASE_URL: sb.url,
      SWITCHBOARD_API_KEY: sb.apiKey,
      PAGER: `${JSON.stringify(process.execPath)} ${JSON.stringify(pager)}`,
      PAGE_STATE: state,
    },
  });
  const t = term;
  await t.waitFor(/NAME[\s\S]*UPDATED/);

  // A call's page: its fields and transcript, in the pager, which has the terminal until it exits.
  t.type(`:calls ${call.id}`);
  t.keys('Enter');
  await t.waitFor('Transcript');
  await t.waitFor('v view in $PAGER');
  t.keys('v');
  await t.waitFor('PAGER RUN 1 HAS THE TERMINAL');
  const paged = readFileSync(`${state}.1`, 'utf8');
  assert.match(paged, new RegExp(`^Call ${call.id}\\n`));
  assert.match(paged, /\nTranscript\n/);
  const said = viewCall(call).turns.find((x) => x.role !== 'system' && x.text)!.text;
  assert.ok(paged.includes(said.split(/\s+/).slice(0, 4).join(' ')), `the transcript's first words in:\n${paged}`);
  writeFileSync(`${state}.go1`, '');
  // A pager not known to hold the screen until quit: what it printed stays until a key is pressed.
  await t.waitFor(/PAGER RUN 1 HAS THE TERMINAL[\s\S]*press any key to return to switchboard/);
  t.keys('Space');
  await t.waitFor(/Transcript[\s\S]*v view in \$PAGER/);
  assert.ok(!t.screen().includes('PAGER RUN'), 'the console drew its whole screen again');

  // A record's raw JSON: exact JSON, the service's escape sequences written as \u escapes.
  t.type(`:assistants ${assistant!.id}`);
  t.keys('Enter');
  await t.waitFor('System prompt');
  t.keys('y');
  await t.waitFor('JSON assistant');
  t.keys('v');
  await t.waitFor('PAGER RUN 2 HAS THE TERMINAL');
  const json = readFileSync(`${state}.2`, 'utf8');
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(json), 'no raw control character reaches the pager');
  assert.equal((JSON.parse(json) as { description: string }).description, 'Red \x1b[31mALERT\x1b[0m and a bell\x07', 'the same value, parsed back');
  writeFileSync(`${state}.go2`, '');
  await t.waitFor('press any key to return to switchboard');
  // An arrow key (a whole escape sequence) is the one key: none of it reaches the console.
  t.keys('Down');
  await t.waitFor(/JSON assistant[\s\S]*v view in \$PAGER/);

  t.keys('q');
  assert.equal(await t.waitForExit(), 0);
});

test('PAGER=cat: the text it printed stays on the screen until a key is pressed, then the console comes back', { skip }, async () => {
  const listed = (await api.listCalls({})).find((c) => c.status === 'ended')!;
  const catHome = mkdtempSync(join(tmpdir(), 'sb-pager-cat-'));
  const cat = startTmux({
    name: `sb-pager-cat-${process.pid}`,
    cwd: root,
    command: `${JSON.stringify(process.execPath)} ${cli}`,
    env: { ...homeEnv(catHome), TERM: 'xterm-256color', SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey, PAGER: 'cat' },
  });
  try {
    await cat.waitFor(/NAME[\s\S]*UPDATED/);
    cat.type(`:calls ${listed.id}`);
    cat.keys('Enter');
    await cat.waitFor('v view in $PAGER');
    cat.keys('v');
    const shown = await cat.waitFor(/press any key to return to switchboard/);
    assert.match(shown, new RegExp(`Call ${listed.id}`), 'what cat printed is on the screen');
    assert.ok(!shown.includes('v view in $PAGER'), 'the console has not drawn over it');
    // Still there a moment later: the console waits for the key, not for a clock.
    await new Promise((r) => setTimeout(r, 300));
    assert.match(cat.screen(), /press any key to return to switchboard/);
    cat.keys('q');
    await cat.waitFor(/Transcript[\s\S]*v view in \$PAGER/);
    assert.ok(!cat.screen().includes('press any key'), 'the console drew its whole screen again');
    cat.keys('q');
    assert.equal(await cat.waitForExit(), 0, 'the q that answered the prompt was not also a key of the console');
  } finally {
    cat.kill();
    removeTree(catHome);
  }
});
