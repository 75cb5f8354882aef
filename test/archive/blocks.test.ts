// The archive keeps records compressed in blocks against a dictionary of its own records
// (src/archive/blocks.ts): every record comes back as the same JSON value (odd unicode, a large
// transcript, line breaks in strings, unknown fields), after updates and removals too; two
// handles writing one file share its dictionary; a version 3 archive (records as JSON text) is
// compressed on open with every record, position, search hit, snippet and stat unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { openSqlite, pragmaValue } from '../../src/sqlite.js';
import { downgradeToVersion3 } from '../support/archive-v3.js';

const T = Date.parse('2026-06-01T08:00:00.000Z');
const ODD = [
  'emoji 👩🏽‍🚀 and flags 🇳🇴, combining e\u0301, CJK 東京, RTL שלום, zero width \u200b\u200d',
  'line\nbreaks\r\nand\ttabs, \u2028 and \u2029, a NUL \u0000 and ESC \u001b[31m',
  'lone surrogates \ud800 and \udfff, quotes " and \\ backslashes',
];

function call(i: number, extra: Partial<Call> = {}): Call {
  const name = ['Priya Shah', 'Chris Lee', 'Ana Souza', 'Kenji Ito'][i % 4];
  const said = i % 10 === 0 ? 'What are your opening hours on Sunday?' : `Can I change order ${i}?`;
  return {
    id: `call-${String(i).padStart(6, '0')}`,
    createdAt: new Date(T + i * 61_000).toISOString(),
    assistantId: `asst-${i % 3}`,
    phoneNumberId: `num-${i % 2}`,
    type: 'inboundPhoneCall',
    status: 'ended',
    endedReason: 'customer-ended-call',
    customer: { number: `+1555${String(i).padStart(7, '0')}`, name },
    durationSeconds: 30 + (i % 90),
    cost: Math.round(i * 7) / 1000,
    transcript: `AI: Hello ${name}, how can I help?\nUser: ${said}\nAI: Let me look that up for you.${i % 7 === 0 ? ` ${ODD[i % 3]}` : ''}`,
    summary: `${name} asked: ${said}`,
    messages: [
      { role: 'bot', message: `Hello ${name}, how can I help?`, secondsFromStart: 0 },
      { role: 'user', message: said, secondsFromStart: 3.5 },
    ],
    someFieldWeDoNotKnow: { nested: [1, 2.5, 1e21, null, true, { deep: ODD[i % 3] }] },
    ...extra,
  } as Call;
}

