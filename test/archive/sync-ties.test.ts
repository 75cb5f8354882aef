// A first walk and a first full sync of a log whose calls share creation times across page
// boundaries: the sandbox pages by creation time (keyset, no OFFSET) and the pager reads an
// instant again when a page ends inside it, while it learns whether the service's bound is
// inclusive; the archive must end holding every call of the service once, no more.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { walkCallLog } from '../../src/api/pager.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { SandboxStore, openDatabase, type CallRow } from '../../src/sandbox/db.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { CallScript, planCall } from '../../src/sandbox/simulate.js';
import { sandboxForFile } from '../support/sandbox.js';

const sb = sandboxForFile();
let dir: string;
let archive: CallArchive;

/** Calls at the instants given, a run of `n` at each, well before the seeded log's. */
function insertAtInstants(runs: [at: number, n: number][]): void {
  const { db } = openDatabase(sb.dataDir);
  try {
    const store = new SandboxStore(db);
    const [assistant] = store.listAssistants();
    const [number] = store.listPhoneNumbers();
    const script = new CallScript(assistant.body, []);
    const calls: CallRow[] = [];
    for (const [at, n] of runs)
      for (let i = 0; i < n; i++)
        calls.push(
          planCall({
            type: 'inboundPhoneCall',
            assistantId: assistant.id,
            phoneNumberId: number.id,
            script,
            customer: { number: `+1415555${String(calls.length).padStart(4, '0')}` },
            createdAt: at,
            pace: 1000,
          }),
        );
    store.insertCalls(calls);
  } finally {
    db.close();
  }
}

before(async () => {
  await sb.started;
  seedCalls(sb.dataDir, 2500);
  const old = Date.now() - 60 * 86_400_000;
  // Runs of equal times around every page boundary of 1000 and 100: a page ends inside most of them.
  insertAtInstants([
    [old, 700],
    [old - 1, 450],
    [old - 2, 1],
    [old - 3, 99],
    [old - 5, 101],
    [old - 1000, 999],
  ]);
  dir = mkdtempSync(join(tmpdir(), 'switchboard-sync-ties-'));
  archive = openArchive(join(dir, 'archive.db'), { service: 'sandbox:ties' });
});

after(async () => {
  archive.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The sandbox's own calls, read from its database: what a walk must find, whatever the pager does. */
function serviceIds(): Set<string> {
  const { db } = openDatabase(sb.dataDir);
  try {
    return new Set((db.prepare('SELECT id FROM calls').all() as { id: string }[]).map((r) => r.id));
  } finally {
    db.close();
  }
}

test('a first walk of the log (nothing yet learned of the service) over pages that end inside runs of equal times finds every call once', async () => {
  const service = serviceIds();
  assert.ok(service.size >= 2500 + 2350);
  for (const opts of [{ pageSize: 1000 }, { pageSize: 1000, details: true }, { pageSize: 100 }]) {
    const fresh = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    try {
      const ids: string[] = [];
      for await (const page of walkCallLog(fresh, {}, opts)) ids.push(...page.map((c) => c.id));
      assert.equal(ids.length, service.size, JSON.stringify(opts));
      assert.deepEqual(new Set(ids), service);
    } finally {
      await fresh.close();
    }
  }
});

test('a first full sync over pages that end inside runs of equal creation times holds every call once', async () => {
  const service = serviceIds();
  for (const pageSize of [1000, 100]) {
    const fresh = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    try {
      archive.clear();
      const r = await archive.sync(fresh, { pageSize });
      assert.ok(r.complete);
      assert.equal(r.added, service.size, `page size ${pageSize}`);
      const held = archive.window({}, { limit: 100_000 }).map((w) => w.call.id);
      assert.equal(held.length, service.size);
      assert.deepEqual(new Set(held), service);
    } finally {
      await fresh.close();
    }
  }
});
