// The bundle patches Ink as it builds (src/scripts/ink-patches.mjs). These tests bundle Ink's
// frame Output with and without the patches and check that frames come out the same, and that
// every patch still finds the code it replaces in the installed Ink.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';

const root = resolve(import.meta.dirname, '../..');
const inkOutput = join(root, 'node_modules/ink/build/output.js');

type Transformer = (line: string, index: number) => string;
type Clip = { x1?: number; x2?: number; y1?: number; y2?: number };
interface OutputLike {
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (o: { width: number; height: number }) => OutputLike;

let dir: string;
let plugin: Plugin;
let original: OutputClass;
let patched: OutputClass;

async function bundleOutput(name: string, plugins: Plugin[]): Promise<OutputClass> {
  const entry = join(dir, `${name}-entry.mjs`);
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: { contents: `export { default } from ${JSON.stringify(inkOutput)};`, resolveDir: root, sourcefile: entry, loader: 'js' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins,
  });
  return ((await import(pathToFileURL(outfile).href)) as { default: OutputClass }).default;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-ink-patches-'));
  plugin = ((await import(pathToFileURL(join(root, 'src/scripts/ink-patches.mjs')).href)) as { inkPatches: Plugin }).inkPatches;
  original = await bundleOutput('original', []);
  patched = await bundleOutput('patched', [plugin]);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('every patch still applies to the installed Ink (a changed file would be left unpatched, with a warning)', async () => {
  const r = await build({
    stdin: { contents: "import 'ink';", resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    external: ['react-devtools-core'],
    plugins: [plugin],
  });
  assert.deepEqual(r.warnings.map((w) => w.text), []);
});

// Text as Ink writes it: SGR runs (inverse, colours, dim), wide characters, several lines.
const PIECES = ['Calls', 'ended', ' ', '  ', '\t', '—', '…', '漢字', '👍', 'e\u0301', '👩\u200d💻', '\u00a0', 'x'.repeat(14), '\x1b[7m', '\x1b[27m', '\x1b[31m', '\x1b[39m', '\x1b[2m', '\x1b[22m', '\x1b[44m\x1b[37m', '\x1b[49m', '\n'];
const text = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((p) => p.join(''));
const TRANSFORMERS: Transformer[][] = [[], [(line) => `\x1b[1m${line}\x1b[22m`], [(line, i) => `${i}:${line}`, (line) => line.toUpperCase()]];
// Column 0 often: most rows Ink draws start there (and plain ones take a shortcut).
const coord = fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 24 }));
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), x: coord, y: coord, text, t: fc.nat(TRANSFORMERS.length - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clip' as const), clip: fc.record({ x1: coord, x2: coord, y1: coord, y2: coord }, { requiredKeys: [] }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'unclip' as const }) },
);
const frame = fc.record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 10 }), ops: fc.array(op, { maxLength: 12 }) });
type Frame = typeof frame extends fc.Arbitrary<infer F> ? F : never;

function draw(Output: OutputClass, f: Frame) {
  const out = new Output({ width: f.width, height: f.height });
  for (const o of f.ops) {
    if (o.kind === 'write') out.write(o.x, o.y, o.text, { transformers: TRANSFORMERS[o.t] });
    else if (o.kind === 'clip') out.clip(o.clip);
    else out.unclip();
  }
  return out.get();
}

test('patched frames are the same as Ink’s, frame after frame (rows drawn before come from the memo)', () => {
  // Sequences of frames, each drawn twice and then varied a little, so rows repeat across frames.
  fc.assert(
    fc.property(fc.array(frame, { minLength: 1, maxLength: 4 }), (frames) => {
      for (const f of [...frames, ...frames, ...frames.map((f) => ({ ...f, ops: f.ops.slice(1) }))]) {
        assert.deepEqual(draw(patched, f), draw(original, f));
      }
    }),
    { numRuns: 400 },
  );
});

test('plain rows (no styles, first column) come out as Ink draws them: leading and inner blanks, tabs, wide and combined characters, wider than the frame', () => {
  for (const line of [' abc', 'a  b  ', '\tx', '漢字 x', 'e\u0301e', '👩\u200d💻 x', '\u00a0a\u00a0', 'x'.repeat(30), '']) {
    for (const width of [4, 40]) {
      const f: Frame = { width, height: 2, ops: [{ kind: 'write', x: 0, y: 0, text: line, t: 0 }] };
      assert.deepEqual(draw(patched, f), draw(original, f), JSON.stringify({ line, width }));
    }
  }
});

test('a table frame: moving the selection redraws the same rows as Ink does', () => {
  const rows = Array.from({ length: 30 }, (_, i) => `2026-11-${String(1 + (i % 28)).padStart(2, '0')}  inbound   ended  Riley — Northwind  +1415555${String(i).padStart(4, '0')}`);
  for (let cursor = 0; cursor < 30; cursor += 3) {
    const f: Frame = {
      width: 80,
      height: 12,
      ops: [
        { kind: 'write', x: 0, y: 0, text: '\x1b[44m\x1b[37mSwitchboard │ sandbox\x1b[39m\x1b[49m', t: 0 },
        { kind: 'clip', clip: { x1: 0, x2: 80, y1: 1, y2: 11 } },
        ...rows.slice(cursor, cursor + 10).map((r, i) => ({ kind: 'write' as const, x: 0, y: 1 + i, text: i === 1 ? `\x1b[7m${r.padEnd(80)}\x1b[27m` : r, t: 0 })),
        { kind: 'unclip' },
      ],
    };
    assert.deepEqual(draw(patched, f), draw(original, f));
  }
});
