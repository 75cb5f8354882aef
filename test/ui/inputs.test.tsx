// The console's inputs: text fields are the own TextInput (cursor editing, text-buffer.ts), short choice
// lists are ink-select-input (the confirm dialog, a form's choice field); both get their keys from
// the one dispatcher, every key of a burst counts, and none reaches a handler below them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useState } from 'react';
import { Box, Text } from 'ink';
import { KEYS, renderApp, tick } from '../support/ink.js';
import { openConsole, renderForm } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { KeypressProvider, Priority, useKeypress } from '../../src/ui/hooks/keypress.js';
import { TextInput } from '../../src/ui/components/TextInput.js';

/** Writes one string to stdin as a single read (a paste, a held key), then yields. */
async function burst(c: { stdin: { write: (s: string) => void } }, keys: string) {
  c.stdin.write(keys);
  await tick();
}

/** Esc alone: the parser waits a moment to tell it from Alt+key, so the next key must wait too. */
async function escape(c: { press: (...k: string[]) => Promise<void> }) {
  await c.press(KEYS.escape);
  await new Promise((r) => setTimeout(r, 60));
  await tick();
}

/** A text input over a screen-level handler that records every key that reaches it. */
function Field(props: { mask?: boolean; placeholder?: string; onValue: (v: string) => void; below: string[] }) {
  const [v, setV] = useState('');
  useKeypress(
    (input) => {
      props.below.push(input);
      return true;
    },
    { priority: Priority.Screen },
  );
  return (
    <>
      <TextInput
        value={v}
        focus
        mask={props.mask}
        placeholder={props.placeholder}
        onChange={(nv) => {
          setV(nv);
          props.onValue(nv);
        }}
      />
      <Text>{`value=[${v}]`}</Text>
    </>
  );
}

async function field(opts: { mask?: boolean; placeholder?: string } = {}) {
  const state = { value: '', below: [] as string[] };
  const c = await renderApp(
    <KeypressProvider onForceQuit={() => {}}>
      <Field {...opts} below={state.below} onValue={(v) => (state.value = v)} />
    </KeypressProvider>,
  );
  return { c, state };
}

describe('text input', () => {
  test('← → move the cursor; typing, Backspace and Delete edit at the cursor; Home/End jump', async () => {
    const { c, state } = await field();
    await c.type('Rily');
    await c.press(KEYS.left);
    await c.type('e');
    assert.equal(state.value, 'Riley');
    await c.press(KEYS.left, KEYS.backspace); // R i l | e y: the "l" goes
    assert.equal(state.value, 'Riey');
    await c.press(KEYS.right, KEYS.right, KEYS.right); // past the end stays at the end
    await c.type('!');
    assert.equal(state.value, 'Riey!');
    await c.press('\x1b[H'); // Home
    await c.press('\x1b[3~'); // Delete: the character under the cursor
    assert.equal(state.value, 'iey!');
    await c.press(KEYS.left); // at the start already: typing still lands first
    await c.type('R');
    assert.equal(state.value, 'Riey!');
    await c.press('\x1b[F'); // End
    await c.type('?');
    assert.equal(state.value, 'Riey!?');
    assert.match(c.frame(), /^Riey!\?/);
    // The screen below never saw a key the input used.
    assert.deepEqual(state.below, []);
    c.unmount();
  });

  test('a burst of keys in one read applies every key, in order', async () => {
    const { c, state } = await field();
    await burst(c, 'abc');
    assert.equal(state.value, 'abc');
    await burst(c, 'defghijklm');
    await burst(c, KEYS.backspace.repeat(10));
    assert.equal(state.value, 'abc');
    await burst(c, KEYS.backspace.repeat(3));
    assert.equal(state.value, '');
    await burst(c, 'Hello world');
    await burst(c, KEYS.left.repeat(5) + KEYS.backspace + 'X' + KEYS.right.repeat(2) + '\x1b[3~');
    assert.equal(state.value, 'HelloXwold');
    assert.match(c.frame(), /value=\[HelloXwold\]/);
    assert.deepEqual(state.below, []);
    c.unmount();
  });

  test('Enter, Esc, Tab, ↑/↓ and Ctrl keys fall through to the form; a paste is one line of text', async () => {
    const { c, state } = await field();
    await c.type('q');
    await c.press(KEYS.enter, KEYS.tab, KEYS.up, KEYS.ctrlS);
    await escape(c);
    assert.equal(state.value, 'q');
    assert.equal(state.below.length, 5, JSON.stringify(state.below));
    // A paste comes bracketed (terminal.ts turns the mode on); unbracketed, the same bytes are keys.
    await burst(c, '\x1b[200~two\r\nlines\x07\x1b[201~');
    assert.equal(state.value, 'qtwo lines');
    assert.equal(state.below.length, 5, 'the paste reached no one else');
    c.unmount();
  });

  test('a masked input shows • for each character; an empty one shows its placeholder', async () => {
    const { c, state } = await field({ mask: true, placeholder: 'your key' });
    assert.match(c.frame(), /your key/);
    await c.type('sk-secret');
    await c.press(KEYS.left, KEYS.backspace);
    assert.equal(state.value, 'sk-secrt');
    const f = c.frame();
    assert.ok(!f.split('\n')[0].includes('secr'), f);
    assert.match(f, /^•{8}/);
    assert.doesNotMatch(f, /your key/);
    c.unmount();
  });
});

