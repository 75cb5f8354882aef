// Keys the footer offers do something, and the keys every screen has work on pickers too: `:`
// opens the palette over a picker (it is filter text only while the filter is typed), and a
// top-level screen does not offer `Esc back`, which has nowhere to go there.
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

const footer = (frame: string) => frame.trimEnd().split('\n').at(-1) ?? '';

test('a top-level screen offers no Esc back; one with a filter, or below another, does', async () => {
  const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'assistants' } });
  try {
    await c.waitFor('NAME');
    assert.doesNotMatch(footer(c.frame()), /Esc back/, footer(c.frame()));
    await c.press(KEYS.enter);
    await c.waitFor('System prompt');
    assert.match(footer(c.frame()), /Esc back/);
    await c.press(KEYS.escape);
    await until(() => c.store.getState().stack.length === 1);
    await c.press('/');
    await c.type('Ri');
    await c.press(KEYS.enter);
    await c.waitFor(/^\/Ri/m);
    assert.match(footer(c.frame()), /Esc back/, 'Esc clears the filter');
  } finally {
    await c.close();
  }
});

test(': on a picker opens the palette; after / it is filter text', async () => {
  // Its own data dir: the sessions other tests' consoles remember are not this one's.
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-walk-keys-'));
  const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'chat' }, target: { dataDir: dir } });
  try {
    await c.waitFor('No chats yet');
    await c.press('n');
    await c.waitFor('pick the assistant');
    await c.press(':');
    await until(() => c.store.getState().mode === 'command', 'the palette opens');
    await c.press(KEYS.escape);
    await until(() => c.store.getState().mode === 'normal');
    await c.press('/', ':');
    await c.waitFor('filter: :');
    assert.equal(c.store.getState().mode, 'normal');
    // While the filter is typed, : and / are its text: the footer does not offer them.
    await until(() => !/: command|\/ filter/.test(footer(c.frame())), 'a footer without : command and / filter').catch(() =>
      assert.fail(`the footer offers keys that type: ${footer(c.frame())}`),
    );
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a form offers → / Space "next option / toggle" on a toggle or a choice, not on a text field (where they move the cursor and type)', async () => {
  const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'assistant-new' } });
  try {
    await c.waitFor('Name');
    const offered = () => /next option/.test(footer(c.frame()));
    await until(() => !offered(), 'a footer without next option on Name').catch(() => assert.fail(`on Name the footer offers: ${footer(c.frame())}`));
    await c.press(KEYS.tab, KEYS.tab);
    await until(offered, 'next option on Active').catch(() => assert.fail(`on Active the footer offers: ${footer(c.frame())}`));
    await c.press(KEYS.tab);
    await until(offered, 'next option on Model provider');
  } finally {
    await c.close();
  }
});
