// The archive's full-text search over what a call holds besides speech, and in every script: a
// tool's name, arguments and result are found; a word inside a run of Chinese, Japanese, Thai,
// Lao, Khmer or Burmese is found; what was found before (Latin words, phrases, prefixes, Arabic,
// CJK names written apart) still is; an archive indexed by the version before is indexed again
// on open, with progress (and its calls' turn latencies kept for the stats).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';
import { vapiCall, vapiToolCall } from '../support/vapi-records.js';

const said = (id: string, at: string, words: string) => vapiCall(id, at, { said: words, summary: '' }) as unknown as Call;

/** Calls saying one thing each, in the scripts a search must read. */
const CALLS: Call[] = [
  vapiToolCall('tool', '2026-11-21T09:00:00.000Z') as unknown as Call,
  said('ja', '2026-11-21T10:00:00.000Z', '明日の予約を変更したいです'),
  said('zh', '2026-11-21T10:01:00.000Z', '我想改一下明天的预约，谢谢'),
  said('th', '2026-11-21T10:02:00.000Z', 'ผมอยากเปลี่ยนการนัดหมายครับ'),
  said('lo', '2026-11-21T10:03:00.000Z', 'ຂ້ອຍຢາກປ່ຽນການນັດໝາຍ'),
  said('km', '2026-11-21T10:04:00.000Z', 'ខ្ញុំចង់ផ្លាស់ប្តូរការណាត់ជួប'),
  said('my', '2026-11-21T10:05:00.000Z', 'ရက်ချိန်းပြောင်းချင်ပါတယ်'),
  said('ar', '2026-11-21T10:06:00.000Z', 'أريد تغيير موعدي من فضلك'),
  said('en', '2026-11-21T10:07:00.000Z', 'I would like a refund for the broken kettle'),
  said('names', '2026-11-21T10:08:00.000Z', 'This is 鈴木 一郎 calling about 東京 office'),
];

