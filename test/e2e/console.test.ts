// End to end in a real terminal: the built CLI on a fresh data dir inside tmux. Walks every
// screen, opens a call, creates an assistant, links a number, uploads and deletes a file, quits.
// SWITCHBOARD_SCREENSHOTS=1 also writes a text screenshot per screen to assets/screenshots/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
// SWITCHBOARD_E2E_CLI points at another build (e.g. a copy, while someone else rebuilds dist/).
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);
if (skip) console.log(`# skipping the terminal end-to-end test: ${skip}`);

let home: string;
let term: TmuxSession | undefined;
const others: TmuxSession[] = [];

before(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-e2e-'));
});
after(() => {
  term?.kill();
  for (const t of others) t.kill();
  removeTree(home);
});

function shot(name: string, screen: string) {
  if (process.env.SWITCHBOARD_SCREENSHOTS !== '1') return;
  const dir = join(root, 'assets/screenshots');
  mkdirSync(dir, { recursive: true });
  // Mask the loopback port: it changes every run.
  writeFileSync(join(dir, `${name}.txt`), screen.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/[ \t]+$/gm, ''));
}

test('the console in a real terminal: every screen, a call, a new assistant, a link, an upload and a delete', { skip }, async () => {
  const kb = join(home, 'shipping-faq.txt');
  writeFileSync(kb, 'Orders ship within two business days.\n');
  const env = {
    ...homeEnv(home),
    TERM: 'xterm-256color',
    SWITCHBOARD_PROFILE: undefined,
  };
  term = startTmux({ name: `sb-e2e-${process.pid}`, cwd: root, env, command: `${JSON.stringify(process.execPath)} ${cli}` });
  const t = term;

  // Assistants (the seeded sandbox), detail, back.
  shot('assistants', await t.waitFor(/sandbox .*● online[\s\S]*NAME/));
  t.keys('Enter');
  shot('assistant-detail', await t.waitFor('System prompt'));
  t.keys('Escape');
  await t.waitFor('UPDATED');

  // Create an assistant.
  t.keys('n');
  shot('assistant-new', await t.waitFor('New assistant'));
  t.type('E2E Bot');
  // Wait for typed text to show before the next key: a key in the same read would count as pasted text.
  await t.waitFor('E2E Bot');
  t.keys('C-s');
  await t.waitFor('Created assistant E2E Bot');
  // Wait after Escape: Esc followed at once by a key reads as Alt+key, in any terminal.
  t.keys('Escape');
  await t.waitFor('UPDATED');

  // Numbers: link the new assistant to the first number.
  t.keys('2');
  shot('numbers', await t.waitFor('PROVIDER'));
  t.keys('l');
  await t.waitFor('Link an assistant');
  t.type('E2E');
  await t.waitFor('filter: E2E');
  t.keys('Enter');
  // The first number sends its calls to a seeded assistant: moving them is asked first.
  await t.waitFor('Change where inbound calls go?');
  t.keys('y');
  await t.waitFor(/\+\d+ .*E2E Bot/);

  // Calls: the log with its chart, one call's transcript.
  t.keys('3');
  shot('calls', await t.waitFor('calls/day'));
  // Shrink to 80×24 and back: the frame is redrawn whole, header on top, footer at the bottom.
  t.resize(80, 24);
  const small = await t.waitFor(/^CREATED +(ID +)?TYPE +STATUS +ASSISTANT +CUSTOMER +DUR$/m);
  const lines = small.split('\n');
  assert.match(lines[0], /^Switchboard │/);
  assert.ok(lines.every((l) => [...l].length <= 80));
  assert.equal(lines.filter((l) => l.startsWith('Switchboard │')).length, 1, 'one header: nothing left over from the wider frame');
  t.resize(120, 40);
  await t.waitFor(/CUSTOMER +(NAME +)?DUR +COST/);
  t.keys('Enter');
  await t.waitFor('Transcript');
  t.keys('G');
  shot('call-detail', await t.waitFor(/Assistant:|Caller:/));
  t.keys('Escape');
  await t.waitFor('calls/day');

  // Files: upload, then delete it after the confirmation that names it.
  t.keys('5');
  shot('files', await t.waitFor('SIZE'));
  t.keys('u');
  await t.waitFor('Upload a knowledge-base file');
  t.type(kb);
  await t.waitFor('shipping-faq.txt');
  t.keys('C-s');
  await t.waitFor('integrationId');
  t.keys('d');
  await t.waitFor('Delete "shipping-faq.txt"');
  t.keys('y');
  await t.waitFor(/deleted/i);
  const afterDelete = await t.waitFor('SIZE'); // back on the list
  assert.doesNotMatch(afterDelete.split('\n').slice(0, -3).join('\n'), /shipping-faq\.txt/, 'the file left the list');

  // Help, then quit: the terminal is handed back and the exit code is 0.
  t.keys('?');
  shot('help', await t.waitFor('Everywhere'));
  t.keys('Escape');
  await t.waitFor('SIZE');
  t.keys('q');
  assert.equal(await t.waitForExit(), 0);
  assert.doesNotMatch(t.screen(), /Switchboard │/, 'the alternate screen was left');
});

for (const how of ['Ctrl-C', 'SIGTERM'] as const) {
  test(`${how} quits from inside a form and hands the terminal back`, { skip }, async () => {
    const dir = join(home, how);
    const t = startTmux({
      name: `sb-e2e-${how}-${process.pid}`,
      cwd: root,
      command: `${JSON.stringify(process.execPath)} ${cli}`,
      env: { ...homeEnv(dir), TERM: 'xterm-256color' },
    });
    others.push(t);
    await t.waitFor(/● online[\s\S]*NAME/);
    t.keys('n');
    await t.waitFor('New assistant');
    if (how === 'Ctrl-C') t.keys('C-c');
    else process.kill(t.pid(), 'SIGTERM');
    assert.equal(await t.waitForExit(), 0);
    assert.doesNotMatch(t.screen(), /Switchboard │|New assistant/, 'the alternate screen was left');
  });
}
