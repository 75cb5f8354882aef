// The full sync's same-run baseline (rows/archive.ts), so a slower or busier machine moves the
// baseline with the figure instead of hiding or inventing a regression: the same records fetched
// page by page (the sync's client and pager, pages of 1,000) and written by a bare SQLite insert
// loop (JSON text, one transaction a page, WAL). Prints one JSON line: { calls, ms }.
// argv: <url> <apiKey> <at most this many calls>
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createClient } from '../../../src/api/client.js';
import { walkCallLog } from '../../../src/api/pager.js';

const [url, apiKey, max] = process.argv.slice(2);

async function syncBaseline(url: string, apiKey: string, max: number): Promise<{ calls: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-baseline-'));
  const api = createClient({ baseUrl: url, apiKey });
  const db = new DatabaseSync(join(dir, 'bare.db'));
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE records (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, json TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO records (id, json) VALUES (?, ?)');
    let calls = 0;
    const t0 = performance.now();
    for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) {
      db.exec('BEGIN');
      for (const c of page) insert.run(c.id, JSON.stringify(c));
      db.exec('COMMIT');
      calls += page.length;
      if (calls >= max) break;
    }
    return { calls, ms: performance.now() - t0 };
  } finally {
    db.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = await syncBaseline(url, apiKey, Number(max));
process.stdout.write(JSON.stringify(result) + '\n');
