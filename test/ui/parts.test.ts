// Pure pieces of the console: column layout, truncation, the chart, palette parsing, filter forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Column } from '../../src/format/column.js';
import { layoutColumns } from '../../src/ui/components/Table.js';
import { chartRows, everyDay } from '../../src/ui/screens/calls/log-text.js';
import { bar } from '../../src/ui/screens/calls/CallStats.js';
import { fitSnippet } from '../../src/ui/screens/calls/CallSearch.js';
import { markPieces } from '../../src/ui/components/ScrollView.js';
import { completePalette, parsePalette } from '../../src/ui/components/Palette.js';
import { truncate, wrapText } from '../../src/format/display.js';
import { callFiltersFromForm, EMPTY_CALL_FILTERS } from '../../src/store/calls.js';
import { Command } from '../../src/ui/keymap.js';
import { DEFAULT_ROUTES } from '../../src/ui/screens/routes.js';

const KEYS = DEFAULT_ROUTES.keymap;
const commandFor = KEYS.commandFor.bind(KEYS);
const bindingsFor = KEYS.bindingsFor.bind(KEYS);
import { keyWith } from '../../src/ui/key-parser.js';
import { footerLine, routeFooter } from '../../src/ui/chrome-text.js';
import { filterRows } from '../../src/ui/screens/shared.js';
import { helpLines } from '../../src/ui/screens/help/Help.js';
import { cellWidth } from '../../src/format/cells.js';
import { THEMES } from '../../src/ui/theme.js';

const cols: Column<string>[] = [
  { header: 'A', width: 10, priority: 1, grow: true, value: (s) => s },
  { header: 'B', width: 10, priority: 3, value: (s) => s },
  { header: 'C', width: 10, priority: 2, value: (s) => s },
];

test('columns drop by priority when narrow and the growing one takes the spare width', () => {
  assert.deepEqual(
    layoutColumns(cols, 80).map((c) => [c.col.header, c.width]),
    [
      ['A', 56],
      ['B', 10],
      ['C', 10],
    ],
  );
  assert.deepEqual(
    layoutColumns(cols, 25).map((c) => c.col.header),
    ['A', 'C'],
  );
  assert.deepEqual(
    layoutColumns(cols, 12).map((c) => c.col.header),
    ['A'],
  );
});

test('truncation uses an ellipsis and wrapping never exceeds the width', () => {
  assert.equal(truncate('Riley — Northwind support', 10), 'Riley — N…');
  assert.equal(truncate('short', 10), 'short');
  for (const line of wrapText('a '.repeat(50) + 'x'.repeat(37), 12)) assert.ok(line.length <= 12, line);
});

test('the calls-per-day chart: days in the gap count zero, the busiest day is a full column', () => {
  const g = (key: string, calls: number) => ({ key, calls, minutes: 0, cost: 0 });
  assert.deepEqual(
    everyDay([g('2026-11-03', 1), g('2026-11-01', 2)]).map((d) => [d.key, d.calls]),
    [
      ['2026-11-01', 2],
      ['2026-11-02', 0],
      ['2026-11-03', 1],
    ],
  );
  // Across a month end, and a group without a readable day is left off rather than breaking the chart.
  assert.deepEqual(
    everyDay([g('2026-10-31', 1), g('', 5), g('2026-11-01', 1)]).map((d) => d.key),
    ['2026-10-31', '2026-11-01'],
  );
  const rows = chartRows([2, 0, 1]);
  assert.equal(rows.length, 3);
  assert.equal(rows.map((r) => r[0]).join(''), '███');
  assert.equal(rows.map((r) => r[2]).join(''), '   ');
});

test('the stats bars: in eighths of a cell, any value above zero shows, the largest fills the width', () => {
  assert.equal(bar(10, 10, 4), '████');
  assert.equal(bar(5, 10, 4), '██  ');
  assert.equal(bar(1, 1000, 4), '▏   ');
  assert.equal(bar(0, 10, 4), '    ');
});

test('search snippets: each part escaped on its own, cut in terminal cells; a highlight cannot be forged', () => {
  const parts = fitSnippet(
    [
      { text: 'say \x1b[31mred ', hit: false },
      { text: '退款', hit: true },
      { text: ' please and more text', hit: false },
    ],
    30,
  );
  assert.doesNotMatch(parts.map((p) => p.text).join(''), /\x1b/);
  assert.deepEqual(
    parts.filter((p) => p.hit).map((p) => p.text),
    ['退款'],
  );
  assert.ok(parts.reduce((w, p) => w + [...p.text].reduce((n, ch) => n + (/[\u4e00-\u9fff]/.test(ch) ? 2 : 1), 0), 0) <= 30);
  assert.deepEqual(markPieces('A refund, Refunds', ['refund']), [
    { text: 'A ', hit: false },
    { text: 'refund', hit: true },
    { text: ', ', hit: false },
    { text: 'Refund', hit: true },
    { text: 's', hit: false },
  ]);
});

test('palette commands parse and complete', () => {
  assert.deepEqual(parsePalette(':calls'), { route: { name: 'calls' } });
  assert.deepEqual(parsePalette('chat s-123'), { route: { name: 'chat', sessionId: 's-123' } });
  assert.deepEqual(parsePalette(':q'), { quit: true });
  assert.match((parsePalette('nope') as { error: string }).error, /Unknown command :nope/);
  assert.equal(completePalette('fi'), 'files ');
  assert.equal(completePalette('ch'), 'chat ');
  assert.equal(completePalette('q'), 'quit');
});

