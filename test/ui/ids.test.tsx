// Ids you can copy and type, where you are in a list, and what the lists show: the copy keys
// (the clipboard write itself is the terminal's, test/e2e/copy.test.ts), on the memory api.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { KEYS } from '../support/ink.js';
import { topRoute } from '../../src/store/index.js';
import { createMemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { copyable } from '../../src/ui/terminal.js';
import { cellWidth } from '../../src/format/cells.js';
import { fitColumns, rowLine, sortRows, type Layout } from '../../src/format/table-text.js';
import { nextSort } from '../../src/store/navigation.js';
import { ASSISTANT_COLUMNS, FILE_COLUMNS, numberColumns } from '../../src/ui/screens/lists.js';
import { callColor, callColumns } from '../../src/ui/screens/calls/log-text.js';
import { asciiText } from '../../src/ui/capabilities.js';
import { statsLines } from '../../src/ui/screens/calls/CallStats.js';
import type { Call, KbFile } from '../../src/api/schemas.js';
import { THEMES } from '../../src/ui/theme.js';

describe('ids you can copy', () => {
  const sb = createMemoryApi();

  test('Y copies the selected call id, # its customer number; the flash says what was copied', async () => {
    const copied: string[] = [];
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, copy: (t) => (copied.push(t), copyable(t)) });
    try {
      await c.waitFor('calls/day');
      await c.press('j');
      const call = c.store.getState().callLog.calls[1];
      await c.press('Y');
      await until(() => copied.length === 1, 'a copy');
      assert.deepEqual(copied, [call.id]);
      await c.waitFor(`Sent the id ${call.id} to the terminal's clipboard (OSC 52)`);
      await c.press('#');
      await until(() => copied.length === 2, 'a second copy');
      assert.equal(copied[1], call.customer?.number);
      await c.waitFor('Sent the customer number');
    } finally {
      await c.close();
    }
  });

  test('a DID with control bytes is not copied, and the flash shows it escaped', async () => {
    const copied: string[] = [];
    sb.records.numbers[0].did = '+1415\x1b]52;c;ZXZpbA==\x07';
    const c = await openConsole(sb, { initialRoute: { name: 'numbers' }, copy: (t) => (copied.push(t), copyable(t)) });
    try {
      await c.waitFor('DID');
      await c.press('#');
      await c.waitFor('Not copied');
      assert.equal(c.store.getState().flash?.kind, 'error');
      assert.ok(!c.frame().includes('\x07'), 'no raw control byte on screen');
    } finally {
      await c.close();
    }
  });

  test('what may be copied: ids, DIDs, phone numbers; nothing with control bytes or spaces', () => {
    for (const ok of ['01a21299-5b1c-4c3e-9d7e-2f1a0b3c4d5e', '+14155550123', 'sip:agent@example.com']) assert.ok(copyable(ok), ok);
    for (const bad of ['', 'a\x1bb', 'a\x07', 'a b', 'a\nb', '\u009b', 'x'.repeat(300)]) assert.ok(!copyable(bad), JSON.stringify(bad));
  });
});

