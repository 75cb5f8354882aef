// Line editing everywhere: every text input (form fields, path input, palette, filter, chat draft,
// the system prompt) is the one TextInput on the one text buffer, so the same keys edit the same
// way in each, and a value longer than its box scrolls so the cursor stays in view.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useState } from 'react';
import { Box, Text } from 'ink';
import { KEYS, renderApp, tick } from '../support/ink.js';
import { openConsole, renderForm, PROMPT_AND_NAME } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { KeypressProvider } from '../../src/ui/hooks/keypress.js';
import { TextInput } from '../../src/ui/components/TextInput.js';
import { topRoute } from '../../src/store/index.js';
import { cellWidth } from '../../src/format/cells.js';

const ALT_LEFT = '\x1b[1;3D';
const ALT_RIGHT = '\x1b[1;3C';
const ALT_B = '\x1bb';
const ALT_F = '\x1bf';
const CTRL = { a: '\x01', e: '\x05', u: '\x15', k: '\x0b', w: '\x17', j: '\n' } as const;
const ALT_ENTER = '\x1b\r';
const HOME = '\x1b[H';
const DELETE = '\x1b[3~';

function Field(props: { width?: number; onValue: (v: string) => void }) {
  const [v, setV] = useState('');
  return (
    <Box>
      <Text>[</Text>
      <TextInput
        value={v}
        focus
        width={props.width}
        onChange={(nv) => {
          setV(nv);
          props.onValue(nv);
        }}
      />
      <Text>]</Text>
    </Box>
  );
}

async function field(width?: number) {
  const state = { value: '' };
  const c = await renderApp(
    <KeypressProvider onForceQuit={() => {}}>
      <Field width={width} onValue={(v) => (state.value = v)} />
    </KeypressProvider>,
  );
  return { c, state };
}

