// At 80 columns a long field error and a long flash are readable whole where `!` (the last
// message, whole) is text — a form, a chat's input: they wrap onto more lines instead of being cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { E164_HINT } from '../../src/api/validate.js';

const sb = createMemoryApi();
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

test('the outbound form at 80 columns shows a bad number\'s error whole, and a long flash whole, without "! shows it whole"', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'call-outbound' } });
  try {
    c.store.getState().actions.resize(80, 24);
    await c.waitFor('Customer number');
    await c.press(KEYS.tab, KEYS.tab);
    await c.type('12345');
    await c.press(KEYS.ctrlS);
    await c.waitFor('Not an E.164 number');
    await until(() => flat(c.frame()).includes(`Not an E.164 number: ${E164_HINT}`.replace(/\s+/g, ' ')), 'the whole error');
    const path = `/home/someone/projects/${'deep/'.repeat(8)}riley.test.yaml`;
    c.store.getState().actions.flash(`Saved as a test; run it: switchboard test ${path} (or :test)`);
    await until(() => flat(c.frame()).includes('(or :test)'), 'the whole flash');
    assert.doesNotMatch(c.frame(), /! shows it whole/);
    assert.ok(c.frame().split('\n').length <= 24, 'the frame still fits');
  } finally {
    await c.close();
  }
});

test('a long flash in a chat that the debug log also has, shown whole at 80 columns, is not marked as cut', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'call-outbound' }, debugLog: () => '~/state/switchboard/debug.log' });
  try {
    c.store.getState().actions.resize(80, 24);
    await c.waitFor('Customer number');
    const text = 'Saved as a test; run it: switchboard test tests/riley-northwind-support-2026-12-02-04-31.test.yaml (or :test)';
    c.store.getState().actions.flash(text);
    await until(() => flat(c.frame()).includes('(or :test)'), 'the whole flash');
    assert.doesNotMatch(c.frame(), /\(or :test\)…/, 'a whole flash ends without …');
    assert.doesNotMatch(c.frame(), /full text in/, 'nothing more to read elsewhere');
  } finally {
    await c.close();
  }
});
