// The call log's window on its own (src/store/call-window.ts): which rows it reads for a screen,
// that rows it keeps are the same objects, that a read ahead reads only past them, and that it
// reads the whole window again when the list changed under it. A list in memory stands for the
// archive; the last test reads a real archive through callRows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type ArchivedCall } from '../../src/archive/index.js';
import { CallWindow, callRows, windowFor, type CallRows } from '../../src/store/call-window.js';

const call = (i: number): Call => ({ id: `c${i}`, createdAt: new Date(1_700_000_000_000 - i * 1000).toISOString(), status: 'ended' }) as Call;

/** A list of `n` calls in memory, newest first (position: n - index), counting what is read. */
function listOf(n: number) {
  let rows: ArchivedCall[] = Array.from({ length: n }, (_, i) => ({ call: call(i), position: n - i }));
  const reads: { from: number; count: number; beside?: 'newer' | 'older' }[] = [];
  const list: CallRows = {
    count: () => rows.length,
    read(from, count) {
      reads.push({ from, count });
      return rows.slice(from, from + count).map((r) => ({ ...r, call: { ...r.call } }));
    },
    beside(from, count, _total, _position, direction) {
      reads.push({ from, count, beside: direction });
      return rows.slice(from, from + count).map((r) => ({ ...r, call: { ...r.call } }));
    },
    indexOf: (id) => {
      const i = rows.findIndex((r) => r.call.id === id);
      return i < 0 ? undefined : i;
    },
  };
  return { list, reads, set: (next: ArchivedCall[]) => (rows = next), rows: () => rows };
}

const ids = (w: CallWindow) => w.calls.map((c) => c.id);

test('windowFor: a screen above and below the one shown, inside the list', () => {
  assert.deepEqual(windowFor(0, 20, 1000), { from: 0, count: 60 });
  assert.deepEqual(windowFor(100, 20, 1000), { from: 80, count: 60 });
  assert.deepEqual(windowFor(990, 20, 1000), { from: 940, count: 60 }, 'the far end: the last three screens');
  assert.deepEqual(windowFor(5, 4, 1000), { from: 0, count: 30 }, 'ten rows a screen at least');
});

test('fill reads the window a screen needs, once; a read that finds the same rows keeps them', () => {
  const { list, reads } = listOf(1000);
  const w = new CallWindow();
  assert.equal(w.fill(list, { scroll: 100, rows: 20 }, 1000, false), true);
  assert.equal(w.from, 80);
  assert.equal(w.total, 1000);
  assert.deepEqual(ids(w).slice(0, 2), ['c80', 'c81']);
  assert.equal(w.calls.length, 60);
  assert.equal(w.callAt(100)?.id, 'c100');
  assert.equal(w.callAt(79), undefined);
  assert.deepEqual(reads, [{ from: 80, count: 60 }]);

  // The screen moved within what is held: nothing is read.
  assert.equal(w.fill(list, { scroll: 110, rows: 20 }, 1000, false), false);
  assert.equal(reads.length, 1);

  // Forced (a sync wrote pages) and nothing changed: read, and the same objects are kept.
  const held = w.calls;
  assert.equal(w.fill(list, { scroll: 100, rows: 20 }, 1000, true), false);
  assert.equal(reads.length, 2);
  assert.equal(w.calls, held, 'the rows held stay the same array');

  // Only the count changed (a back-fill added calls below): the rows stay, the total moves.
  assert.equal(w.fill(list, { scroll: 100, rows: 20 }, 1200, true), true);
  assert.equal(w.calls, held);
  assert.equal(w.total, 1200);
});

test('fill reads again when a record held changed', () => {
  const { list, rows, set } = listOf(100);
  const w = new CallWindow();
  w.fill(list, { scroll: 0, rows: 20 }, 100, false);
  const held = w.calls;
  set(rows().map((r, i) => (i === 3 ? { ...r, call: { ...r.call, status: 'in-progress' } } : r)));
  assert.equal(w.fill(list, { scroll: 0, rows: 20 }, 100, true), true);
  assert.notEqual(w.calls, held);
  assert.equal(w.calls[3].status, 'in-progress');
});