describe('line editing', () => {
  test('Alt-←/→ and Alt-b/f move by word; Ctrl-A/Ctrl-E and Home/End to the ends; Delete at the cursor', async () => {
    const { c, state } = await field();
    await c.type('say hello world');
    await c.press(ALT_LEFT);
    await c.type('big ');
    assert.equal(state.value, 'say hello big world');
    await c.press(ALT_B, ALT_B);
    await c.type('_');
    assert.equal(state.value, 'say _hello big world');
    await c.press(ALT_F, ALT_RIGHT);
    await c.type('!');
    assert.equal(state.value, 'say _hello big! world');
    await c.press(CTRL.a);
    await c.type('>');
    await c.press(CTRL.e);
    await c.type('<');
    assert.equal(state.value, '>say _hello big! world<');
    await c.press(HOME, DELETE);
    assert.equal(state.value, 'say _hello big! world<');
    c.unmount();
  });

  test('Ctrl-W deletes the word before the cursor, Ctrl-U to the start, Ctrl-K to the end', async () => {
    const { c, state } = await field();
    await c.type('git commit -m wip');
    await c.press(CTRL.w);
    assert.equal(state.value, 'git commit -m ');
    await c.press(CTRL.w);
    assert.equal(state.value, 'git commit ');
    await c.type('--amend');
    await c.press(ALT_B);
    await c.press(CTRL.k);
    assert.equal(state.value, 'git commit --');
    await c.press(CTRL.u);
    assert.equal(state.value, '');
    await c.type('a b');
    await c.press(KEYS.left, CTRL.u);
    assert.equal(state.value, 'b');
    c.unmount();
  });

  test('an emoji or a CJK glyph moves and deletes as one, and a long value scrolls in cells', async () => {
    const { c, state } = await field(10);
    await c.type('ab👍🏽c');
    await c.press(KEYS.left, KEYS.backspace);
    assert.equal(state.value, 'abc', 'the emoji with its skin tone went whole');
    await c.type('👍🏽');
    await c.press(KEYS.left, DELETE);
    assert.equal(state.value, 'abc');
    await c.press(CTRL.u, CTRL.k);
    await c.type('日本語のテキストです');
    // 10 glyphs of 2 cells: the box (10 cells) shows '…' and the last glyphs, never more than its width.
    const row = c.frame().split('\n')[0];
    assert.equal(cellWidth(row), 12, row);
    assert.match(row, /^\[….*です ?\]$/);
    await c.press(HOME);
    assert.match(c.frame().split('\n')[0], /^\[ 日本語の/);
    c.unmount();
  });
});

describe('multi-line text', () => {
  test('the system prompt edits at the cursor across lines and scrolls inside a box of five rows', async () => {
    const c = await renderForm(PROMPT_AND_NAME, { height: 14 });
    await c.type('one');
    await c.press(KEYS.enter);
    await c.type('two');
    await c.press(KEYS.up); // to the first row: ↑ moves in the text, not to another field
    await c.press(CTRL.e);
    await c.type('!');
    await c.press(KEYS.down, CTRL.e);
    for (let i = 3; i <= 8; i++) {
      await c.press(KEYS.enter);
      await c.type(`line ${i}`);
    }
    await c.press(KEYS.ctrlS);
    assert.deepEqual(c.submitted(), { p: 'one!\ntwo\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8', n: '' });
    const f = c.frame();
    assert.match(f, /line 8/);
    assert.doesNotMatch(f, /one!/, 'the first rows scrolled out of the five-row box');
    c.unmount();
  });
});

describe('the chat draft', () => {
  // The service, in memory: these tests are about the console, not HTTP.
  const sb = createMemoryApi();

  test('a filter or palette line longer than the terminal scrolls sideways: one row, the cursor end in view', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      const columns = c.store.getState().columns;
      await c.press('/');
      c.stdin.write('x'.repeat(columns + 40));
      await tick();
      await c.type('END');
      let row = c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('/'))!;
      assert.match(row, /^\/….*xEND ?$/, row);
      assert.ok(cellWidth(row) <= columns, `${cellWidth(row)} cells in ${columns}`);
      await c.press(HOME);
      row = c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('/'))!;
      assert.match(row, /^\/ x+$/, row);
      await c.press(KEYS.escape);
      await new Promise((r) => setTimeout(r, 60));
      await c.press(':');
      c.stdin.write('calls ' + 'y'.repeat(columns));
      await tick();
      row = c
        .frame()
        .split('\n')
        .find((l) => l.startsWith(':'))!;
      // The end typed is in view; what the argument matches may follow it (the palette's candidates).
      assert.ok(cellWidth(row) <= columns && /y ?(?: {2}\S.*)?\s*$/.test(row), row);
    } finally {
      await c.close();
    }
  });

  test('Alt-Enter and Ctrl-J add a line, Enter sends; the box grows to five rows and then scrolls; Ctrl-W and Alt-← edit it', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      await c.press('c');
      await c.waitFor('type a message');
      const id = (topRoute(c.store.getState()) as { sessionId: string }).sessionId;
      const draft = () => c.store.getState().chat.conversations[id].draft;
      await c.type('Hello there');
      await c.press(ALT_ENTER);
      await c.type('second');
      await c.press(CTRL.j);
      await c.type('third wrong');
      await c.press(CTRL.w);
      await c.type('line');
      assert.equal(draft(), 'Hello there\nsecond\nthird line');
      let f = c.frame();
      assert.match(f, /› Hello there\n +second\n +third line/);
      for (let i = 4; i <= 7; i++) {
        await c.press(CTRL.j);
        await c.type(`row ${i}`);
      }
      f = c.frame();
      assert.match(f, /row 7/);
      assert.doesNotMatch(f, /Hello there/, 'five rows show; the first scrolled out');
      // A word back and a word typed in the middle of the last line.
      await c.press(ALT_LEFT);
      await c.type('new ');
      assert.ok(draft().endsWith('\nrow new 7'), draft());
      await c.press(KEYS.enter);
      await c.waitFor(/You\b/);
      await tick();
      assert.equal(draft(), '');
      const turns = c.store.getState().chat.conversations[id].turns;
      assert.ok(
        turns.some((t) => t.role === 'user' && t.content.startsWith('Hello there\nsecond\nthird line\nrow 4')),
        'sent with its lines',
      );
    } finally {
      await c.close();
    }
  });
});
