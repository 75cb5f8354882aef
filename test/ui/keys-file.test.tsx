// The user's keys file: it makes a new table that the dispatcher, the footer and help read, and a
// mistake in it is one line naming what was wrong.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '../../src/ui/keymap.js';
import { DEFAULT_ROUTES } from '../../src/ui/screens/routes.js';
import { keymapWith, loadUserKeymap, parseKey } from '../../src/ui/keys-file.js';
import { footerLine } from '../../src/ui/chrome-text.js';
import { keyWith } from '../../src/ui/key-parser.js';
import { ConfigError } from '../../src/config/files.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

const DEFAULT = DEFAULT_ROUTES.keymap;
const plain = keyWith();

describe('keymapWith', () => {
  test('a command remapped in one context answers its new key there, and keeps its own keys elsewhere', () => {
    const t = keymapWith(DEFAULT, { list: { refresh: ['R', 'ctrl-r'] } });
    assert.equal(t.commandFor('R', plain, ['assistants', 'list', 'global']), Command.Refresh);
    assert.equal(t.commandFor('r', keyWith({ ctrl: true }), ['assistants', 'list', 'global']), Command.Refresh);
    assert.equal(t.commandFor('r', plain, ['assistants', 'list', 'global']), undefined, 'r no longer refreshes a list');
    assert.equal(t.commandFor('r', plain, ['assistant', 'detail', 'global']), Command.Refresh, 'a detail keeps r');
    const help = t.bindingsFor(['assistants', 'list', 'global'], { reachable: true }).find((b) => b.command === Command.Refresh);
    assert.equal(help?.keys, 'R/Ctrl-R');
    assert.match(footerLine(t, [Command.Refresh], 200, ['assistants', 'list', 'global']), /R\/Ctrl-R refresh/);
    // The default keymap is not changed: another console (or a test) still has r.
    assert.equal(DEFAULT.commandFor('r', plain, ['assistants', 'list', 'global']), Command.Refresh);
  });

  test("a list's sort and a row key, remapped for one list, keep their own keys on the others", () => {
    // `sort` is every list's (bound by its component), `copyId` a route's own (its spec): each is remapped by the list's context.
    const t = keymapWith(DEFAULT, { calls: { sort: 'X', copyId: 'I' } });
    const calls = ['calls', 'list', 'global'] as const;
    assert.equal(t.commandFor('X', plain, [...calls]), Command.Sort);
    assert.equal(t.commandFor('O', plain, [...calls]), undefined, 'O no longer sorts the call log');
    assert.equal(t.commandFor('I', plain, [...calls]), 'copyId');
    assert.equal(t.commandFor('Y', plain, [...calls]), undefined);
    for (const list of ['assistants', 'files', 'tests'] as const) {
      assert.equal(t.commandFor('O', plain, [list, 'list', 'global']), Command.Sort, `${list} keeps O`);
    }
    assert.equal(t.commandFor('Y', plain, ['assistants', 'list', 'global']), 'copyId', 'the assistants keep Y');
    // Help lists sort in each list's own section, not under every list and detail.
    const section = (title: string) => DEFAULT.sections.find((x) => x.title === title)!.contexts;
    assert.ok(DEFAULT.bindingsFor(section('Tests')).some((b) => b.command === Command.Sort));
    assert.ok(!DEFAULT.bindingsFor(section('Lists and details')).some((b) => b.command === Command.Sort));
  });

  test('mistakes are one line naming them', () => {
    const line = (raw: unknown) => {
      try {
        keymapWith(DEFAULT, raw);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    assert.match(line({ lists: { refresh: 'R' } }), /^"lists" is not a key context; known: global, /);
    assert.match(line({ list: { refrsh: 'R' } }), /^list: "refrsh" is not a command; in list: .*refresh/);
    assert.match(line({ calls: { upload: 'x' } }), /^calls: "upload" has no key in calls/);
    assert.match(line({ list: { refresh: 'j' } }), /^j is bound twice in list: down and refresh; give one of them another key$/);
    assert.match(line({ list: { refresh: 'ctrl-1' } }), /^list\.refresh: "ctrl-1": ctrl- goes with a letter$/);
    assert.match(line({ list: { refresh: 'ab' } }), /^list\.refresh: "ab" is not a key/);
    assert.match(line({ global: { forceQuit: 'x' } }), /^global: forceQuit stays on Ctrl-C$/);
    for (const l of [line({ lists: {} }), line({ list: { refresh: 'j' } })]) assert.doesNotMatch(l, /\n/);
  });

  test('keys as written', () => {
    assert.deepEqual(parseKey('Q'), { char: 'Q' });
    assert.deepEqual(parseKey('-'), { char: '-' });
    assert.deepEqual(parseKey('space'), { char: ' ' });
    assert.deepEqual(parseKey('ctrl-R'), { ctrl: true, char: 'r' });
    assert.deepEqual(parseKey('shift-tab'), { shift: true, key: 'tab' });
    assert.deepEqual(parseKey('alt-enter'), { alt: true, key: 'return' });
  });
});

describe('the keys file', () => {
  const home = mkdtempSync(join(tmpdir(), 'switchboard-keys-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  after(() => rmSync(home, { recursive: true, force: true }));

  test('none: the default table; a mistake: a ConfigError naming the file', async () => {
    assert.equal(await loadUserKeymap(DEFAULT, env), DEFAULT);
    mkdirSync(join(home, 'config', 'switchboard'), { recursive: true });
    writeFileSync(join(home, 'config', 'switchboard', 'keys.yaml'), 'list:\n  refresh: j\n');
    await assert.rejects(loadUserKeymap(DEFAULT, env), (err: Error) => err instanceof ConfigError && /keys\.yaml: j is bound twice in list/.test(err.message));
    writeFileSync(join(home, 'config', 'switchboard', 'keys.yaml'), 'list: [\n');
    await assert.rejects(loadUserKeymap(DEFAULT, env), (err: Error) => err instanceof ConfigError && /keys\.yaml: /.test(err.message));
  });

  test("in the console: the file's key runs the command, the footer and help show it", async () => {
    writeFileSync(join(home, 'config', 'switchboard', 'keys.yaml'), 'assistants:\n  new: I\nglobal:\n  help: F1x\n'.replace('F1x', 'H'));
    const keymap = await loadUserKeymap(DEFAULT, env);
    const api = createMemoryApi();
    const c = await openConsole(api, { initialRoute: { name: 'assistants' }, keymap });
    try {
      await c.waitFor('Assistants');
      await c.waitFor('I new');
      assert.match(c.frame(), /H help/);
      await c.press('n');
      assert.equal(c.store.getState().stack.length, 1, 'n is no longer new');
      await c.press('H');
      await c.waitFor(/I\s+new/);
      await c.press('\u001b');
      await new Promise((r) => setTimeout(r, 50));
      await c.press('I');
      assert.equal(c.store.getState().stack.at(-1)?.name, 'assistant-new');
    } finally {
      await c.close();
    }
  });
});
