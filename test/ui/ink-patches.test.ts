// Ink and a few packages are patched in node_modules (src/patches, applied by
// patch-package when src/scripts/build.mjs builds). These tests check that every diff is applied to the installed
// packages, that the tests' Ink is that one, and bundle Ink's frame Output and log-update as
// published and as patched to check that frames come out the same.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { createElement } from 'react';
import * as ink from 'ink';
import { render } from 'ink-testing-library';
import { packagesWith, patchFiles, root } from '../support/patches.js';

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
/** Ink as published (every patch taken back out), in a directory of its own. */
let published: string;
let original: OutputClass;
let patched: OutputClass;

/** An ESM bundle of `entry` (bare imports resolved from the project's node_modules), imported. */
async function bundled<T>(name: string, entry: string): Promise<T> {
  const outfile = join(dir, `${name}.mjs`);
  // cli-cursor's dependencies require() Node's modules: give the ESM bundle a require().
  const banner = { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" };
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    banner,
    nodePaths: [join(root, 'node_modules')],
  });
  return ((await import(pathToFileURL(outfile).href)) as { default: T }).default;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-ink-patches-'));
  published = packagesWith(['ink'], []);
  original = await bundled<OutputClass>('output-original', join(published, 'node_modules/ink/build/output.js'));
  patched = await bundled<OutputClass>('output-patched', join(root, 'node_modules/ink/build/output.js'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(published, { recursive: true, force: true });
});

const filesUnder = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? filesUnder(join(d, f)) : [join(d, f)]));

