import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { PROMPT_AND_NAME, renderForm } from './support.js';

test('form: multi-line text keeps newlines and wraps inside its column; a long value stays on one row', async () => {
  const c = await renderForm(PROMPT_AND_NAME);
  await c.type('line one');
  await c.press(KEYS.enter);
  await c.type('line two is a much longer line that has to wrap around the value column');
  assert.ok(
    c
      .frame()
      .split('\n')
      .every((l) => [...l].length <= 60),
  );
  assert.match(c.frame(), /› Prompt +line one\n +line two/);
  await c.press(KEYS.tab);
  await c.type('x'.repeat(80));
  const f = c.frame();
  assert.match(f, /Prompt +line one …/);
  assert.match(f, /› Name +…x+\n/);
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { p: 'line one\nline two is a much longer line that has to wrap around the value column', n: 'x'.repeat(80) });
  c.unmount();
});

test('form: keys typed while it saves wait, and go on once the save has answered', async () => {
  let answer!: () => void;
  const c = await renderForm([{ kind: 'text', key: 'n', label: 'Name' }], { onSubmit: () => new Promise<void>((r) => (answer = r)) });
  await c.type('ab');
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { n: 'ab' });
  await c.type('cd');
  assert.match(c.frame(), /Name +ab\b/, `nothing is typed into the form while it saves:\n${c.frame()}`);
  answer();
  await c.waitFor(/Name +abcd/);
  await c.press(KEYS.ctrlS);
  assert.deepEqual(c.submitted(), { n: 'abcd' });
  c.unmount();
});
