// What the built bundle loads before it can show anything: `--version` is answered by the
// CommonJS entry alone (no ESM loader), a command runs from one CommonJS file, the console's start must not need React, Ink or yoga (its
// first frame is drawn before they load), and zod must come without its other locales.
// Reads the bundle `npm test` just built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI } from '../support/cli.js';

const dir = dirname(CLI);

/** Every file a chunk imports statically, transitively (what loading it costs). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  for (const m of text.matchAll(/^import\s+(?:[^'"()]*?\s+from\s+)?"(\.\/[^"]+)";?$/gm)) {
    staticClosure(join(dirname(file), m[1]), seen);
  }
  return seen;
}

/** The chunk `file` loads lazily under `name`, as a path under dist/. */
const dynamicImport = (file: string, name: string) => {
  const m = readFileSync(join(dir, file), 'utf8').match(new RegExp(`import\\("\\./((?:chunks/)?${name}-[A-Z0-9]+\\.mjs)"\\)`));
  assert.ok(m, `${file} loads a ${name} chunk lazily`);
  return join(dirname(file), m[1]);
};

/** The chunk that any file in `file`'s static closure loads lazily under `name`. */
const lazyFromClosure = (file: string, name: string) => {
  for (const f of staticClosure(file)) {
    // A chunk (./name-HASH.mjs) or an entry of the bundle's own (../name.mjs).
    const m = readFileSync(join(dir, f), 'utf8').match(new RegExp(`import\\("((?:\\./|\\.\\./)(?:chunks/)?${name}(?:-[A-Z0-9]+)?\\.mjs)"\\)`));
    if (m) return join(dirname(f), m[1]);
  }
  assert.fail(`nothing ${file} loads imports a ${name} chunk lazily`);
};

const text = (files: Set<string>) => [...files].map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

test('the entry is CommonJS and answers --version before it imports anything', () => {
  const entry = readFileSync(CLI, 'utf8');
  assert.equal(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type, 'commonjs');
  assert.deepEqual(
    [...entry.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]),
    ['./main.mjs'],
    'one lazy import: the ESM main',
  );
  assert.ok(entry.indexOf('"--version"') < entry.indexOf('import("./main.mjs")'));
  assert.ok(entry.indexOf('"--version"') < entry.indexOf('"commands.cjs"'), 'and the commands after --version');
  assert.deepEqual([...staticClosure('main.mjs')], ['main.mjs'], 'the main loads no chunk up front');
});