test('text input: a value wider than the field scrolls sideways to keep the cursor in view', async () => {
  function Narrow() {
    const [v, setV] = useState('');
    return (
      <Box>
        <Text>[</Text>
        <TextInput value={v} onChange={setV} focus width={10} />
        <Text>]</Text>
      </Box>
    );
  }
  const c = await renderApp(
    <KeypressProvider onForceQuit={() => {}}>
      <Narrow />
    </KeypressProvider>,
  );
  await burst(c, 'abcdefghijklmnop');
  assert.equal(c.frame(), '[…ijklmnop ]');
  await burst(c, KEYS.left.repeat(12));
  assert.equal(c.frame(), '[…efghijklm]');
  await c.press('\x1b[H');
  assert.equal(c.frame(), '[ abcdefghi]');
  await c.press('\x1b[F');
  assert.equal(c.frame(), '[…ijklmnop ]');
  c.unmount();
});

test('keys typed ahead in one read go where the keys before them led: ↓ then text fills the next field; Tab Tab moves twice', async () => {
  const c = await renderForm(
    [
      { kind: 'text', key: 'a', label: 'First' },
      { kind: 'text', key: 'b', label: 'Second' },
      { kind: 'text', key: 'c', label: 'Third' },
    ],
    { height: 10 },
  );
  await burst(c, 'one' + KEYS.down + 'two' + KEYS.left + KEYS.backspace + KEYS.up + 'x');
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { a: 'onex', b: 'to', c: '' });
  // A run of Tabs is that many Tabs, not text.
  await burst(c, '\t\t');
  await burst(c, 'z');
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { a: 'onex', b: 'to', c: 'z' });
  c.unmount();
});