function withDir(fn: (path: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-blocks-'));
  try {
    fn(join(dir, 'a.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every record the archive gives back, by id, as JSON values. */
function held(archive: CallArchive): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const json of archive.exportJson()) {
    const v = JSON.parse(json) as { id: string };
    assert.ok(!m.has(v.id), `${v.id} exported once`);
    m.set(v.id, v);
  }
  return m;
}

function assertHolds(archive: CallArchive, expected: Call[]) {
  const got = held(archive);
  assert.equal(got.size, expected.length);
  for (const c of expected) {
    // The same JSON value as sent: parsed back from what the archive gives, equal to the original's.
    const sent = JSON.parse(JSON.stringify(c)) as unknown;
    assert.deepEqual(got.get(c.id), sent, c.id);
    assert.deepEqual(archive.get(c.id), sent, c.id);
  }
}

/** What the console and the commands show of an archive: positions, searches with snippets, stats. */
function views(archive: CallArchive) {
  return {
    window: archive.window({}, { limit: 10_000 }),
    byAssistant: archive.window({ assistantId: 'asst-1' }, { limit: 10_000 }).map((r) => r.position),
    byNumber: archive.count({ phoneNumberId: 'num-1', after: T + 5 * 61_000 }),
    one: archive.window({ id: 'call-000042' }, { limit: 5 }).map((r) => r.call.id),
    searches: ['"opening hours"', 'order', 'Priya', 'surrogates', 'zebra', '👩🏽‍🚀'].map((t) => ({
      hits: archive.search(t, {}, { limit: 20 }),
      n: archive.countSearch(t),
    })),
    stats: (['day', 'assistant', 'number', 'status'] as const).map((by) => archive.stats(by)),
  };
}

test('records come back as the same JSON values through writes, updates and removals; stored compressed', () => {
  withDir((path) => {
    const archive = openArchive(path);
    try {
      // A first write too small for a dictionary, then a page that makes one, then one large record.
      let calls = Array.from({ length: 40 }, (_, i) => call(i));
      archive.put(calls);
      const page = Array.from({ length: 1000 }, (_, i) => call(40 + i));
      archive.put(page);
      const large = call(2000, { transcript: `User: ${'a long line of talk '.repeat(60_000)}${ODD.join(' ')}` });
      archive.put([large]);
      calls = [...calls, ...page, large];
      assertHolds(archive, calls);

      // Updated (in place and moved in time) and removed calls; the same id twice in one write.
      const changed = [call(5, { status: 'in-progress', endedReason: undefined }), call(500, { createdAt: new Date(T - 1000).toISOString() })];
      archive.put([...changed, call(700, { cost: 1 }), call(700, { cost: 2 })]);
      calls = calls.map((c) =>
        c.id === 'call-000005' ? changed[0] : c.id === 'call-000500' ? changed[1] : c.id === 'call-000700' ? call(700, { cost: 2 }) : c,
      );
      assertHolds(archive, calls);
      // Snippets are cut from the decompressed record's text, the matched words marked.
      const hits = archive.search('"opening hours"', {}, { limit: 3 });
      assert.equal(hits.length, 3);
      for (const h of hits) {
        assert.match(h.snippet, /What are your opening hours on Sunday\?/);
        assert.deepEqual(
          h.parts.filter((p) => p.hit).map((p) => p.text),
          ['opening hours'],
        );
      }
      assert.equal(archive.search('surrogates', {}, { limit: 1 })[0]?.parts.find((p) => p.hit)?.text, 'surrogates');

      // Stored compressed: the blocks take a fraction of the JSON text.
      const db = openSqlite(path, { readOnly: true });
      try {
        const blocks = (db.prepare('SELECT total(length(data)) AS n FROM blocks').get() as { n: number }).n;
        const text = calls.filter((c) => c !== large).reduce((n, c) => n + Buffer.byteLength(JSON.stringify(c)), 0);
        const big = (db.prepare('SELECT max(length(data)) AS n FROM blocks').get() as { n: number }).n;
        assert.ok(blocks - big < text * 0.25, `${blocks - big} bytes of blocks for ${text} bytes of JSON text`);
        assert.equal((db.prepare('SELECT count(*) AS n FROM dicts').get() as { n: number }).n, 1);
      } finally {
        db.close();
      }
      // Every record gone: no block is left, and a cleared archive keeps no dictionary (it is made of records).
      archive.clear();
      const after = openSqlite(path, { readOnly: true });
      try {
        assert.equal((after.prepare('SELECT count(*) AS n FROM blocks').get() as { n: number }).n, 0);
        assert.equal((after.prepare('SELECT count(*) AS n FROM dicts').get() as { n: number }).n, 0);
      } finally {
        after.close();
      }
      archive.put([call(1)]);
      assertHolds(archive, [call(1)]);
    } finally {
      archive.close();
    }
  });
});

test('two handles on one file: each reads what the other wrote, and they share one dictionary', () => {
  withDir((path) => {
    const a = openArchive(path);
    const b = openArchive(path);
    try {
      a.put(Array.from({ length: 10 }, (_, i) => call(i)));
      b.put(Array.from({ length: 300 }, (_, i) => call(100 + i)));
      a.put(Array.from({ length: 300 }, (_, i) => call(500 + i)));
      // Each replaces some of the other's calls, and removes none of its own.
      b.put([call(3, { cost: 9 }), call(600, { cost: 9 })]);
      a.put([call(150, { cost: 9 })]);
      const expected = [
        ...Array.from({ length: 10 }, (_, i) => call(i, i === 3 ? { cost: 9 } : {})),
        ...Array.from({ length: 300 }, (_, i) => call(100 + i, 100 + i === 150 ? { cost: 9 } : {})),
        ...Array.from({ length: 300 }, (_, i) => call(500 + i, 500 + i === 600 ? { cost: 9 } : {})),
      ];
      assertHolds(a, expected);
      assertHolds(b, expected);
    } finally {
      a.close();
      b.close();
    }
    const db = openSqlite(path, { readOnly: true });
    try {
      assert.equal((db.prepare('SELECT count(*) AS n FROM dicts').get() as { n: number }).n, 1);
    } finally {
      db.close();
    }
  });
});

test('a version 3 archive (records as JSON text) is compressed on open: records, positions, searches, snippets and stats unchanged', () => {
  withDir((path) => {
    const calls = Array.from({ length: 600 }, (_, i) => call(i));
    let archive = openArchive(path);
    archive.put(calls.slice(0, 300));
    archive.put(calls.slice(300));
    const before = views(archive);
    archive.close();
    downgradeToVersion3(path);

    archive = openArchive(path);
    try {
      assertHolds(archive, calls);
      assert.deepEqual(views(archive), before);
      // Written to after: the new calls join the compressed ones.
      archive.put([call(900), call(5, { cost: 3 })]);
      assertHolds(archive, [...calls.map((c) => (c.id === 'call-000005' ? call(5, { cost: 3 }) : c)), call(900)]);
    } finally {
      archive.close();
    }
    const db = openSqlite(path, { readOnly: true });
    try {
      assert.equal(pragmaValue(db, 'user_version'), 6);
      assert.equal(db.prepare(`SELECT name FROM sqlite_schema WHERE name IN ('records', 'calls_3')`).all().length, 0);
    } finally {
      db.close();
    }
  });
});

test('ids that end alike (the index holds their last 8 characters) are told apart by every lookup', () => {
  withDir((path) => {
    const archive = openArchive(path);
    try {
      const a = call(1, { id: 'first-0000000001' });
      const b = call(2, { id: 'other-0000000001' });
      archive.put([a, b]);
      archive.put([{ ...b, cost: 5 }]);
      assert.equal(archive.get(a.id)?.cost, a.cost);
      assert.equal(archive.get(b.id)?.cost, 5);
      assert.deepEqual(
        archive.window({ id: a.id }, { limit: 5 }).map((r) => r.call.id),
        [a.id],
      );
      assert.equal(archive.positionOf(b.id), archive.window({ id: b.id }, { limit: 1 })[0].position);
      assert.equal(archive.count(), 2);
    } finally {
      archive.close();
    }
  });
});

/** The window a zstd frame declares (its header's Window_Descriptor) in bytes; undefined for a single-segment frame (the window is its content). */
function frameWindow(frame: Uint8Array): number | undefined {
  assert.equal(Buffer.from(frame).readUInt32LE(0), 0xfd2fb528, 'a zstd frame');
  if (frame[4] & 0x20) return undefined;
  const base = 2 ** (10 + (frame[5] >> 3));
  return base + (base / 8) * (frame[5] & 7);
}

test('blocks are compressed with a window of at most 256 KiB (a cheap context a block); a block larger than it comes back whole', () => {
  withDir((path) => {
    const archive = openArchive(path);
    try {
      const page = Array.from({ length: 200 }, (_, i) => call(i));
      const large = Array.from({ length: 4 }, (_, i) => call(300 + i, { transcript: `User: ${`talk ${i} `.repeat(40_000)}` }));
      archive.put(page);
      archive.put(large);
      assertHolds(archive, [...page, ...large]);
      const db = openSqlite(path, { readOnly: true });
      try {
        const windows = (db.prepare('SELECT data FROM blocks').all() as { data: Uint8Array }[]).map((f) => frameWindow(f.data));
        assert.ok(
          windows.some((w) => w !== undefined),
          'a block larger than its window',
        );
        for (const w of windows) assert.ok(w === undefined || w <= 256 * 1024, `a window of ${w} bytes`);
      } finally {
        db.close();
      }
    } finally {
      archive.close();
    }
  });
});