function withArchive(fn: (archive: CallArchive, path: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-scripts-'));
  const path = join(dir, 'a.db');
  const archive = openArchive(path);
  try {
    archive.put(CALLS);
    fn(archive, path);
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const found = (archive: CallArchive, text: string) =>
  archive
    .search(text, {}, { limit: 20 })
    .map((h) => h.call.id)
    .sort();

test('a word only in a tool call’s arguments or result, or its name, is found, with a snippet', () => {
  withArchive((archive) => {
    assert.deepEqual(found(archive, 'BK-7731'), ['tool'], 'in the arguments');
    assert.deepEqual(found(archive, 'ORD-55821'), ['tool'], 'in the result');
    assert.deepEqual(found(archive, 'lookupBooking'), ['tool'], 'the tool’s name');
    const hit = archive.search('ORD-55821', {}, { limit: 1 })[0];
    assert.match(hit.snippet, /ORD-55821/);
    assert.ok(hit.parts.some((p) => p.hit && /ORD|55821/.test(p.text)));
    assert.equal(archive.countSearch('BK-7731'), 1);
  });
});

test('a word inside a run of Chinese, Japanese, Thai, Lao, Khmer or Burmese is found', () => {
  withArchive((archive) => {
    assert.deepEqual(found(archive, '予約'), ['ja', 'tool'], 'Japanese, also in the tool call’s transcript');
    assert.deepEqual(found(archive, '変更'), ['ja', 'tool'], 'a word in the middle');
    assert.deepEqual(found(archive, 'したい'), ['ja', 'tool'], 'kana inside a phrase');
    assert.deepEqual(found(archive, '预约'), ['zh']);
    assert.deepEqual(found(archive, '明天'), ['zh']);
    assert.deepEqual(found(archive, 'นัดหมาย'), ['th']);
    assert.deepEqual(found(archive, 'เปลี่ยน'), ['th']);
    assert.deepEqual(found(archive, 'ນັດ'), ['lo']);
    assert.deepEqual(found(archive, 'ណាត់'), ['km'], 'a word inside a compound');
    assert.deepEqual(found(archive, 'ချိန်း'), ['my']);
    assert.deepEqual(found(archive, '山田'), ['tool'], 'inside a customer’s name');
    assert.deepEqual(found(archive, '予約とは'), [], 'the whole of the query, not any of its characters');
    // The snippet reads as the text does: no marks of the index's cuts.
    const hit = archive.search('予約', {}, { limit: 5 }).find((h) => h.call.id === 'ja')!;
    assert.match(hit.snippet, /明日の予約を変更した/);
    assert.ok(!hit.snippet.includes('\u200b'));
    assert.equal(
      hit.parts
        .filter((p) => p.hit)
        .map((p) => p.text)
        .join(''),
      '予約',
      'the word marked',
    );
  });
});

test('what was found before still is: Latin words, phrases, prefixes, Arabic, CJK names written apart', () => {
  withArchive((archive) => {
    assert.deepEqual(found(archive, 'refund'), ['en']);
    assert.deepEqual(found(archive, '"broken kettle"'), ['en']);
    assert.deepEqual(found(archive, '"kettle broken"'), []);
    assert.deepEqual(found(archive, 'kett*'), ['en']);
    assert.deepEqual(found(archive, 'موعدي'), ['ar']);
    assert.deepEqual(found(archive, '鈴木'), ['names']);
    assert.deepEqual(found(archive, '一郎'), ['names']);
    assert.deepEqual(found(archive, '東京 office'), ['names']);
    assert.deepEqual(found(archive, 'Thursday'), [], 'no call says it');
  });
});

test('a call replaced or removed leaves none of its words behind', () => {
  withArchive((archive) => {
    archive.put([said('ja', '2026-11-21T10:00:00.000Z', '駐車場はありますか')]);
    assert.deepEqual(found(archive, '予約'), ['tool']);
    assert.deepEqual(found(archive, '駐車場'), ['ja']);
    archive.clear();
    assert.deepEqual(found(archive, '駐車場'), []);
  });
});

/**
 * Turns the (closed) archive at `path` into one the version before wrote: its index holds each
 * call's transcript as sent (speech only), summary and customer as they are, nothing cut.
 */
function downgradeToVersion4(path: string) {
  const a = openArchive(path);
  const records = [...a.exportCalls()];
  a.close();
  const db = openSqlite(path);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(`DROP VIEW call_text;
      CREATE VIEW call_text AS
        SELECT c.rowid AS rowid, call_transcript(c.record) AS transcript, call_summary(c.record) AS summary,
               c.customer_name AS customer_name, c.customer_number AS customer_number
        FROM calls c;
      INSERT INTO call_fts (call_fts) VALUES ('delete-all');
      DROP TABLE latency;`);
    const rowOf = db.prepare('SELECT rowid, customer_name, customer_number FROM calls WHERE id = ?');
    const insert = db.prepare('INSERT INTO call_fts (rowid, transcript, summary, customer_name, customer_number) VALUES (?, ?, ?, ?, ?)');
    for (const c of records) {
      const r = c as Record<string, unknown> & { analysis?: { summary?: string }; messages?: { role: string; message?: string }[] };
      const row = rowOf.get(c.id) as { rowid: number; customer_name: string | null; customer_number: string | null };
      const speech =
        typeof r.transcript === 'string'
          ? r.transcript
          : (r.messages ?? [])
              .filter((m) => m.message && m.role !== 'system')
              .map((m) => `${m.role === 'user' ? 'Caller' : 'Assistant'}: ${m.message}`)
              .join('\n');
      insert.run(row.rowid, speech, r.analysis?.summary || null, row.customer_name, row.customer_number);
    }
    db.exec('PRAGMA user_version = 4');
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

test('an archive the version before indexed is indexed again on open, once, with progress', () => {
  withArchive((first, path) => {
    first.close();
    downgradeToVersion4(path);
    const seen: [number, number][] = [];
    const archive = openArchive(path, { onUpgrade: (done, total) => seen.push([done, total]) });
    try {
      assert.deepEqual(seen[0], [0, CALLS.length], 'starts by saying how many');
      assert.deepEqual(seen.at(-1), [CALLS.length, CALLS.length], 'ends with all of them');
      assert.deepEqual(found(archive, 'ORD-55821'), ['tool']);
      assert.deepEqual(found(archive, '予約'), ['ja', 'tool']);
      assert.deepEqual(found(archive, '山田'), ['tool']);
      assert.deepEqual(found(archive, 'refund'), ['en']);
      // The turn latencies the version before did not keep are read from the records.
      assert.deepEqual(archive.stats('assistant').total.latency, { p50: 995, p95: 1210, turns: 2 });
      // Its rows match its records: a call replaced loses its old words.
      archive.put([said('ja', '2026-11-21T10:00:00.000Z', '駐車場はありますか')]);
      assert.deepEqual(found(archive, '予約'), ['tool']);
    } finally {
      archive.close();
    }
    const raw = openSqlite(path, { readOnly: true });
    try {
      assert.equal(pragmaValue(raw, 'user_version'), 6);
    } finally {
      raw.close();
    }
    const again: unknown[] = [];
    openArchive(path, { onUpgrade: (...p) => again.push(p) }).close();
    assert.deepEqual(again, [], 'once');
  });
});
