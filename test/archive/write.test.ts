// The archive writer's row numbering (src/archive/write.ts): a call's rowid is its creation ms ×
// 1024 plus a slot. Calls past 1024 in one ms, written in several writes, the same id twice in
// one write, a call whose creation time changes, writes over a wide span, and pages older or newer
// than everything held (numbered without asking the database) all keep one row per call, in the
// service's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const call = (id: string, ms: number, extra: Partial<Call> = {}): Call => ({
  id,
  createdAt: new Date(ms).toISOString(),
  status: 'ended',
  cost: 0.01,
  durationSeconds: 10,
  ...extra,
});
const id = (prefix: string, i: number) => `${prefix}-${String(i).padStart(5, '0')}`;

test('rowids: over 1024 calls in one millisecond, duplicates, moved calls and wide spans keep one row per call in order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-write-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    // 1,500 calls in one ms (past its 1024 slots), over three writes, with neighbours on both sides.
    const same = Array.from({ length: 1500 }, (_, i) => call(id('same', i), T));
    archive.put([...same.slice(0, 600), call('before', T - 1), call('after', T + 1)]);
    archive.put(same.slice(600, 1100));
    // The same id twice in one write (the later one wins), and one call moved to another ms.
    archive.put([...same.slice(1100), call('dup', T + 5, { cost: 1 }), call('dup', T + 5, { cost: 2 }), call('after', T + 2)]);
    const all = archive.window({}, { limit: 10_000 });
    assert.equal(all.length, 1500 + 3);
    assert.equal(new Set(all.map((r) => r.call.id)).size, all.length);
    assert.equal(archive.get('dup')?.cost, 2);
    assert.equal(archive.get('after')?.createdAt, new Date(T + 2).toISOString());
    // Newest first: the calls of that ms in id order (reversed), after the later ones, before 'before'.
    const ids = all.map((r) => r.call.id);
    assert.deepEqual(ids.slice(0, 2), ['dup', 'after']);
    assert.deepEqual(ids.slice(2, 1502), same.map((c) => c.id).reverse());
    assert.equal(ids[1502], 'before');

    // 5,000 calls one ms apart, then calls in milliseconds among them: nothing collides.
    const wide = Array.from({ length: 5000 }, (_, i) => call(id('wide', i), T + 1000 + i));
    archive.put(wide);
    archive.put([call('among', T + 1000 + 2500), call('first', T + 1000), call('last', T + 1000 + 4999)]);
    assert.equal(archive.count(), 1503 + 5003);
    const around = archive.window({ after: T + 1000 + 2499, before: T + 1000 + 2501 }, { limit: 10 }).map((r) => r.call.id);
    assert.deepEqual(around, [id('wide', 2501), 'among', id('wide', 2500), id('wide', 2499)]);
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rowids: pages older and newer than everything held, one spilling into a held millisecond and one into its own, keep one row per call', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-write-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    archive.put([call('held-1', T + 1), call('held-9', T + 9)]);
    // A back-fill page: 1,030 calls in the ms before everything held; the last 6 spill into the held ms.
    const older = Array.from({ length: 1030 }, (_, i) => call(id('older', i), T));
    archive.put(older);
    // A page of new calls: 1,030 in one ms past everything held, spilling into the next, then one in that next ms.
    const newer = Array.from({ length: 1030 }, (_, i) => call(id('newer', i), T + 20));
    archive.put([...newer, call('next', T + 21)]);
    // Calls among the held ones, one in a held ms, in a write that also brings an older one.
    archive.put([call('among', T + 5), call('held-9b', T + 9), call('oldest', T - 50)]);
    const ids = archive.window({}, { limit: 10_000 }).map((r) => r.call.id);
    assert.equal(ids.length, 2 + 1030 + 1031 + 3);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(archive.count(), ids.length);
    for (const c of [...older, ...newer]) assert.equal(archive.get(c.id)?.id, c.id);
    assert.deepEqual(ids.slice(0, 1), ['next']);
    assert.equal(ids.at(-1), 'oldest');
    assert.deepEqual(
      ids.filter((i) => i.startsWith('held') || i === 'among'),
      ['held-9b', 'held-9', 'among', 'held-1'],
    );
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
