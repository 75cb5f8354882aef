// Widths are terminal cells: CJK and emoji take 2, combining marks 0, a ZWJ sequence is one
// glyph. Rows with such names keep every later column at the same screen column as plain rows,
// in the console's table and in the commands' `-o table` on a terminal; wrapping is linear.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReactElement } from 'react';
import stringWidth from 'string-width';
import type { Column } from '../../src/format/column.js';
import { NARROW, cellWidth, graphemes, padCells, truncateCells, wrapCells } from '../../src/format/cells.js';
import { CONNECTION_MARK } from '../../src/ui/chrome-text.js';
import { toTable } from '../../src/commands/output.js';
import { truncate, wrapText } from '../../src/format/display.js';
import type { Table as TableType } from '../../src/ui/components/Table.js';

let Table: typeof TableType;
let render: (tree: ReactElement) => { lastFrame(): string | undefined; unmount(): void };
before(async () => {
  ({ Table } = await import('../../src/ui/components/Table.js'));
  ({ render } = await import('ink-testing-library'));
});

interface Row {
  id: string;
  name: string;
  status: string;
}
const NAMES = ['Plain assistant', '受付アシスタント', '상담 도우미', '👩‍💻👨‍👩‍👧 team', 'Cafe\u0301 Zoe\u0308 ñ', '日本語の長い名前のアシスタントです本当に長い'];
const ROWS: Row[] = NAMES.map((name, i) => ({ id: `id-${i}`, name, status: 'active' }));
const COLUMNS: Column<Row>[] = [
  { header: 'name', width: 12, grow: true, value: (r) => r.name },
  { header: 'status', width: 8, value: (r) => r.status },
  { header: 'id', width: 6, value: (r) => r.id },
];

/** The screen column (in cells) where `marker` starts on each line that has it. */
const columnsOf = (text: string, marker: RegExp) =>
  text
    .split('\n')
    .map((line) => ({ line, at: line.search(marker) }))
    .filter((l) => l.at >= 0)
    .map((l) => stringWidth(l.line.slice(0, l.at)));

test('cells: width, cut, pad and wrap count display cells and never split a glyph', () => {
  assert.equal(cellWidth('受付'), 4);
  assert.equal(cellWidth('👩‍💻'), 2);
  assert.equal(cellWidth('e\u0301'), 1);
  assert.equal(truncateCells('受付アシスタント', 7), '受付ア…');
  assert.equal(stringWidth(padCells('상담', 6)), 6);
  assert.equal(stringWidth(padCells('👩‍💻👨‍👩‍👧 team', 5)), 5);
  assert.equal(truncate('Riley — Northwind support', 10), 'Riley — N…');
  for (const line of wrapCells('日本語の長い名前 '.repeat(20) + '受付'.repeat(30), 11)) assert.ok(stringWidth(line) <= 11, line);
  assert.deepEqual(wrapCells('ab cd\n\nef', 2), ['ab', 'cd', '', 'ef']);
});

test('-o table on a terminal: later columns line up on rows with CJK, Korean, emoji-ZWJ and combining marks', () => {
  const text = toTable(ROWS, COLUMNS, true, false);
  const starts = columnsOf(text, /active|STATUS/);
  assert.equal(starts.length, ROWS.length + 1);
  assert.deepEqual(new Set(starts).size, 1, text);
  assert.deepEqual(new Set(columnsOf(text, /id-\d|ID/)).size, 1, text);
});

test('console table: later columns line up on rows with CJK, Korean, emoji-ZWJ and combining marks', () => {
  const app = render(<Table columns={COLUMNS} rows={ROWS} cursor={0} scroll={0} height={10} width={40} rowKey={(r) => r.id} />);
  try {
    const frame = app.lastFrame() ?? '';
    const starts = columnsOf(frame, /active|status/);
    assert.equal(starts.length, ROWS.length + 1, frame);
    assert.equal(new Set(starts).size, 1, frame);
    assert.equal(new Set(columnsOf(frame, /id-\d|\bid\b/)).size, 1, frame);
    for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= 40, line);
  } finally {
    app.unmount();
  }
});

test('wrapping is linear: sixteen times the text takes about sixteen times as long, not 256', () => {
  // The ratio of two sizes in one run says linear or quadratic whatever the machine's speed; CPU time,
  // not wall time, so that a busy machine's waits do not count. The two sizes take turns, and each
  // keeps its best of five runs.
  const time = (text: string, lines: number): number => {
    const before = process.cpuUsage();
    assert.equal(wrapText(text, 80).length, lines);
    const spent = process.cpuUsage(before);
    return (spent.user + spent.system) / 1000;
  };
  // ASCII takes a fast path, so it gets more text to take a measurable time.
  for (const [glyph, perLine, size] of [
    ['x', 80, 400_000],
    ['受', 40, 6_250],
  ] as const) {
    const [small, large] = [glyph.repeat(size), glyph.repeat(16 * size)];
    let [bestSmall, bestLarge] = [Infinity, Infinity];
    for (let i = 0; i < 5; i++) {
      bestSmall = Math.min(bestSmall, time(small, Math.ceil(size / perLine)));
      bestLarge = Math.min(bestLarge, time(large, Math.ceil((16 * size) / perLine)));
    }
    // Quadratic wrapping takes 256 times as long; linear, 16.
    assert.ok(bestLarge < 64 * bestSmall, `${glyph}: ${16 * size} characters took ${bestLarge.toFixed(1)} ms, ${size} took ${bestSmall.toFixed(1)} ms`);
  }
});

// The fast path measures and cuts NARROW text by UTF-16 units: each of its characters must be
// one cell (as string-width, hence Ink, measures it) and a glyph of its own beside any other.
test('every NARROW character is one cell and its own glyph, as string-width and the segmenter say', () => {
  const wrong: string[] = [];
  let seen = 0;
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    if (!NARROW.test(ch)) continue;
    seen++;
    if (stringWidth(ch) !== 1 || [...graphemes(`a${ch}b`)].length !== 3 || [...graphemes(`${ch}${ch}`)].length !== 2)
      wrong.push(`U+${c.toString(16).padStart(4, '0')}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(seen > 1000, `NARROW holds ${seen} characters`);
  // What it must not take: combining, zero-width, bidi, soft hyphen, wide, emoji-presentation.
  for (const ch of ['\u0301', '\u0483', '\u00ad', '\u200b', '\u202e', '\u2028', '日', '\u25fd', '👍', '\t'])
    assert.equal(NARROW.test(`a${ch}`), false, `U+${ch.codePointAt(0)!.toString(16)}`);
});

// string-width's first full measurement compiles its Unicode expressions (tens of ms on the
// console's thread): a mark the header shows while keys come must not be the first.
test('the header’s marks are NARROW: the connection dots and the refresh mark (shown once a refresh lasts)', () => {
  for (const { mark } of Object.values(CONNECTION_MARK)) assert.ok(NARROW.test(mark), mark);
  assert.ok(NARROW.test('  ⟳ refreshing…'));
});

test('NARROW text is measured and cut like any other', () => {
  const text = 'Switchboard │ sandbox http://127.0.0.1:4010 │ profile café — Ωμέγα Жук ← ● ▇';
  assert.ok(NARROW.test(text));
  assert.equal(cellWidth(text), stringWidth(text));
  for (const w of [1, 2, 10, 30, text.length - 1, text.length, text.length + 5]) {
    const cut = truncateCells(text, w);
    assert.ok(stringWidth(cut) <= w, `width ${w}: ${cut}`);
    assert.equal(cut, w >= text.length ? text : `${text.slice(0, w - 1)}…`);
  }
});
