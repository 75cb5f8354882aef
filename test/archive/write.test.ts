// The archive writer's row numbering (src/archive/write.ts): a call's rowid is its creation ms ×
// 1024 plus a slot. Calls past 1024 in one ms, written in several writes, the same id twice in
// one write, a call whose creation time changes, and writes over a wide span all keep one row
// per call, in the service's order.
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
