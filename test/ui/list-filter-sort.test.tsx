// The lists sorted on the client (assistants, numbers, files, chat sessions: useSortedList) sort
// what their `/` filter leaves: the rows the filter kept, in the order; the count and n/total stay
// those of the filtered rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { tick } from '../support/ink.js';
import { createMemoryApi } from '../support/memory-api.js';
import { filterRows } from '../../src/ui/screens/shared.js';
import { ASSISTANT_COLUMNS } from '../../src/ui/screens/lists.js';

const sb = createMemoryApi();
const KEYS = { enter: '\r' } as const;

test('assistants: / then O sorts the matches by name both ways; "k of n assistants match · 1/k" stays', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
  try {
    await c.waitFor('NAME');
    const all = c.store.getState().assistants.data!;
    const names = all.map((a) => a.name!);
    // Two letters of a name that some rows show and others do not.
    const letter = names
      .flatMap((n) => [...n.toLowerCase()].map((_, i) => n.toLowerCase().slice(i, i + 2)))
      .find((t) => {
        const n = filterRows(all, ASSISTANT_COLUMNS, t).length;
        return /^[a-z]{2}$/.test(t) && n >= 2 && n < names.length;
      })!;
    assert.ok(letter, 'a filter that keeps some assistants');
    const order = (frame: string) =>
      names
        .map((n) => [n, frame.indexOf(n.slice(0, 12))] as const)
        .filter(([, at]) => at >= 0)
        .sort((a, b) => a[1] - b[1])
        .map(([n]) => n);
    await c.press('/');
    await c.type(letter);
    await c.press(KEYS.enter);
    const kept = order(await c.waitFor(/\d+ of \d+ assistants match · 1\/\d+/));
    const k = kept.length;
    assert.ok(k >= 2 && k < names.length);
    assert.match(c.frame(), new RegExp(`${k} of ${names.length} assistants match · 1/${k}`));
    const asc = [...kept].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    await c.press('O');
    assert.deepEqual(order(await c.waitFor('NAME ▲')), asc);
    await c.press('O');
    assert.deepEqual(order(await c.waitFor('NAME ▼')), [...asc].reverse());
    await c.press('G');
    await c.waitFor(`${k} of ${names.length} assistants match · ${k}/${k}`);
  } finally {
    await c.close();
  }
});

test("at 80 columns a / filter keeps the whole list's widths: NAME is not cut to make room for an ID, so two names still read apart", async () => {
  const own = createMemoryApi();
  const [a, b] = own.records.assistants;
  for (const [row, side] of [
    [a, 'east'],
    [b, 'west'],
  ] as const) {
    row.body = {
      ...row.body,
      name: `Support line north — ${side}`,
      voice: { provider: 'x', voiceId: 'v' },
      model: { provider: 'openai', model: 'gpt-4o-mini' },
    };
  }
  const c = await openConsole(own, { initialRoute: { name: 'assistants' } });
  try {
    await c.waitFor('Support line north');
    c.store.getState().actions.resize(80, 24);
    await tick();
    const whole = c.frame();
    const nameCells = (frame: string) =>
      frame
        .split('\n')
        .filter((l) => l.includes('Support line north'))
        .map((l) => l.trim().split(/\s{2,}/)[0]);
    const before = nameCells(whole);
    assert.equal(new Set(before).size, 2, `two names apart:\n${whole}`);
    await c.press('/');
    await c.type('support line');
    await c.press(KEYS.enter);
    const filtered = await c.waitFor('2 of');
    assert.deepEqual(nameCells(filtered), before, `the filtered rows read as before:\n${filtered}`);
    assert.doesNotMatch(
      filtered.split('\n').find((l) => l.includes('NAME'))!,
      /\bID\b/,
      'no ID column squeezed in',
    );
  } finally {
    await c.close();
  }
});
