// kill -9 during load: restart on the same data dir and every acknowledged write is there,
// the database passes PRAGMA integrity_check, and files on disk match their records both ways:
// no record without its bytes, and no bytes without a record (a kill between the rename into
// files/ and the INSERT leaves such an orphan; the restarted sandbox clears it).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, pragmaValue } from '../../src/sandbox/sqlite.js';
import { countAcked, runLoad, verifyAcked } from './load-run.js';
import { removeDataDir, startChildSandbox, type ChildSandbox } from '../support/child-sandbox.js';

const KILL_AFTER_WRITES = 150;
const children: ChildSandbox[] = [];
after(async () => {
  for (const c of children) await c.kill();
  if (children[0]) removeDataDir(children[0].dataDir);
});

test(`SIGKILL after ${KILL_AFTER_WRITES} acknowledged writes under load: nothing acknowledged is lost`, async () => {
  const first = await startChildSandbox();
  children.push(first);
  const stop = new AbortController();
  let killing: Promise<void> | undefined;
  const load = runLoad({
    url: first.url,
    apiKey: first.apiKey,
    clients: 20,
    seconds: 120, // the kill ends it long before
    signal: stop.signal,
    onAck: (n) => {
      // Kill while requests are in flight, then stop the clients.
      if (n === KILL_AFTER_WRITES) killing = first.kill().then(() => stop.abort());
    },
  });
  const r = await load;
  await killing;
  const exit = await first.exited;
  assert.equal(exit.signal, 'SIGKILL', 'the sandbox was killed, not stopped');
  const acked = countAcked(r.acked);
  assert.ok(acked >= KILL_AFTER_WRITES, `acknowledged ${acked}`);

  // Restart on the same data dir (same key, so the records are read as before).
  const second = await startChildSandbox({ dataDir: first.dataDir, apiKey: first.apiKey });
  children.push(second);
  const v = await verifyAcked(second.url, second.apiKey, r.acked);
  console.log(`crash safety: killed after ${acked} acknowledged writes (${r.requests} requests); ${v.checked} checked after restart, ${v.lost.length} lost`);
  assert.deepEqual(v.lost, []);
  assert.equal(v.checked, acked, 'every acknowledged write was checked');
  await second.stop();

  const db = openSqlite(join(first.dataDir, 'sandbox.db'), { readOnly: true });
  try {
    assert.equal(pragmaValue(db, 'integrity_check'), 'ok');
    const files = db.prepare('SELECT id, bytes FROM files').all() as { id: string; bytes: number }[];
    const dir = join(first.dataDir, 'files');
    for (const f of files) {
      const path = join(dir, f.id);
      assert.ok(existsSync(path), `file record ${f.id} has its bytes`);
      assert.equal(statSync(path).size, f.bytes, `file ${f.id} has all its bytes`);
    }
    const recorded = new Set(files.map((f) => f.id));
    const orphans = readdirSync(dir).filter((n) => !n.endsWith('.txt') && !recorded.has(n));
    const textOrphans = readdirSync(dir).filter((n) => n.endsWith('.txt') && !recorded.has(n.slice(0, -4)));
    console.log(
      `crash safety: ${files.length} file records, all with their bytes; ${orphans.length} orphaned upload(s), ${textOrphans.length} orphaned text file(s)`,
    );
    assert.deepEqual(orphans, [], 'no bytes without a record');
    assert.deepEqual(textOrphans, [], 'no extracted text without a record');
    assert.deepEqual(readdirSync(join(first.dataDir, 'uploads')), [], 'half-written uploads were cleared on restart');
  } finally {
    db.close();
  }
});