test('move keeps the rows still wanted (the same objects) and reads only past them', () => {
  const { list, reads } = listOf(1000);
  const w = new CallWindow();
  w.fill(list, { scroll: 100, rows: 20 }, 1000, false);
  const kept = w.calls.slice(20);
  reads.length = 0;
  assert.equal(w.move(list, { scroll: 120, rows: 20 }), 'moved');
  assert.equal(w.from, 100);
  assert.equal(w.calls.length, 60);
  assert.deepEqual(ids(w).slice(0, 1), ['c100']);
  assert.deepEqual(ids(w).at(-1), 'c159');
  for (let i = 0; i < 40; i++) assert.equal(w.calls[i], kept[i], `row ${i} is the object held before`);
  assert.deepEqual(reads, [{ from: 140, count: 20, beside: 'older' }]);
  assert.deepEqual(w.positions.slice(0, 2), [900, 899]);

  // Back up: the rows above are read newer than the first held.
  reads.length = 0;
  assert.equal(w.move(list, { scroll: 90, rows: 20 }), 'moved');
  assert.equal(w.from, 70);
  assert.deepEqual(reads, [{ from: 70, count: 30, beside: 'newer' }]);
  assert.deepEqual(ids(w).slice(0, 1), ['c70']);

  // Already centred: nothing to do.
  assert.equal(w.move(list, { scroll: 90, rows: 20 }), 'none');
});

test('move reads the window whole when nothing held is wanted, or the list changed under it', () => {
  const { list, reads, rows, set } = listOf(1000);
  const w = new CallWindow();
  w.fill(list, { scroll: 100, rows: 20 }, 1000, false);
  reads.length = 0;
  assert.equal(w.move(list, { scroll: 600, rows: 20 }), 'refilled', 'a jump past the rows held');
  assert.deepEqual(reads, [{ from: 580, count: 60 }]);
  assert.deepEqual(ids(w).slice(0, 1), ['c580']);

  // Calls went from the end of the list: the rows past the window come short.
  set(rows().slice(0, 650));
  reads.length = 0;
  assert.equal(w.move(list, { scroll: 620, rows: 20 }), 'refilled');
  assert.deepEqual(
    reads.map((r) => r.beside ?? 'whole'),
    ['older', 'whole'],
  );
});

test('nearEnd: within half a screen of an end of the rows held, with more past it', () => {
  const { list } = listOf(1000);
  const w = new CallWindow();
  w.fill(list, { scroll: 0, rows: 20 }, 1000, false);
  assert.equal(w.nearEnd({ scroll: 0, rows: 20 }), false, 'the top of the list: nothing above');
  assert.equal(w.nearEnd({ scroll: 25, rows: 20 }), false);
  assert.equal(w.nearEnd({ scroll: 31, rows: 20 }), true, 'rows 31-50 of 0-59: nine left below');
  w.fill(list, { scroll: 500, rows: 20 }, 1000, false);
  assert.equal(w.from, 480);
  assert.equal(w.nearEnd({ scroll: 489, rows: 20 }), true, 'nine rows above the screen');
  assert.equal(w.nearEnd({ scroll: 495, rows: 20 }), false);
  const short = listOf(30);
  const all = new CallWindow();
  all.fill(short.list, { scroll: 10, rows: 20 }, 30, false);
  assert.equal(all.nearEnd({ scroll: 10, rows: 20 }), false, 'the whole list is held');
  all.clear();
  assert.deepEqual([all.from, all.calls.length, all.total], [0, 0, 0]);
});

test('callRows reads the archive: the far end from the end, the id filter, a sorted back half, where a call is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-window-'));
  const archive = openArchive(join(dir, 'calls.db'), { service: 'test' });
  try {
    archive.put(Array.from({ length: 300 }, (_, i) => ({ ...call(i), cost: i % 7, assistantId: i % 2 ? 'odd' : 'even' }) as Call));
    const all = callRows(archive, { query: {} });
    assert.equal(all.count(), 300);
    const w = new CallWindow();
    w.fill(all, { scroll: 290, rows: 10 }, 300, false);
    assert.equal(w.from, 270);
    assert.deepEqual(ids(w).slice(-2), ['c298', 'c299'], 'the oldest calls, in order');
    assert.equal(all.indexOf('c42'), 42);
    assert.equal(all.indexOf('nope'), undefined);

    const odd = callRows(archive, { query: { assistantId: 'odd' } });
    assert.equal(odd.count(), 150);
    assert.equal(odd.indexOf('c41'), 20);

    const one = callRows(archive, { query: {}, id: 'c7' });
    assert.equal(one.count(), 1);
    assert.deepEqual(
      one.read(0, 10, 1).map((r) => r.call.id),
      ['c7'],
    );
    assert.equal(callRows(archive, { query: { assistantId: 'even' }, id: 'c7' }).count(), 0, "the id filter within the log's other filters");

    const byCost = callRows(archive, { query: {}, order: { by: 'cost', desc: true } });
    const back = byCost.read(250, 50, 300).map((r) => r.call.cost);
    assert.equal(back.length, 50);
    assert.deepEqual(
      back,
      [...back].sort((a, b) => (b ?? 0) - (a ?? 0)),
      'the back half, in the order',
    );
    assert.equal(back.at(-1), 0);
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
