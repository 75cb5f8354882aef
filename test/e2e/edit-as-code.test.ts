// The console's `E` in a real terminal (tmux), with a scripted $EDITOR: the assistant opens as
// YAML, an invalid save reopens the editor with the error on top and the text kept, the diff
// shows both edits, Enter applies them (checked on the service); a second edit is discarded
// with Esc (the service unchanged); a change made on the service meanwhile is refused; Ctrl-C
// while the editor runs is the editor's, not the console's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);

let home: string;
const sb = sandboxForFile();
let api: VoiceAgentApi;
let term: TmuxSession | undefined;

before(async () => {
  await sb.started;
  home = mkdtempSync(join(tmpdir(), 'sb-edit-'));
  api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
});
after(async () => {
  term?.kill();
  await api.close();
  removeTree(home);
});

// The editor: each run appends what it was given to a log, then edits as its run number says.
const EDITOR_SCRIPT = `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const state = process.env.EDIT_STATE;
let n = 1;
try { n = Number(readFileSync(state + '.n', 'utf8')) + 1; } catch {}
writeFileSync(state + '.n', String(n));
const text = readFileSync(file, 'utf8');
appendFileSync(state + '.log', '=== run ' + n + '\\n' + text);
let out = text;
if (n === 1) out = text.replace(/^description: .*$/m, 'description: Edited in vi') + 'analysisPlan: [unclosed\\n';
if (n === 2)
  out = text.replace(/^analysisPlan: \\[unclosed\\n/m, '').replace(/^( +content: )(.*)$/m, (_, k, v) => k + v.replace(/\\.?$/, '. Always spell names back.'));
if (n === 3) out = text.replace(/^description: .*$/m, 'description: Never applied');
if (n === 4) out = text.replace(/^description: .*$/m, 'description: Too late');
if (n === 5) {
  // Hold the terminal until the test says go (it sends Ctrl-C meanwhile, which vi would take as a key).
  process.on('SIGINT', () => undefined);
  writeFileSync(state + '.editing', '');
  for (let i = 0; i < 200 && !existsSync(state + '.go'); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  out = text.replace(/^description: .*$/m, 'description: After Ctrl-C');
}
writeFileSync(file, out);
`;

test('E edits an assistant as YAML in $EDITOR: invalid YAML reopens, Enter applies, Esc discards, drift is refused', { skip }, async () => {
  const editor = join(home, 'editor.mjs');
  const state = join(home, 'edit');
  writeFileSync(editor, EDITOR_SCRIPT);
  const [first] = await api.listAssistants();
  const before = await api.getAssistant(first!.id);
  term = startTmux({
    name: `sb-edit-${process.pid}`,
    cwd: root,
    command: `${JSON.stringify(process.execPath)} ${cli}`,
    env: {
      ...homeEnv(home),
      TERM: 'xterm-256color',
      SWITCHBOARD_BASE_URL: sb.url,
      SWITCHBOARD_API_KEY: sb.apiKey,
      EDITOR: `${JSON.stringify(process.execPath)} ${JSON.stringify(editor)}`,
      EDIT_STATE: state,
    },
  });
  const t = term;
  const list = await t.waitFor(/NAME[\s\S]*UPDATED/);
  assert.match(list, /E edit as YAML/);

  // On the list: E runs the editor twice (the first save is invalid), then shows the diff.
  t.keys('E');
  const review = await t.waitFor('Changes to');
  const log = readFileSync(`${state}.log`, 'utf8');
  const [run1, run2] = log.split(/^=== run \d\n/m).slice(1);
  assert.match(run1!, new RegExp(`^# .*\\nid: ${first!.id}\\nname: `), 'the same YAML as pull, id first');
  assert.match(run2!, /^# Error: line \d+, column \d+: invalid YAML/, 'the error on top');
  assert.match(run2!, /^description: Edited in vi$/m, 'the text kept');
  assert.match(review, /description: ".*" → "Edited in vi"/);
  assert.match(review, /model\.messages\[0\]\.content:\n {2}@@ [\s\S]* {2}\+You [\s\S]*Always\s+spell\s+names\s+back/);
  assert.match(review, /Enter apply the changes/);
  assert.equal((await api.getAssistant(first!.id)).updatedAt, before.updatedAt, 'nothing sent before Enter');

  t.keys('Enter');
  await t.waitFor(/Saved .*: description, model/);
  const applied = await api.getAssistant(first!.id);
  assert.equal(applied.description, 'Edited in vi');
  assert.match(applied.model!.messages![0]!.content ?? '', /Always spell names back\.$/);

  // Open the detail, E again, Esc discards: the service is unchanged.
  t.keys('Enter');
  await t.waitFor('System prompt');
  t.keys('E');
  await t.waitFor(/Changes to[\s\S]*Never applied/);
  t.keys('Escape');
  await t.waitFor('Discarded the edit');
  assert.equal((await api.getAssistant(first!.id)).description, 'Edited in vi');
  await t.waitFor('System prompt');

  // A change on the service while the diff is open: Enter refuses, naming the field.
  t.keys('E');
  await t.waitFor(/Changes to[\s\S]*Too late/);
  await api.updateAssistant(first!.id, { name: 'Renamed elsewhere' });
  t.keys('Enter');
  await t.waitFor(/Not applied: changed on the service since you opened it: name/);
  assert.equal((await api.getAssistant(first!.id)).description, 'Edited in vi');
  t.keys('Escape');
  await t.waitFor('System prompt');

  // Ctrl-C while the editor has the terminal is the editor's: the console is still there after it.
  t.keys('E');
  for (let i = 0; i < 100 && !existsSync(`${state}.editing`); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(`${state}.editing`), 'the editor runs');
  t.keys('C-c');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(t.exitStatus(), null, 'the console is still running');
  writeFileSync(`${state}.go`, '');
  await t.waitFor(/Changes to[\s\S]*After Ctrl-C/);
  t.keys('Escape');
  await t.waitFor('System prompt');

  t.keys('q');
  assert.equal(await t.waitForExit(), 0);
});
