// The archive indexes a call's view (src/api/records.ts), not our spec's field names: a call in
// the hosted platform's shape gets its duration from startedAt/endedAt, its cost from
// costBreakdown, and its summary (analysis.summary) and words (messages[].message) searchable.
// An archive indexed by the version before is derived again from its records when opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';
import { vapiCall } from '../support/vapi-records.js';
import { downgradeToVersion3 } from '../support/archive-v3.js';

const calls = (): Call[] =>
  [
    vapiCall('v1', '2026-11-20T10:00:00.000Z', { said: 'Please move my appointment to Thursday', summary: 'Rescheduled a cleaning.' }, 90),
    vapiCall('v2', '2026-11-20T11:00:00.000Z', { said: 'Is parking free at the clinic', summary: 'Asked about parking.' }, 30),
  ] as Call[];

const SPEC_CALL: Call = {
  id: 's1',
  createdAt: '2026-11-19T09:00:00.000Z',
  status: 'ended',
  durationSeconds: 45,
  cost: 0.05,
  transcript: 'User: when does the lighthouse open',
  summary: 'Ferry times.',
  messages: [{ role: 'user', content: 'when does the lighthouse open' }],
};

function withArchive(fn: (path: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-records-'));
  try {
    fn(join(dir, 'a.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the archive shows of the calls above: durations, stats, searches. */
function assertDerived(path: string) {
  const archive = openArchive(path);
  try {
    const rows = archive.window({ after: '2026-11-20T00:00:00Z' }, { limit: 10 });
    assert.deepEqual(
      rows.map((r) => [r.call.id, r.call.durationSeconds, r.call.cost]),
      [
        ['v2', 30, 0.15],
        ['v1', 90, 0.15],
      ],
    );
    const stats = archive.stats('assistant', { after: '2026-11-20T00:00:00Z' });
    assert.equal(stats.total.calls, 2);
    assert.equal(stats.total.minutes, 2, 'talk time from startedAt/endedAt');
    assert.equal(stats.total.cost, 0.3);
    const day = archive.stats('day', { after: '2026-11-20T00:00:00Z' });
    assert.equal(day.total.seconds, 120, 'the quarter-hour rollup holds the durations too');
    assert.deepEqual(
      archive.search('Thursday', {}, { limit: 5 }).map((h) => h.call.id),
      ['v1'],
      'words from messages[].message',
    );
    assert.match(archive.search('Thursday', {}, { limit: 5 })[0].snippet, /appointment to Thursday/);
    assert.deepEqual(
      archive.search('parking', {}, { limit: 5 }).map((h) => h.call.id),
      ['v2'],
    );
    assert.deepEqual(
      archive.search('Rescheduled', {}, { limit: 5 }).map((h) => h.call.id),
      ['v1'],
      'analysis.summary',
    );
    assert.equal(archive.countSearch('cleaning'), 1);
    // The record itself is kept as sent.
    assert.deepEqual(archive.get('v1'), calls()[0]);
  } finally {
    archive.close();
  }
}

test('a Vapi-shaped call is indexed by its view: duration, cost, summary and transcript words', () => {
  withArchive((path) => {
    const archive = openArchive(path);
    archive.put(calls());
    archive.close();
    assertDerived(path);
    // A changed record replaces its words in the index (the old ones are found no more).
    const a = openArchive(path);
    try {
      const changed = vapiCall('v1', '2026-11-20T10:00:00.000Z', { said: 'Cancel everything on Friday', summary: 'Cancelled.' }, 60);
      a.put([changed as Call]);
      assert.deepEqual(a.search('Thursday', {}, { limit: 5 }), []);
      assert.deepEqual(
        a.search('Friday', {}, { limit: 5 }).map((h) => h.call.id),
        ['v1'],
      );
      assert.equal(a.stats('day', {}).total.seconds, 90);
    } finally {
      a.close();
    }
  });
});

test('an archive indexed by the version before (no durations, no text from messages or analysis) is derived again on open, once', () => {
  withArchive((path) => {
    const archive = openArchive(path);
    archive.put(calls());
    // A call in our spec's shape, which the version before read as the view does: left as it is.
    archive.put([SPEC_CALL]);
    archive.close();
    downgradeToVersion3(path);
    // Made as the version before made it: its text view read $.transcript and $.summary only, its
    // duration and cost columns durationSeconds and cost only, and its rollup summed those.
    const db = openSqlite(path);
    db.exec(`DROP VIEW call_text;
      CREATE VIEW call_text AS
        SELECT c.rowid AS rowid, json_extract(r.json, '$.transcript') AS transcript, json_extract(r.json, '$.summary') AS summary,
               c.customer_name AS customer_name, c.customer_number AS customer_number
        FROM calls c JOIN records r ON r.rowid = c.record;
      INSERT INTO call_fts (call_fts) VALUES ('rebuild');
      UPDATE calls SET duration = NULL, cost = NULL WHERE id != 's1';
      DELETE FROM rollup;
      PRAGMA user_version = 2;`);
    for (const [dim, key] of [
      [0, `''`],
      [1, `coalesce(assistant_id, '')`],
      [2, `coalesce(phone_number_id, '')`],
      [3, `coalesce(status, '')`],
      [4, `coalesce(ended_reason, '')`],
      [5, `coalesce(type, '')`],
    ]) {
      db.exec(`INSERT INTO rollup (dim, bucket, key, calls, seconds, cost)
        SELECT ${dim}, created_at / ${15 * 60_000}, ${key}, count(*), total(duration), total(cost) FROM calls GROUP BY 2, 3`);
    }
    db.close();
    assertDerived(path);
    const spec = openArchive(path);
    try {
      assert.deepEqual(
        spec.search('lighthouse', {}, { limit: 5 }).map((h) => h.call.id),
        ['s1'],
      );
      assert.deepEqual(
        spec.search('Ferry', {}, { limit: 5 }).map((h) => h.call.id),
        ['s1'],
      );
      assert.equal(spec.window({}, { limit: 10 }).find((r) => r.call.id === 's1')?.call.durationSeconds, 45);
      // Its index rows still match its record: replaced, its old words are found no more.
      spec.put([{ ...SPEC_CALL, transcript: 'User: a harbour tour', summary: 'Tour.' }]);
      assert.deepEqual(spec.search('lighthouse', {}, { limit: 5 }), []);
      assert.deepEqual(
        spec.search('harbour', {}, { limit: 5 }).map((h) => h.call.id),
        ['s1'],
      );
      spec.put([SPEC_CALL]);
    } finally {
      spec.close();
    }
    const after = openSqlite(path, { readOnly: true });
    try {
      assert.equal(pragmaValue(after, 'user_version'), 6);
    } finally {
      after.close();
    }
    // Opened again: nothing to do, and everything still holds.
    assertDerived(path);
  });
});
