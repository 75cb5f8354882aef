// The copy keys in a real terminal (tmux): `Y` writes the selected record's id as one OSC 52
// sequence, `#` a number's DID; the pane's raw output (pipe-pane) is read, so what the console
// wrote is checked byte for byte. No other key writes an OSC.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, removeTree, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const skip = tmuxSkip();

const sb = sandboxForFile({}, { skip });
let home: CliHome;
let dir: string;
const sessions: TmuxSession[] = [];
before(() => {
  home = tempHome();
  dir = mkdtempSync(join(tmpdir(), 'sb-copy-'));
});
after(() => {
  sessions.forEach((s) => s.kill());
  home?.cleanup();
  if (dir) removeTree(dir);
});

/** The OSC sequences in raw output, decoded where they are OSC 52. */
const oscs = (raw: string) => [...raw.matchAll(/\x1b\](\d+);([^\x07\x1b]*)(?:\x07|\x1b\\)/g)].map((m) => ({ code: m[1], body: m[2] }));
const clipboard = (body: string) => Buffer.from(body.replace(/^c;/, ''), 'base64').toString('utf8');

async function until<T>(get: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never saw ${what}`);
}

describe('copy keys', { skip }, () => {
  test('Y copies the id, # the DID, each as one OSC 52; moving and opening write none', { timeout: 10 * 60_000 }, async () => {
    const t = startTmux({
      name: `sb-copy-${process.pid}`,
      cwd: root,
      env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey, TERM: 'xterm-256color' },
      command: [process.execPath, CLI].map((a) => JSON.stringify(a)).join(' '),
      width: 160,
      height: 30,
    });
    sessions.push(t);
    await t.waitFor('NAME');
    const rawFile = join(dir, 'raw');
    t.record(rawFile);
    const raw = () => (existsSync(rawFile) ? readFileSync(rawFile, 'latin1') : '');
    // Moves, a screen change and back: frames, but no OSC.
    t.keys('j', 'k', '2');
    await t.waitFor('DID');
    t.keys('1');
    await t.waitFor('NAME');
    assert.deepEqual(oscs(raw()), [], 'no OSC before a copy key');

    const assistants = (await (await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } })).json()) as
      { id: string }[] | { assistants: { id: string }[] };
    const ids = (Array.isArray(assistants) ? assistants : assistants.assistants).map((a) => a.id);
    t.keys('Y');
    const copied = await until(() => oscs(raw())[0], 'an OSC 52 after Y');
    assert.equal(copied.code, '52');
    const id = clipboard(copied.body);
    assert.ok(ids.includes(id), `an assistant's id on the clipboard, got ${JSON.stringify(id)}`);
    await t.waitFor(`Sent the id ${id}`);

    t.keys('2');
    const screen = await t.waitFor('DID');
    const did = /^\s*(\+\d{6,15})\s/m.exec(
      screen
        .split('\n')
        .slice(screen.split('\n').findIndex((l) => l.includes('DID')) + 1)
        .join('\n'),
    )?.[1];
    assert.ok(did, `a DID on the first row:\n${screen}`);
    t.keys('#');
    const second = await until(() => oscs(raw())[1], 'an OSC 52 after #');
    assert.equal(clipboard(second.body), did);
    await t.waitFor(`Sent the DID ${did}`);
    assert.equal(oscs(raw()).length, 2, 'one OSC a copy key, nothing else');
    t.keys('C-c');
    assert.equal(await t.waitForExit(), 0);
  });
});