// A checkout's `npx switchboard` runs the bin through the link in npx's cache, which npm made
// executable once: a rebuild must leave it so.
test('the entry is executable as built, with its shebang', () => {
  assert.ok(statSync(CLI).mode & 0o100, `${CLI} is not executable`);
  assert.match(readFileSync(CLI, 'utf8'), /^#!\/usr\/bin\/env node\n/);
});

test('the commands are one CommonJS file that loads the console and the sandbox lazily, as ESM entries', () => {
  const code = readFileSync(join(dir, 'commands.cjs'), 'utf8');
  assert.ok(code.includes('// node_modules/commander/'), 'it is commander');
  // require(), not import(): it runs in a vm.Script (src/code-cache.cts), which has no loader for import().
  assert.ok(!/\bimport\("/.test(code), 'no import() in commands.cjs');
  const lazy = new Set([...code.matchAll(/\brequire\("(\.[^"]+)"\)/g)].map((m) => m[1]));
  assert.deepEqual([...lazy].sort(), ['./console-start.mjs', './sandbox-server.mjs']);
  for (const heavy of ['node_modules/ink/', 'node_modules/react/', 'node_modules/fastify/', 'node_modules/yoga-layout/'])
    assert.ok(!code.includes(`// ${heavy}`), `commands.cjs includes ${heavy}`);
  for (const part of ['console-start.mjs', 'sandbox-server.mjs']) assert.ok(readFileSync(join(dir, part), 'utf8').startsWith('import'), `${part} is ESM`);
});

test('the commands file and every ESM file are ASCII, so V8 holds their source one byte a character and the code cache reads it as latin1', () => {
  const files = ['commands.cjs', ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs') && !f.startsWith('test'))];
  assert.ok(
    files.some((f) => f.startsWith('chunks')),
    'the chunks are checked too',
  );
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${file} has a non-ASCII byte at ${at}: …${bytes.subarray(Math.max(0, at - 40), at + 10).toString('utf8')}`);
  }
});

const HEAVY = [
  'node_modules/react-reconciler/',
  'node_modules/ink/',
  'node_modules/yoga-layout/',
  'node_modules/react/',
  'node_modules/undici/',
  'node_modules/fastify/',
];

test('the parser that decides between a command and the console loads nothing heavy', () => {
  const code = text(staticClosure(dynamicImport('main.mjs', 'commands')));
  for (const heavy of HEAVY) assert.ok(!code.includes(`// ${heavy}`), `the commands chunk and its imports include ${heavy}`);
  assert.ok(code.includes('// node_modules/commander/'), 'it is commander');
});

test("the console's start draws its frame without React, Ink or yoga; a bare switchboard without commander", () => {
  // `switchboard` alone: main → the console's opener (no commander) → the start.
  const opener = dynamicImport('main.mjs', 'console');
  assert.ok(!text(staticClosure(opener)).includes('// node_modules/commander/'), 'the bare console loads commander');
  const start = staticClosure(lazyFromClosure(opener, 'console-start'));
  const code = text(start);
  for (const heavy of HEAVY) assert.ok(!code.includes(`// ${heavy}`), `the start chunk and its imports include ${heavy}`);
  assert.ok(code.includes('// src/ui/chrome-text.ts'), 'it does include the chrome');
  assert.ok(code.includes('// src/ui/terminal.ts'), 'and takes the terminal');
});

test('zod is bundled with its English messages only', () => {
  const all = readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.mjs'));
  const code = text(new Set(all.map((f) => join('chunks', f))));
  assert.ok(code.includes('// node_modules/zod/v4/locales/en.js'));
  assert.ok(!code.includes('// node_modules/zod/v4/locales/de.js'), 'the German locale is in the bundle');
});

test('the console loads the YAML parser only when `E` needs it; the commands, only for pull/diff/push', () => {
  const commands = dynamicImport('main.mjs', 'commands');
  // src/scenarios/run.ts is a run-*.mjs chunk too: the console's is the one with src/ui/run.tsx.
  const runChunk = readdirSync(join(dir, 'chunks')).find(
    (f) => /^run-[A-Z0-9]+\.mjs$/.test(f) && readFileSync(join(dir, 'chunks', f), 'utf8').includes('// src/ui/run.tsx'),
  );
  assert.ok(runChunk, 'a run chunk (src/ui/run.tsx, the console)');
  const run = staticClosure(join('chunks', runChunk));
  assert.ok(text(run).includes('// src/store/ascode.ts'), 'the run chunk is the console');
  // The screens' chunks too: the route specs import them lazily, and app.tsx loads them all before its first render.
  const lazyScreens = (f: string) => [...readFileSync(join(dir, f), 'utf8').matchAll(/import\("\.\/([A-Z]\w*-[A-Z0-9]+\.mjs)"\)/g)];
  const screens = [...run].flatMap((f) => lazyScreens(f).map((m) => join(dirname(f), m[1])));
  assert.ok(
    screens.some((f) => text(new Set([f])).includes('// src/ui/screens/assistants/AssistantYamlChanges.tsx')),
    'the screens are lazy chunks',
  );
  const up = new Set([...run, ...screens.flatMap((f) => [...staticClosure(f)])]);
  assert.ok(!text(up).includes('// node_modules/yaml/'), 'the console loads yaml up front');
  assert.ok(!text(staticClosure(commands)).includes('// node_modules/yaml/'), 'the commands chunk loads yaml up front');
});

test("the archive sync's worker is an entry of its own in chunks/, loading the archive and the client, no UI", () => {
  const worker = staticClosure(join('chunks', 'sync-worker.mjs'));
  const code = text(worker);
  for (const heavy of HEAVY.filter((h) => h !== 'node_modules/undici/')) assert.ok(!code.includes(`// ${heavy}`), `the sync worker loads ${heavy}`);
  assert.ok(code.includes('// src/archive/sync.ts') && code.includes('// src/api/client.ts'), 'it is the archive sync with the client');
  assert.ok(!code.includes('// src/store/'), 'and not the store');
});
