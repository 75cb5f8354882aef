// The keymap as data: a key means one command per context, which command it means on a screen
// comes from the route's contexts (not the table's order), and no key is read outside the bindings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Key } from 'ink';
import { Command, Keymap, type Binding, type KeyContext, type KeyDescriptor } from '../../src/ui/keymap.js';
import { DEFAULT_ROUTES, ROUTES } from '../../src/ui/screens/routes.js';

const KEYS = DEFAULT_ROUTES.keymap;
const KEYMAP = KEYS.table;
const HELP_SECTIONS = KEYS.sections;
import { keyWith } from '../../src/ui/key-parser.js';

const NO_KEY: Key = keyWith();

/** The keypress (as Ink reports it) that a descriptor stands for. */
function press(d: KeyDescriptor): { input: string; key: Key; name: string } {
  const key: Key = { ...NO_KEY, ctrl: !!d.ctrl, meta: !!d.alt, shift: !!d.shift };
  if (d.key) (key as unknown as Record<string, boolean>)[d.key] = true;
  return { input: d.char ?? '', key, name: JSON.stringify(d) };
}

const presses = (Object.values(KEYMAP) as Binding[]).flatMap((b) => b.keys.map(press));
const contexts = [...new Set((Object.values(KEYMAP) as Binding[]).flatMap((b) => b.contexts))];

test('within one context a key has one binding at most (so no order among rows can matter)', () => {
  for (const context of contexts) {
    for (const p of presses) {
      const hits = Object.entries(KEYMAP).filter(([, b]) => b.contexts.includes(context) && b.keys.some((d) => sameKey(d, p)));
      assert.ok(hits.length <= 1, `${p.name} in '${context}' is bound to ${hits.map(([c]) => c).join(' and ')}`);
    }
  }
});

/** Whether descriptor d matches the press p, judged by commandFor over a one-row table. */
function sameKey(d: KeyDescriptor, p: { input: string; key: Key }): boolean {
  return new Keymap({ [Command.Help]: { keys: [d], contexts: ['global'], hint: '' } }, []).commandFor(p.input, p.key, ['global']) === Command.Help;
}

/** Which command each table key gives in each route's contexts (and each single context). */
function meanings(keymap: Keymap): string[] {
  const sets: (readonly KeyContext[])[] = [...Object.values(ROUTES).map((r) => r.contexts), ...contexts.map((c) => [c])];
  return sets.flatMap((cs) => presses.map((p) => `${cs.join(',')} ${p.name} → ${keymap.commandFor(p.input, p.key, cs) ?? '-'}`));
}

test("shuffling the table's rows changes no key's command on any screen", () => {
  const before = meanings(KEYS);
  const rows = Object.entries(KEYMAP);
  // Reversed, then rotated: every pair of rows is met in both orders.
  for (const order of [[...rows].reverse(), [...rows.slice(7), ...rows.slice(0, 7)]]) {
    assert.deepEqual(meanings(new Keymap(Object.fromEntries(order), HELP_SECTIONS)), before);
  }
});

test("a route's own context comes first: r runs the tests again on the results, refreshes a list", () => {
  const r = press({ char: 'r' });
  assert.equal(KEYS.commandFor(r.input, r.key, ROUTES.tests.contexts), 'runTestsAgain');
  assert.equal(KEYS.commandFor(r.input, r.key, ROUTES['test-result'].contexts), 'runTestsAgain');
  assert.equal(KEYS.commandFor(r.input, r.key, ROUTES.calls.contexts), Command.Refresh);
  assert.equal(KEYS.commandFor(r.input, r.key, ROUTES['chat-session'].contexts), 'retry');
});

test('every context a binding names is in a help section, so help and the README list it', () => {
  const listed = new Set(HELP_SECTIONS.flatMap((s) => s.contexts));
  for (const c of contexts) assert.ok(listed.has(c), `'${c}' is in no HELP_SECTIONS entry`);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

test('no key is read outside the bindings: src/ui tests no input text or key flag beside keymap.ts', () => {
  const raw = /\binput\s*===|\bkey\.(escape|return|upArrow|downArrow|leftArrow|rightArrow|pageUp|pageDown|home|end|tab|backspace|delete|ctrl|meta|shift)\b/;
  const offenders = sources('src/ui')
    .filter((f) => !f.endsWith(join('ui', 'keymap.ts')))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ f, i, line }))
        .filter(({ line }) => raw.test(line)),
    )
    .map(({ f, i, line }) => `${f}:${i + 1}: ${line.trim()}`);
  assert.deepEqual(offenders, []);
});

test('m/Tab, which switches only the stats chart, is listed under the stats, not the call log (whose chart it does not switch)', () => {
  const rows = (title: string) => {
    const section = HELP_SECTIONS.find((s) => s.title.startsWith(title));
    assert.ok(section, title);
    return KEYS.bindingsFor(section.contexts).map((b) => b.command);
  };
  assert.ok(!rows('Calls').includes('chartMetric'), 'not in the Calls row');
  assert.ok(rows('Call stats').includes('chartMetric'), 'in the stats row');
  // And on the call log no key means it.
  assert.equal(KEYS.commandFor('m', { ...NO_KEY }, ROUTES.calls.contexts), undefined);
});
