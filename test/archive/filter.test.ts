// The console's `/` as the archive gives it: a substring scan of the list fields, with the call
// log's other filters (a CallQuery, id included), and the rows read back by position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type CallQuery, type CallArchive } from '../../src/archive/index.js';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const call = (id: string, min: number, name: string, assistantId: string): Call =>
  ({ id, createdAt: new Date(T + min * 60_000).toISOString(), status: 'ended', assistantId, customer: { number: '+14155550100', name } }) as Call;

/** `n` calls a minute apart with every status, and ties and missing values in duration and cost, both ways. */
function sortable(n: number, prefix: string, name: (i: number) => string): (Call & Record<string, unknown>)[] {
  const statuses = ['ended', 'queued', 'in-progress', null, 'Ended', 'ringing'];
  return Array.from({ length: n }, (_, i) => {
    const c = call(`${prefix}${String(i).padStart(2, '0')}`, i, name(i), 'x') as Call & Record<string, unknown>;
    c.status = statuses[i % statuses.length];
    c.durationSeconds = i % 7 === 0 ? null : (i * 13) % 9;
    c.cost = i % 5 === 0 ? undefined : ((i * 31) % 11) / 4;
    return c;
  });
}

/** The ids a whole scan finds, newest first. */
function scan(archive: CallArchive, text: string, q: CallQuery = {}, assistantIds: string[] = []): string[] {
  const run = archive.filterScan({ text, assistantIds, numberIds: [] }, q);
  while (!run.step()) {
    // a slice at a time, as the console walks it
  }
  return archive.byPositions(run.positions(0, run.count)).map((r) => r.call.id);
}

test('filterScan: text with the log filters (assistant, dates, id), rows read back by position in the order given', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-filter-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    archive.put([call('c1', 0, 'Ada Lovelace', 'x'), call('c2', 10, 'Ada_Byron', 'y'), call('c3', 20, 'Bob', 'x'), call('c4', 30, 'ada', 'x')]);
    assert.deepEqual(scan(archive, 'ada'), ['c4', 'c2', 'c1']);
    assert.deepEqual(scan(archive, 'ada', { assistantId: 'x' }), ['c4', 'c1']);
    assert.deepEqual(scan(archive, 'ada', { after: T + 5 * 60_000, before: T + 25 * 60_000 }), ['c2']);
    assert.deepEqual(scan(archive, 'ada', { id: 'c1' }), ['c1']);
    assert.deepEqual(scan(archive, 'a_b'), ['c2'], "LIKE's _ is taken literally");
    assert.deepEqual(scan(archive, 'zzz', {}, ['y']), ['c2'], 'an assistant whose name matches brings its calls');

    const c1 = archive.positionOf('c1');
    const c3 = archive.positionOf('c3');
    assert.ok(c1 !== undefined && c3 !== undefined && c3 > c1, 'positions follow creation');
    assert.equal(archive.positionOf('missing'), undefined);
    assert.deepEqual(
      archive.byPositions([c1, c3, 12345]).map((r) => r.call.id),
      ['c1', 'c3'],
      'in the order given; a position not held is left out',
    );
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('filterScan sorts its matches as the call log window does (none last, ties by creation), reorders in place, and finds a match by position', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-filter-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    const calls = sortable(60, 's', (i) => (i % 3 === 0 ? 'Ada' : 'Bob'));
    archive.put(calls);
    const ada = new Set(calls.filter((_, i) => i % 3 === 0).map((c) => c.id));
    const run = archive.filterScan({ text: 'ada', assistantIds: [], numberIds: [] }, {});
    while (!run.step()) {
      // the whole walk
    }
    const ids = () => archive.byPositions(run.positions(0, run.count)).map((r) => r.call.id);
    for (const by of ['created', 'duration', 'cost', 'status'] as const) {
      for (const desc of [false, true]) {
        run.reorder({ by, desc });
        const expected = archive
          .window({}, { limit: 100, order: { by, desc } })
          .map((r) => r.call.id)
          .filter((id) => ada.has(id));
        assert.deepEqual(ids(), expected, `${by} ${desc ? 'descending' : 'ascending'}`);
        expected.forEach((id, i) => assert.equal(run.indexOf(archive.positionOf(id)!), i, `${by}: ${id} at ${i}`));
        assert.deepEqual(
          archive.byPositions(run.positions(3, 4)).map((r) => r.call.id),
          expected.slice(3, 7),
        );
      }
    }
    assert.equal(run.indexOf(archive.positionOf('s01')!), undefined, 'a call that does not match');
    // A walk started in an order sorts as it goes.
    const sorted = archive.filterScan({ text: 'ada', assistantIds: [], numberIds: [] }, {}, { by: 'cost', desc: true });
    while (!sorted.step()) {
      // the whole walk
    }
    run.reorder({ by: 'cost', desc: true });
    assert.deepEqual(sorted.positions(0, sorted.count), run.positions(0, run.count));
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a window read from the end (fromEnd) holds the same calls in the same order as the window read from the top, in every order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-filter-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    archive.put(sortable(50, 'e', () => 'Ada'));
    for (const by of ['created', 'duration', 'cost', 'status'] as const) {
      for (const desc of [false, true]) {
        const all = archive.window({}, { limit: 50, order: { by, desc } }).map((r) => r.call.id);
        for (const [offset, limit] of [
          [0, 12],
          [5, 12],
          [38, 20],
        ]) {
          const end = archive.window({}, { offset, limit, order: { by, desc }, fromEnd: true }).map((r) => r.call.id);
          const to = 50 - offset;
          assert.deepEqual(end, all.slice(Math.max(0, to - limit), to), `${by} ${desc ? 'descending' : 'ascending'}, ${limit} ending ${offset} from the end`);
        }
      }
    }
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