test('the call filter form names the bad field and turns days into an inclusive range', () => {
  const bad = callFiltersFromForm({ ...EMPTY_CALL_FILTERS, to: '2026-13-01' });
  assert.match((bad as { error: string }).error, /^To date/);
  const ok = callFiltersFromForm({ ...EMPTY_CALL_FILTERS, from: '2026-11-01', to: '2026-11-01', assistantId: ' a1 ' }) as { filters: Record<string, string> };
  assert.equal(ok.filters.assistantId, 'a1');
  assert.ok(Date.parse(ok.filters.createdAtLt) - Date.parse(ok.filters.createdAtGt) > 86_000_000);
});

test('the keymap: one table decides dispatch, footer and help; j/k are off where not bound', () => {
  const key = keyWith;
  assert.equal(commandFor('j', key(), ['list']), Command.Down);
  assert.equal(commandFor('', key({ downArrow: true }), ['list']), Command.Down);
  assert.equal(commandFor('j', key(), ['form']), undefined);
  assert.equal(commandFor('', key({ tab: true, shift: true }), ['form']), Command.PrevField);
  assert.equal(commandFor('', key({ tab: true }), ['form']), Command.NextField);
  assert.equal(commandFor('d', key(), ['list', 'assistants']), undefined);
  assert.ok(bindingsFor(['files'], { reachable: true, footerOnly: true }).some((b) => b.keys === 'u' && b.hint === 'upload'));
});

test("one Column for both surfaces: a command's columns lay out in the console, defaults filled in", () => {
  const commandCols: Column<{ id: string; n: number }>[] = [
    { header: 'id', value: (r) => r.id },
    { header: 'count', value: (r) => r.n, tone: () => 'green' },
  ];
  assert.deepEqual(
    layoutColumns(commandCols, 80).map((c) => [c.col.header, c.width]),
    [
      ['id', 2],
      ['count', 5],
    ],
  );
});

test('palette: any prefix naming one command, aliases, an id after calls/assistants/files opens that record', () => {
  assert.deepEqual(parsePalette(':a'), { route: { name: 'assistants' } });
  assert.deepEqual(parsePalette(':c'), { route: { name: 'calls' } }, 'c is the alias of calls (chat is ch)');
  assert.deepEqual(parsePalette(':ch'), { route: { name: 'chat' } });
  assert.deepEqual(parsePalette(':num'), { route: { name: 'numbers' } });
  assert.deepEqual(parsePalette(':calls c-42'), { route: { name: 'calls' }, then: { name: 'call', id: 'c-42' } });
  assert.deepEqual(parsePalette(':a a-1'), { route: { name: 'assistants' }, then: { name: 'assistant', id: 'a-1' } });
  assert.match((parsePalette(':numbers 7') as { error: string }).error, /takes no argument/);
});

test('the footer fits the width dropping the lowest-priority hints first; ? help and : command always stay', () => {
  for (const contexts of [
    ['assistants', 'list', 'global'],
    ['calls', 'list', 'global'],
    ['assistant', 'detail', 'global'],
  ] as const) {
    const wide = footerLine(KEYS, routeFooter(KEYS, contexts), 400);
    for (const width of [200, 100, 80, 60, 40, 30]) {
      const line = footerLine(KEYS, routeFooter(KEYS, contexts), width);
      assert.ok(cellWidth(line) <= width, `${line} fits ${width}`);
      assert.match(line, /\? help/, `${contexts.join()} at ${width}: ${line}`);
      assert.match(line, /: command/, `${contexts.join()} at ${width}: ${line}`);
    }
    // q quit (low) goes before Enter open or e edit (normal and high).
    const mid = footerLine(KEYS, routeFooter(KEYS, contexts), cellWidth(wide) - 3);
    assert.doesNotMatch(mid, /q quit/, mid);
  }
});

test("help lists every key of each section: the Chat section has the chat's page, new-line and leave keys", () => {
  const lines = helpLines(THEMES.dark, KEYS, DEFAULT_ROUTES).map((l) => l.text);
  const start = lines.indexOf('Chat');
  const end = lines.indexOf('', start);
  const chat = lines.slice(start, end).join('\n');
  for (const b of bindingsFor(['sessions', 'chat'])) assert.ok(chat.includes(b.hint), `${b.hint} in\n${chat}`);
  assert.match(chat, /PgUp\/Ctrl-B +page up/);
  assert.match(chat, /Alt-Enter\/Ctrl-J +new line/);
});

test('the list filter: typing on narrows the last result, Backspace and other rows start afresh; same rows as a plain search', () => {
  const cols: Column<{ a: string; b: number }>[] = [
    { header: 'A', value: (r) => r.a },
    { header: 'B', value: (r) => r.b },
  ];
  const rows = Array.from({ length: 5000 }, (_, i) => ({ a: `Caller ${i % 97} Ünïcode`, b: i }));
  const plain = (q: string) => rows.filter((r) => `${r.a}`.toLowerCase().includes(q) || String(r.b).includes(q));
  for (const q of ['1', '12', '123', '12', '', 'caller 9', 'caller 96', 'ünï', 'r 1\n', '1ü']) {
    const got = filterRows(rows, cols, q);
    assert.deepEqual(got, q.trim() ? plain(q.trim().toLowerCase()) : rows, `filter ${JSON.stringify(q)}`);
  }
  // The rows of another list never come from the last one's result.
  const other = rows.slice(0, 10);
  assert.deepEqual(
    filterRows(other, cols, 'caller 1'),
    plain('caller 1').filter((r) => other.includes(r)),
  );
  assert.deepEqual(filterRows(other, cols, 'caller 12'), []);
});