test('every diff in src/patches is applied to the installed packages: taken out and put back, they give the installed files', () => {
  const pkgs = [...new Set(patchFiles().map((p) => p.pkg))];
  assert.deepEqual(pkgs, ['ink', 'string-width', 'undici', 'widest-line', 'yoga-layout']);
  const copy = packagesWith(
    pkgs,
    patchFiles().map((p) => p.name),
  );
  try {
    for (const pkg of pkgs) {
      for (const file of filesUnder(join(root, 'node_modules', pkg))) {
        const rel = relative(root, file);
        // patch-package and git apply may differ on a final newline after appended code.
        const [installed, rebuilt] = [readFileSync(file, 'utf8'), readFileSync(join(copy, rel), 'utf8')].map((t) => t.replace(/\n$/, ''));
        assert.ok(installed === rebuilt, `${rel} differs from its package with the patches applied: run npm install (postinstall applies src/patches)`);
      }
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test("string-width's fast path takes the NARROW text the console measures itself (one set of characters)", async () => {
  const { NARROW } = await import('../../src/format/cells.js');
  const installed = readFileSync(join(root, 'node_modules/string-width/index.js'), 'utf8');
  assert.ok(installed.includes(`/${NARROW.source}/.test(string)`), 'the string-width patch tests NARROW from src/format/cells.ts');
});

test('the tests’ Ink is the patched Ink the console ships, and ink-testing-library renders with that same Ink', () => {
  const output = readFileSync(join(root, 'node_modules/ink/build/output.js'), 'utf8');
  assert.ok(output.includes('sharedOutputCaches'), 'node_modules/ink is patched (npm install applies src/patches)');
  // A second Ink would have its own contexts: this hook would not see ink-testing-library's stdout.
  const Columns = () => createElement(ink.Text, null, `columns ${(ink.useStdout().stdout as NodeJS.WriteStream).columns}`);
  const app = render(createElement(Columns));
  try {
    assert.equal(app.lastFrame(), 'columns 100');
  } finally {
    app.unmount();
  }
});

// Text as Ink writes it: SGR runs (inverse, colours, dim), wide characters, several lines.
const PIECES = [
  'Calls',
  'ended',
  ' ',
  '  ',
  '\t',
  '—',
  '…',
  '漢字',
  '👍',
  'e\u0301',
  '👩\u200d💻',
  '\u00a0',
  'x'.repeat(14),
  '\x1b[7m',
  '\x1b[27m',
  '\x1b[31m',
  '\x1b[39m',
  '\x1b[2m',
  '\x1b[22m',
  '\x1b[44m\x1b[37m',
  '\x1b[49m',
  '\n',
];
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

// Leading and inner blanks, tabs, wide and combined characters, rows wider than the frame.
test('plain rows (no styles, first column) come out as Ink draws them, whatever the characters', () => {
  for (const line of [' abc', 'a  b  ', '\tx', '漢字 x', 'e\u0301e', '👩\u200d💻 x', '\u00a0a\u00a0', 'x'.repeat(30), '']) {
    for (const width of [4, 40]) {
      const f: Frame = { width, height: 2, ops: [{ kind: 'write', x: 0, y: 0, text: line, t: 0 }] };
      assert.deepEqual(draw(patched, f), draw(original, f), JSON.stringify({ line, width }));
    }
  }
});

test('a table frame: moving the selection redraws the same rows as Ink does', () => {
  const rows = Array.from(
    { length: 30 },
    (_, i) => `2026-11-${String(1 + (i % 28)).padStart(2, '0')}  inbound   ended  Riley — Northwind  +1415555${String(i).padStart(4, '0')}`,
  );
  for (let cursor = 0; cursor < 30; cursor += 3) {
    const f: Frame = {
      width: 80,
      height: 12,
      ops: [
        { kind: 'write', x: 0, y: 0, text: '\x1b[44m\x1b[37mSwitchboard │ sandbox\x1b[39m\x1b[49m', t: 0 },
        { kind: 'clip', clip: { x1: 0, x2: 80, y1: 1, y2: 11 } },
        ...rows
          .slice(cursor, cursor + 10)
          .map((r, i) => ({ kind: 'write' as const, x: 0, y: 1 + i, text: i === 1 ? `\x1b[7m${r.padEnd(80)}\x1b[27m` : r, t: 0 })),
        { kind: 'unclip' },
      ],
    };
    assert.deepEqual(draw(patched, f), draw(original, f));
  }
});

test('the same text clipped at other columns, frame after frame (a resize, a box that scrolls sideways), comes out as Ink draws it', () => {
  const text = '\x1b[1mSwitchboard\x1b[22m │ 漢字 \x1b[7mRiley — Northwind\x1b[27m +14155550100';
  for (const [x, x1, x2] of [
    [0, 0, 30],
    [0, 0, 12],
    [0, 0, 30],
    [0, 4, 30],
    [0, 4, 12],
    [-3, 0, 30],
    [2, 0, 30],
    [0, 5, 13],
    [0, 0, 12],
  ]) {
    const f: Frame = { width: 40, height: 2, ops: [{ kind: 'clip', clip: { x1, x2 } }, { kind: 'write', x, y: 0, text, t: 0 }, { kind: 'unclip' }] };
    assert.deepEqual(draw(patched, f), draw(original, f), JSON.stringify({ x, x1, x2 }));
  }
});

// log-update's patch: a frame whose rows moved by one scrolls the terminal's region. A small
// terminal model (the escapes log-update writes: cursor moves, erases, scroll regions, text)
// shows what each frame leaves on screen, with and without the patch.
class TerminalModel {
  cells: string[][];
  x = 0;
  y = 0;
  top = 0;
  bottom: number;
  constructor(
    readonly rows: number,
    readonly columns: number,
  ) {
    this.cells = Array.from({ length: rows }, () => this.blank());
    this.bottom = rows - 1;
  }
  private blank = () => Array<string>(this.columns).fill(' ');
  private scrollUp() {
    this.cells.splice(this.top, 1);
    this.cells.splice(this.bottom, 0, this.blank());
  }
  private scrollDown() {
    this.cells.splice(this.bottom, 1);
    this.cells.splice(this.top, 0, this.blank());
  }
  write(s: string) {
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (ch === '\x1b' && s[i + 1] === '[') {
        const m = /^\x1b\[(\??)([0-9;]*)([@-~])/.exec(s.slice(i))!;
        i += m[0].length - 1;
        if (m[1]) continue; // private modes (cursor, synchronized output)
        const [p1, p2] = m[2].split(';').map((n) => (n === '' ? undefined : Number(n)));
        const n = p1 ?? 1;
        if (m[3] === 'H') [this.y, this.x] = [(p1 ?? 1) - 1, (p2 ?? 1) - 1];
        else if (m[3] === 'G') this.x = n - 1;
        else if (m[3] === 'A') this.y = Math.max(this.y >= this.top ? this.top : 0, this.y - n);
        else if (m[3] === 'E') [this.y, this.x] = [Math.min(this.rows - 1, this.y + n), 0];
        else if (m[3] === 'K') for (let c = p1 === 2 ? 0 : this.x; c < this.columns; c++) this.cells[this.y][c] = ' ';
        else if (m[3] === 'J') for (let r = this.y; r < this.rows; r++) for (let c = r === this.y ? this.x : 0; c < this.columns; c++) this.cells[r][c] = ' ';
        else if (m[3] === 'r') [this.top, this.bottom, this.x, this.y] = [(p1 ?? 1) - 1, (p2 ?? this.rows) - 1, 0, 0];
        else if (m[3] === 'S') for (let k = 0; k < n; k++) this.scrollUp();
        else if (m[3] === 'T') for (let k = 0; k < n; k++) this.scrollDown();
        else if (m[3] !== 'm') throw new Error(`the model does not know ESC[${m[2]}${m[3]}`);
      } else if (ch === '\n') {
        // The tty turns a line feed into CR LF.
        this.x = 0;
        if (this.y === this.bottom) this.scrollUp();
        else this.y = Math.min(this.rows - 1, this.y + 1);
      } else if (ch === '\r') this.x = 0;
      else if (this.x < this.columns) this.cells[this.y][this.x++] = ch;
    }
  }
  screen = () => this.cells.map((r) => r.join('').trimEnd());
}

type LogUpdate = { create(stream: object, o: { incremental: boolean }): (text: string) => boolean };

test('a frame whose rows moved by one leaves the same screen as Ink’s own diff, in fewer bytes', async () => {
  const inks = {
    original: await bundled<LogUpdate>('log-update-original', join(published, 'node_modules/ink/build/log-update.js')),
    patched: await bundled<LogUpdate>('log-update-patched', join(root, 'node_modules/ink/build/log-update.js')),
  };
  const rows = 12;
  const columns = 40;
  const calls = Array.from({ length: 60 }, (_, i) => `call ${String(i).padStart(2, '0')} ${'·'.repeat(i % 7)}`.trimEnd());
  // A header, a window of the log with the cursor's row marked, a footer: the frame fills the terminal.
  const frame = (cursor: number, top: number, status: string) =>
    ['Calls', status, ...calls.slice(top, top + rows - 3).map((c, i) => (top + i === cursor ? `> ${c}` : `  ${c}`)), 'j/k move'].join('\n');
  // Mostly down, so the window scrolls; now and then a row outside the log changes too.
  const down = fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const keys = fc.array(fc.record({ down, status: fc.constantFrom('live', 'live', 'live', 'paused') }), { minLength: 1, maxLength: 60 });
  let scrolled = 0;
  fc.assert(
    fc.property(keys, (presses) => {
      const written = { original: 0, patched: 0 };
      for (const which of ['original', 'patched'] as const) {
        const term = new TerminalModel(rows, columns);
        const stream = { rows, columns, isTTY: true, write: (s: string) => ((written[which] += s.length), term.write(s), true) };
        const log = inks[which].create(stream, { incremental: true });
        let [cursor, top] = [0, 0];
        log(frame(cursor, top, 'live'));
        for (const { down, status } of presses) {
          cursor = Math.min(calls.length - 1, Math.max(0, cursor + (down ? 1 : -1)));
          top = Math.min(Math.max(top, cursor - (rows - 4)), cursor);
          const text = frame(cursor, top, status);
          log(text);
          assert.deepEqual(term.screen(), text.split('\n'), `${which} after ${JSON.stringify(presses)}`);
        }
      }
      assert.ok(written.patched <= written.original, JSON.stringify(written));
      if (written.patched < written.original) scrolled++;
    }),
    { numRuns: 300 },
  );
  assert.ok(scrolled > 0, 'some runs scrolled the region');
});