describe('columns by content and priority', () => {
  const sb = createMemoryApi();
  const cells = <T,>(cols: Layout<T>) => Object.fromEntries(cols.map((c) => [c.col.header, c.width]));

  test('assistants: at 200 columns the whole id shows and no column pads past its widest cell; at 80 names keep their length', async () => {
    const rows = await sb.listAssistants();
    const longest = Math.max(...rows.map((a) => cellWidth(a.name ?? '')));
    const wide = fitColumns(ASSISTANT_COLUMNS, rows, 200);
    assert.equal(cells(wide).ID, rows[0].id.length, JSON.stringify(cells(wide)));
    assert.equal(cells(wide).NAME, Math.max(4, longest));
    assert.ok(rowLine(wide, rows[0]).includes(rows[0].id));
    const narrow = fitColumns(ASSISTANT_COLUMNS, rows, 80);
    assert.ok(cells(narrow).NAME >= Math.min(longest, 24), JSON.stringify(cells(narrow)));
    const voices = Math.max(5, ...rows.map((a) => cellWidth(a.voice?.provider ?? '—')));
    assert.ok((cells(narrow).VOICE ?? 0) <= voices, 'VOICE is as wide as its widest cell, not more');
    const mid = fitColumns(ASSISTANT_COLUMNS, rows, 120);
    assert.equal(cells(mid).NAME, Math.max(4, longest), 'the id gives way before the name');
  });

  test('numbers: a SIP DOMAIN the same on every row is left out; the call log shows short ids when there is room', async () => {
    const numbers = await sb.listPhoneNumbers();
    for (const n of numbers) n.domain = 'sip.example.com';
    const cols = fitColumns(
      numberColumns(() => 'x'),
      numbers,
      120,
    ).map((c) => c.col.header);
    assert.ok(!cols.includes('SIP DOMAIN'), cols.join(' '));
    assert.ok(cols.includes('DID'));
    const calls = await sb.listCalls({ limit: 50 });
    const wide = fitColumns(
      callColumns(() => 'Support', numbers, true),
      calls,
      200,
    );
    assert.ok(
      wide.some((c) => c.col.header === 'ID'),
      wide.map((c) => c.col.header).join(' '),
    );
    const mid = fitColumns(
      callColumns(() => 'Support', numbers, true),
      calls,
      130,
    );
    const id = mid.find((c) => c.col.header === 'ID');
    if (id && id.width < calls[0].id.length) assert.ok(rowLine(mid, calls[0]).includes(calls[0].id.slice(-8)), 'a short id is the end of the id, no ellipsis');
  });
});

describe('where am I: position and counts with a filter', () => {
  const sb = createMemoryApi();

  test('assistants: the count says what the filter leaves, and the cursor row shows as n/total', async () => {
    const all = (await sb.listAssistants()).length;
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor(`${all} assistants · 1/${all}`);
      await c.press('j', 'j');
      await c.waitFor(`${all} assistants · 3/${all}`);
      await c.press('/');
      await c.type('riley');
      const f = await c.waitFor(new RegExp(`1 of ${all} assistants match · 1/1`));
      assert.ok(!f.includes(`${all} assistants ·`), f);
    } finally {
      await c.close();
    }
  });

  test('files: a filter that leaves none says 0 of the loaded match, not "5 of 5 files" alone', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('SIZE');
      await c.press('/');
      await c.type('zzz-nothing');
      const f = await c.waitFor('No file matches');
      assert.match(f, /0 of \d+ loaded match · \d+ of \d+ files/);
    } finally {
      await c.close();
    }
  });

  test('the call log shows the cursor row of all the calls', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      const total = () => c.store.getState().callLog.total;
      await c.waitFor(/ · 1\/[\d,]+/);
      await c.press('j');
      await c.waitFor(new RegExp(` · 2/${total().toLocaleString('en-US')}`));
    } finally {
      await c.close();
    }
  });
});

