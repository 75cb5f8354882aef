// Every route's spec (src/ui/screens/<folder>/spec.ts), walked: each has a title, key contexts with
// keys in them, a component, and its palette command opens it by name and by every alias. Every
// screen folder's spec is in the list (src/ui/screens/routes.ts), so a folder left out fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Route, RouteName } from '../../src/store/index.js';
import { DEFAULT_ROUTES, ROUTES, specOf } from '../../src/ui/screens/routes.js';
import { completePalette, parsePalette } from '../../src/ui/components/Palette.js';

const SCREENS = join(import.meta.dirname, '../../src/ui/screens');

/** A route of that name with every field any route has (enough for a title). */
const sample = (name: RouteName) => ({ name, id: 'x-1', text: 'refund', sessionId: 's-1', scenario: 'greets', title: 'T', value: 1 }) as Route;

test('every screen folder has a spec.ts, and every route it declares is in the list, once', async () => {
  const folders = readdirSync(SCREENS, { withFileTypes: true }).filter((d) => d.isDirectory());
  assert.ok(folders.length >= 7);
  const declared: string[] = [];
  for (const f of folders) {
    const file = join(SCREENS, f.name, 'spec.ts');
    assert.ok(existsSync(file), `src/ui/screens/${f.name} has no spec.ts`);
    // Loaded from the source by tsx, whether this file runs from the source or from npm test's bundle
    // (which holds only what routes.ts imports): a spec is the same object as ROUTES' from the source,
    // and in the bundle one with the same fields.
    const mod = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, Record<string, Record<string, unknown>>>;
    for (const specs of Object.values(mod)) {
      for (const [name, spec] of Object.entries(specs)) {
        const listed = ROUTES[name as RouteName] as unknown as Record<string, unknown> | undefined;
        assert.ok(listed, `${f.name}/spec.ts declares ${name}, which is not in ROUTES (src/ui/screens/routes.ts)`);
        assert.deepEqual(Object.keys(listed).sort(), Object.keys(spec).sort(), `${name}: ROUTES holds the spec ${f.name}/spec.ts declares`);
        declared.push(name);
      }
    }
  }
  assert.deepEqual([...declared].sort(), Object.keys(ROUTES).sort(), 'each route is declared by exactly one folder');
});

test('every route has a title, key contexts that have keys, and a component', async () => {
  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const spec = specOf(sample(name));
    assert.ok(DEFAULT_ROUTES.title(sample(name)).length > 0, `${name}: a title`);
    assert.ok(spec.contexts.length > 0, `${name}: key contexts`);
    assert.ok(DEFAULT_ROUTES.keymap.bindingsFor(spec.contexts).length > 0, `${name}: its contexts have keys`);
    assert.equal(typeof (await spec.component()), 'function', `${name}: a component`);
    // Retrying a route while offline is entering it again: only a route whose entry loads something.
    if (spec.retried) assert.ok(spec.enter, `${name} is retried but loads nothing`);
  }
});

test("the palette opens each route's command by its name, any prefix naming it alone, and every alias", () => {
  const commands = Object.entries(ROUTES).flatMap(([name, spec]) => (spec.palette ? [{ route: name, ...spec.palette }] : []));
  assert.ok(commands.length >= 9);
  for (const c of commands) {
    const arg = c.required ? ' words' : '';
    for (const word of [c.name, ...c.aliases]) {
      const r = parsePalette(`:${word}${arg}`);
      assert.ok('route' in r, `:${word} → ${JSON.stringify(r)}`);
      assert.equal(r.route.name, c.route, `:${word} opens ${c.route}`);
      assert.equal(r.onTop, c.onTop, `:${word} opens on top or in place as its spec says`);
    }
    assert.equal(completePalette(c.name).trim(), c.name, `Tab on :${c.name}`);
    const prefixes = [...c.name].map((_, i) => c.name.slice(0, i + 1));
    const alone = prefixes.find((p) => commands.every((o) => o === c || !o.name.startsWith(p)) && !'quit'.startsWith(p));
    if (alone) assert.equal((parsePalette(`:${alone}${arg}`) as { route: Route }).route.name, c.route, `:${alone} names :${c.name} alone`);
  }
  const words = commands.flatMap((c) => [c.name, ...c.aliases]);
  assert.deepEqual(
    words.filter((w, i) => words.indexOf(w) !== i),
    [],
    'no two commands share a name or alias',
  );
  assert.deepEqual(parsePalette(':quit'), { quit: true });
});