describe('inputs in the console', () => {
  // The service, in memory: these tests are about the console, not HTTP.
  const sb = createMemoryApi();

  test('create form: the name edits at the cursor, a burst counts every key, q types a q, Ctrl-S saves', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.type('Rily');
      await c.press(KEYS.left);
      await c.type('e');
      await c.waitFor(/› Name +Riley/);
      await c.press(KEYS.left, KEYS.left, KEYS.backspace); // R i | l e y: the "i" goes
      await c.type('io');
      await c.press(KEYS.right, KEYS.right, KEYS.right);
      await burst(c, ' q' + KEYS.backspace.repeat(2) + 'x' + KEYS.left.repeat(3) + KEYS.right.repeat(3));
      await c.waitFor(/› Name +Rioleyx/);
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new', 'q typed, did not quit or leave');
      await c.press(KEYS.ctrlS);
      await c.waitFor('Created assistant Rioleyx');
      assert.ok(
        c.store.getState().assistants.data!.some((a) => a.name === 'Rioleyx'),
        'created under the edited name',
      );
    } finally {
      await c.close();
    }
  });

  test('create form: Enter on a choice field lists its options (ink-select-input); ↓/j/k move, Enter picks, Esc closes', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      await c.press('n');
      await c.waitFor('New assistant');
      await c.type('Picker Bot');
      // Model provider (field 4): Enter lists the providers; ↓ ↓ Enter picks the third.
      await c.press(KEYS.tab, KEYS.tab, KEYS.tab);
      await c.waitFor(/› Model provider +‹ openai ›/);
      await c.press(KEYS.enter);
      const list = await c.waitFor('openrouter');
      assert.match(list, /azure/);
      assert.match(list, /type another…/, 'the catalogue suggests: another value can be typed');
      await c.press(KEYS.down, KEYS.down);
      await c.press(KEYS.enter);
      await c.waitFor(/› Model provider +‹ openrouter ›/);
      assert.doesNotMatch(c.frame(), /azure/, 'the list closed');
      // The model list follows the provider; k/j move in it, Esc closes it unchanged.
      await c.press(KEYS.tab, KEYS.enter);
      await c.waitFor('gpt-oss-120b');
      await burst(c, 'jjk');
      await escape(c);
      assert.doesNotMatch(c.frame(), /gpt-oss-120b/, 'the list closed');
      assert.match(c.frame(), /› Model +‹ gpt-oss-20b ›/);
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new', 'Esc closed the list, not the form');
      await c.press(KEYS.enter);
      await c.waitFor('gpt-oss-120b');
      await burst(c, 'jj');
      await c.press('q', KEYS.enter);
      await c.waitFor(/› Model +‹ gpt-4 ›/);
      await c.press(KEYS.ctrlS);
      await c.waitFor('Created assistant Picker Bot');
      const made = c.store.getState().assistants.data!.find((a) => a.name === 'Picker Bot');
      assert.ok(made);
      assert.equal(made!.model?.provider, 'openrouter');
      assert.equal(made!.model?.model, 'gpt-4');
    } finally {
      await c.close();
    }
  });

  test('the delete dialog is a choice list: ↓ Enter cancels, Esc cancels, j/k stay in it, Enter deletes', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      const f = c.store.getState().files.data!.files[0];
      const exists = () => c.store.getState().files.data!.files.some((x) => x.id === f.id);
      await c.press('d');
      await c.waitFor(`Delete "${f.name}"`);
      assert.match(c.frame(), /❯ cancel/, 'a delete starts on cancel');
      await c.press(KEYS.enter);
      await tick();
      assert.equal(c.store.getState().dialog, null);
      assert.ok(exists(), 'Cancel chosen: the file stays');
      await c.press('d');
      await c.waitFor(`Delete "${f.name}"`);
      await escape(c);
      assert.equal(c.store.getState().dialog, null);
      assert.ok(exists());
      const cursor = c.store.getState().views['files']?.cursor ?? 0;
      await c.press('d');
      await c.waitFor(`Delete "${f.name}"`);
      await burst(c, 'jk');
      await c.press('q', 'j', 'k');
      assert.equal(c.store.getState().views['files']?.cursor ?? 0, cursor, 'j/k moved the dialog, not the list under it');
      assert.equal(c.store.getState().quitting, false);
      await c.press(KEYS.up);
      await c.waitFor(/❯ delete/);
      await c.press(KEYS.enter);
      await c.waitFor(/deleted/i);
      assert.ok(!exists());
    } finally {
      await c.close();
    }
  });
});