describe('the palette takes what the screen shows', () => {
  const sb = createMemoryApi();

  test(':calls <the short id the list shows> opens that call; a short id two calls share opens a pick list', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      const calls = c.store.getState().callLog.calls;
      const short = (id: string) => id.slice(-8);
      const one = calls.find((x) => calls.filter((y) => short(y.id) === short(x.id)).length === 1)!;
      await c.press(':');
      await c.type(`calls ${short(one.id)}`);
      await c.press(KEYS.enter);
      await until(() => topRoute(c.store.getState()).name === 'call', 'the call opened');
      assert.deepEqual(topRoute(c.store.getState()), { name: 'call', id: one.id });
      assert.equal(c.store.getState().flash?.kind === 'error', false, JSON.stringify(c.store.getState().flash));
      await c.press(KEYS.escape);
      await until(() => topRoute(c.store.getState()).name === 'calls', 'back on the log');
      // Two calls whose ids start alike: the shortest start they share.
      const [a, b] = [calls[0], calls[1]];
      let n = 0;
      while (a.id[n] === b.id[n]) n++;
      await c.press(':');
      await c.type(`c ${a.id.slice(0, n)}`);
      await c.press(KEYS.enter);
      await c.waitFor(/\d+ calls match/);
      assert.equal(topRoute(c.store.getState()).name, 'pick');
      await c.press(KEYS.enter);
      await until(() => topRoute(c.store.getState()).name === 'call', 'the picked call opened');
    } finally {
      await c.close();
    }
  });

  test(':a <a name with spaces> opens that assistant; an ambiguous start picks; a name nobody has says so', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('NAME');
      const all = c.store.getState().assistants.data!;
      const target = all[1];
      await c.press(':');
      await c.type(`a ${target.name!.toLowerCase()}`);
      await c.press(KEYS.enter);
      await until(() => topRoute(c.store.getState()).name === 'assistant', 'the assistant opened');
      assert.deepEqual(topRoute(c.store.getState()), { name: 'assistant', id: target.id });
      await c.press(':');
      await c.type(`assistants ${target.id.slice(0, 6)}`);
      await c.press(KEYS.enter);
      await until(() => c.store.getState().stack.length >= 2 && topRoute(c.store.getState()).name === 'assistant', 'opened by its short id');
      // Two names with the same start.
      sb.records.assistants.push({ ...sb.records.assistants[0], id: 'walk-1', body: { ...sb.records.assistants[0].body, name: 'Walk Tester v1' } });
      sb.records.assistants.push({ ...sb.records.assistants[0], id: 'walk-2', body: { ...sb.records.assistants[0].body, name: 'Walk Tester v2' } });
      await c.press('1', 'r');
      await until(() => c.store.getState().assistants.data?.length === all.length + 2, 'the new assistants listed');
      await c.press(':');
      await c.type('a Walk Tester v2');
      await c.press(KEYS.enter);
      await until(() => topRoute(c.store.getState()).name === 'assistant', 'Walk Tester v2 opened');
      assert.deepEqual(topRoute(c.store.getState()), { name: 'assistant', id: 'walk-2' });
      await c.press('1', ':');
      await c.type('a walk');
      await c.press(KEYS.enter);
      await c.waitFor('2 assistants match "walk"');
      await c.waitFor('Walk Tester v1');
      await c.press(KEYS.escape, ':');
      await c.type('a Nobody Here');
      await c.press(KEYS.enter);
      await c.waitFor('No assistant has the id or name "Nobody Here"');
    } finally {
      await c.close();
    }
  });
});

describe('status at a glance', () => {
  const call = (status: string, endedReason?: string) => ({ id: 'c1', status, endedReason }) as Call;

  test('call rows are coloured by state: waiting yellow, live green, ended plain, failed red', () => {
    assert.deepEqual(
      ['queued', 'ringing', 'in-progress', 'ended'].map((s) => callColor(THEMES.dark, call(s))),
      ['yellow', 'yellow', 'green', undefined],
    );
    assert.equal(callColor(THEMES.dark, call('ended', 'customer-did-not-answer')), 'red');
    assert.equal(callColor(THEMES.dark, call('ended', 'customer-busy')), 'red');
    assert.equal(callColor(THEMES.dark, call('ended', 'customer-ended-call')), undefined);
  });

  test('without colour the STATUS cell starts with the state glyph (ASCII through the glyph table)', () => {
    const status = (color: boolean, c: Call) =>
      callColumns(() => 'a', [], color)
        .find((x) => x.header === 'STATUS')!
        .value(c);
    assert.equal(status(true, call('ringing')), 'ringing');
    assert.deepEqual(
      [call('queued'), call('in-progress'), call('ended'), call('ended', 'customer-busy')].map((c) => status(false, c)),
      ['○ queued', '● in-progress', '✓ ended', '✗ ended'],
    );
    assert.equal(asciiText(String(status(false, call('ended', 'customer-busy')))), 'x ended');
  });
});

describe('sort', () => {
  const sb = createMemoryApi();

  test('O cycles the sort column and direction; the header shows it; the cursor row is the sorted one', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('NAME');
      const names = c.store.getState().assistants.data!.map((a) => a.name!);
      const asc = [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      const order = (frame: string) =>
        names
          .map((n) => [n, frame.indexOf(n.slice(0, 12))] as const)
          .sort((a, b) => a[1] - b[1])
          .map(([n]) => n);
      await c.press('O');
      assert.deepEqual(order(await c.waitFor('NAME ▲')), asc);
      await c.press('O');
      assert.deepEqual(order(await c.waitFor('NAME ▼')), [...asc].reverse());
      await c.press('O');
      await c.waitFor('STATUS ▲');
      assert.ok(!c.frame().includes('NAME ▼'));
    } finally {
      await c.close();
    }
  });

  test('files sort by size in bytes, not by the text "1.2 KB"', () => {
    const files = [
      { id: 'a', bytes: 900 },
      { id: 'b', bytes: 12_000 },
      { id: 'c', bytes: 2_000 },
    ] as KbFile[];
    assert.deepEqual(
      sortRows(files, FILE_COLUMNS, { column: 'SIZE', desc: false }).map((f) => f.id),
      ['a', 'c', 'b'],
    );
    assert.equal(nextSort({ column: 'ID', desc: true }, ['NAME', 'ID']), undefined, 'after the last column, the order rows came in');
  });
});

describe('the palette shows its candidates as you type', () => {
  const sb = createMemoryApi();

  test('the records an argument names so far show beside the line, narrowing as it is typed', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('NAME');
      const names = c.store.getState().assistants.data!.map((a) => a.name!);
      await c.press(':');
      await c.type('a ');
      await c.waitFor('<id or name>');
      await c.type(names[2][0]);
      const paletteLine = (f: string) => f.split('\n').find((l) => l.startsWith(':')) ?? '';
      await until(() => paletteLine(c.frame()).includes(names[2]), `${names[2]} beside the line`);
      assert.ok(!paletteLine(c.frame()).includes(names.find((n) => n[0] !== names[2][0])!), 'only the names that start so');
      await c.type('zzz');
      await c.waitFor('no assistant matches');
    } finally {
      await c.close();
    }
  });
});

describe('stats in columns', () => {
  test('per-assistant figures sit under their headers and costs line up on the decimal point', () => {
    const g = (key: string, calls: number, minutes: number, cost: number) => ({ key, calls, minutes, cost });
    const stats = {
      byDay: [g('2026-11-26', 3, 12.5, 12.5), g('2026-11-27', 1, 0.5, 0.475)],
      byAssistant: [g('a1', 3, 12.5, 12.5), g('a2', 1, 0.5, 0.475)],
      total: g('', 4, 13, 12.975),
    };
    const lines = statsLines(THEMES.dark, stats, 'calls', 100, (id) => `Assistant ${id}`, 'all calls').map((l) => l.text);
    const head = lines.find((l) => l.startsWith('ASSISTANT'))!;
    const rows = lines.filter((l) => l.startsWith('Assistant a'));
    assert.equal(rows.length, 2);
    const end = (line: string, word: string) => line.indexOf(word) + word.length;
    for (const r of rows) {
      const [calls, minutes] = r
        .slice(head.indexOf('CALLS') - 4)
        .trim()
        .split(/\s+/);
      assert.equal(end(r, ` ${calls} `) - 1, end(head, 'CALLS'), `calls under CALLS:\n${head}\n${r}`);
      assert.equal(end(r, ` ${minutes} `) - 1, end(head, 'MINUTES'), `minutes under MINUTES:\n${head}\n${r}`);
    }
    const points = rows.map((r) => r.lastIndexOf('.'));
    assert.equal(points[0], points[1], `costs on one decimal point:\n${rows.join('\n')}`);
    const days = lines.filter((l) => /^2026-11-2\d/.test(l)).map((l) => l.lastIndexOf('.'));
    assert.equal(days[0], days[1], 'and in the per-day lines');
  });
});

describe('search results in columns', () => {
  const sb = createMemoryApi();

  test("each hit's call is a row in the call log's columns, under a header", async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      await c.press(':');
      await c.type('search you');
      await c.press(KEYS.enter);
      const frame = await c.waitFor(/calls? mentions? you/);
      const lines = frame.split('\n');
      const head = lines.findIndex((l) => /^CREATED\s+/.test(l));
      assert.ok(head > 0, `a header line:\n${frame}`);
      const hit = c.store.getState().searches.you.hits[0].call;
      const row = lines[head + 1];
      assert.ok(row.includes(hit.customer!.number!), row);
      assert.equal(row.indexOf(hit.customer!.number!), lines[head].indexOf('CUSTOMER'), `the customer under CUSTOMER:\n${lines[head]}\n${row}`);
      assert.match(frame, / · 1\/\d+/);
    } finally {
      await c.close();
    }
  });
});
