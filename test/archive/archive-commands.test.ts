// The call archive through the built CLI against a real sandbox: search, stats and export agree
// with the service's own call log; sync resumes after kill -9, tolerates a second process,
// handles calls sharing one timestamp and re-reads calls that were still in progress.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli, type CliHome } from '../support/cli.js';
import { sandboxForCli, type RunningSandbox } from '../support/sandbox.js';
import { openDatabase, SandboxStore } from '../../src/sandbox/db.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { CallScript, planCall } from '../../src/sandbox/simulate.js';
import { openSqlite } from '../../src/sqlite.js';
import { parseCsv } from '../commands/csv.js';
import { viewCall } from '../../src/api/records.js';
import type { Call } from '../../src/api/schemas.js';

interface Env {
  sb: RunningSandbox;
  home: CliHome;
  env: NodeJS.ProcessEnv;
  archive: string;
}

/** A sandbox (its calls played at `callPace` ms per simulated second) and a home whose env points the CLI at it. */
function sandboxWithArchive(opts: { callPace?: number; extraCalls?: number } = {}): Env {
  const on = sandboxForCli({ callPace: opts.callPace }) as Env;
  before(() => {
    if (opts.extraCalls) seedCalls(on.sb.dataDir, opts.extraCalls);
    on.archive = join(on.home.env.XDG_CACHE_HOME!, 'switchboard', 'archive', 'env.db');
  });
  return on;
}

async function ok(on: Env, args: string[]): Promise<string> {
  const r = await runCli(args, { env: on.env });
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

interface ListedCall {
  id: string;
  createdAt: string;
  durationSeconds?: number | null;
  cost?: number | null;
  assistantId?: string | null;
  status?: string | null;
}

const serviceCalls = async (on: Env) => JSON.parse(await ok(on, ['calls', 'list', '--all', '-o', 'json'])) as ListedCall[];
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
/** What the tokenizer sees: lower case, words separated by single spaces. */
const words = (s: string) =>
  ` ${s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/** Rows in the archive file, read directly (a second reader, as the console would be). */
function archivedRows(path: string): { n: number; distinct: number } {
  const db = openSqlite(path, { readOnly: true });
  try {
    return db.prepare('SELECT count(*) AS n, count(DISTINCT id) AS "distinct" FROM calls').get() as { n: number; distinct: number };
  } finally {
    db.close();
  }
}

describe('calls search | stats | export on the archive', () => {
  // Calls placed here take 7–11 s from queued to ended: long enough to archive one mid-call.
  const on = sandboxWithArchive({ callPace: 1000 });

  test('search finds a call by a phrase from its transcript, and not by a phrase absent from it', async () => {
    const [first] = lines(await ok(on, ['calls', 'list', '--limit', '1', '-o', 'ids']));
    const call = JSON.parse(await ok(on, ['calls', 'get', first, '-o', 'json'])) as { transcript: string };
    // Four words from the middle of its transcript, as someone would remember them.
    const said = words(call.transcript).trim().split(' ');
    const phrase = said.slice(4, 8).join(' ');
    const found = lines(await ok(on, ['calls', 'search', `"${phrase}"`, '--limit', '100000', '-o', 'ids']));
    assert.ok(found.includes(first), `"${phrase}" finds ${first}`);
    // Exactly the calls whose transcript, summary or customer hold that phrase.
    const all = lines(await ok(on, ['calls', 'export', '--offline'])).map((l) => JSON.parse(l) as Call);
    const holds = (c: Call) =>
      [viewCall(c).transcript, viewCall(c).summary, c.customer?.name, c.customer?.number].some((t) => t && words(t).includes(` ${phrase} `));
    const expected = all.filter(holds).map((c) => c.id);
    assert.deepEqual(new Set(found), new Set(expected));
    // Newest first.
    const created = found.map((id) => all.findIndex((c) => c.id === id));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => a - b),
    );

    // The same words in an order the transcript never has: not this call.
    const reversed = said.slice(4, 8).reverse().join(' ');
    const absent = lines(await ok(on, ['calls', 'search', `"${reversed}"`, '--offline', '--limit', '100000', '-o', 'ids']));
    if (!words(call.transcript).includes(` ${reversed} `)) assert.ok(!absent.includes(first));
    assert.deepEqual(lines(await ok(on, ['calls', 'search', '"zebra quantum marmalade"', '--offline', '-o', 'ids'])), []);
  });

  test('search: prefix*, json with snippets, and text that is FTS syntax is just text', async () => {
    const hits = JSON.parse(await ok(on, ['calls', 'search', 'thank*', '--offline', '--limit', '5', '-o', 'json'])) as { id: string; snippet: string }[];
    assert.ok(hits.length > 0);
    for (const h of hits) assert.match(h.snippet, /thank/i);
    for (const text of ['AND', 'NEAR(a b)', '"unclosed', 'col:umn', '(', 'a*b', '^x', '-x']) {
      const r = await runCli(['calls', 'search', text, '--offline'], { env: on.env });
      assert.ok(r.code === 0 || r.code === 2, `${text}: exit ${r.code} ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /fts5|syntax error|SQLITE/i, text);
    }
    const nothing = await runCli(['calls', 'search', '"*"', '--offline'], { env: on.env });
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /nothing to search for/);
  });

  test('stats: every grouping sums to the totals of `calls list --all`', async () => {
    const calls = await serviceCalls(on);
    // As the service sends them: duration from startedAt/endedAt, cost from cost or its breakdown.
    const seconds = calls.reduce((s, c) => s + (viewCall(c as Call).durationSeconds ?? 0), 0);
    const cost = calls.reduce((s, c) => s + (viewCall(c as Call).cost ?? 0), 0);
    for (const by of ['day', 'assistant', 'number', 'status', 'endedReason']) {
      const groups = JSON.parse(await ok(on, ['calls', 'stats', '--by', by, '-o', 'json'])) as Record<string, number | string | null>[];
      assert.ok(groups.length > 0, by);
      for (const g of groups) assert.ok(by in g && 'calls' in g && 'minutes' in g && 'cost' in g && 'avgDurationSeconds' in g, `${by}: ${JSON.stringify(g)}`);
      const sum = (k: string) => groups.reduce((s, g) => s + Number(g[k]), 0);
      assert.equal(sum('calls'), calls.length, `${by}: calls`);
      assert.ok(Math.abs(sum('minutes') - seconds / 60) < 0.01 * groups.length, `${by}: minutes ${sum('minutes')} vs ${seconds / 60}`);
      assert.ok(Math.abs(sum('cost') - cost) < 1e-4 * groups.length, `${by}: cost ${sum('cost')} vs ${cost}`);
    }
    // The per-assistant figures match the log's, and the csv ends with the total row.
    const byAssistant = JSON.parse(await ok(on, ['calls', 'stats', '--by', 'assistant', '--offline', '-o', 'json'])) as { assistant: string; calls: number }[];
    for (const g of byAssistant) assert.equal(g.calls, calls.filter((c) => c.assistantId === g.assistant).length);
    const csv = parseCsv(await ok(on, ['calls', 'stats', '--offline', '-o', 'csv']));
    assert.deepEqual(csv[0], ['day', 'calls', 'minutes', 'cost', 'avg duration (s)']);
    assert.deepEqual(csv[csv.length - 1].slice(0, 2), ['total', String(calls.length)]);
  });

  test('stats with --after/--before count the calls created in that range', async () => {
    const calls = await serviceCalls(on);
    // Bounds inside quarter hours, so both the rollup and the partial ends are read.
    const times = calls.map((c) => Date.parse(c.createdAt)).sort((a, b) => a - b);
    const from = new Date(times[Math.floor(times.length / 4)] - 7 * 60_000 - 123).toISOString();
    const to = new Date(times[Math.floor((times.length * 3) / 4)] + 4 * 60_000 + 7).toISOString();
    const inRange = calls.filter((c) => Date.parse(c.createdAt) >= Date.parse(from) && Date.parse(c.createdAt) <= Date.parse(to));
    const groups = JSON.parse(await ok(on, ['calls', 'stats', '--after', from, '--before', to, '--offline', '-o', 'json'])) as { calls: number }[];
    assert.equal(
      groups.reduce((s, g) => s + g.calls, 0),
      inRange.length,
    );
  });

  test('export of N calls is N lines of NDJSON (each a full record), and CSV has N rows', async () => {
    const ids = lines(await ok(on, ['calls', 'list', '--all', '-o', 'ids']));
    const out = lines(await ok(on, ['calls', 'export']));
    assert.equal(out.length, ids.length);
    const records = out.map((l) => JSON.parse(l) as { id: string; transcript?: unknown; messages?: unknown });
    assert.deepEqual(new Set(records.map((r) => r.id)), new Set(ids));
    assert.ok(records.every((r) => 'transcript' in r && 'messages' in r));
    const file = join(on.home.dir, 'calls.csv');
    await ok(on, ['calls', 'export', '--offline', '--format', 'csv', '--out', file]);
    const rows = parseCsv(readFileSync(file, 'utf8'));
    assert.equal(rows.length, ids.length + 1);
    assert.equal(rows[0][0], 'id');
    // Filters apply: one assistant's calls only.
    const calls = await serviceCalls(on);
    const assistant = calls[0].assistantId!;
    const mine = lines(await ok(on, ['calls', 'export', '--offline', '--assistant', assistant]));
    assert.equal(mine.length, calls.filter((c) => c.assistantId === assistant).length);
  });

  test('--out in a directory that does not exist is refused before the sync, naming the path; a failed export leaves no file', async () => {
    const missing = join(on.home.dir, 'no-such-dir', 'calls.csv');
    const r = await runCli(['calls', 'export', '--format', 'csv', '--out', missing], { env: on.env });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `switchboard: --out ${missing}: cannot write it (its directory does not exist)\n`);
    // An export that fails after its file is open (a bad filter, answered by the service) leaves neither the file nor its side file.
    const dir = mkdtempSync(join(on.home.dir, 'export-'));
    const bad = await runCli(['calls', 'export', '--assistant', 'no-such-assistant-name', '--out', join(dir, 'calls.ndjson')], { env: on.env });
    assert.notEqual(bad.code, 0, bad.stdout);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('calls sharing one timestamp, on a page boundary and at the newest instant, are all archived', async () => {
    // 700 calls in one millisecond, placed so that pages of 1000 split them; then one more call
    // at exactly the newest archived instant, which only an inclusive lower bound sees.
    const { db } = openDatabase(on.sb.dataDir);
    const store = new SandboxStore(db);
    const [assistant] = store.listAssistants();
    const [number] = store.listPhoneNumbers();
    const script = new CallScript(assistant.body, []);
    const plan = (createdAt: number) =>
      planCall({
        type: 'outboundPhoneCall',
        assistantId: assistant.id,
        phoneNumberId: number.id,
        script,
        customer: { number: '+14155550100', name: 'Tie Breaker' },
        createdAt,
        pace: 1,
      });
    try {
      // From an empty archive, so the whole log is walked page by page.
      await ok(on, ['archive', 'clear', '--yes']);
      seedCalls(db, 1000);
      const listed = await serviceCalls(on);
      const at = Date.parse(listed[499].createdAt);
      store.insertCalls(Array.from({ length: 700 }, () => plan(at)));
      await ok(on, ['archive', 'sync']);
      const all = lines(await ok(on, ['calls', 'list', '--all', '-o', 'ids']));
      assert.equal(all.length, listed.length + 700);
      assert.equal(archivedRows(on.archive).n, all.length);

      const newest = Date.parse((JSON.parse(await ok(on, ['calls', 'list', '--limit', '1', '-o', 'json'])) as ListedCall[])[0].createdAt);
      store.insertCalls([plan(newest)]);
      await ok(on, ['archive', 'sync']);
      const rows = archivedRows(on.archive);
      assert.equal(rows.n, all.length + 1);
      assert.equal(rows.distinct, rows.n);
    } finally {
      db.close();
    }
  });

  test('a call still in progress at one sync is updated by a later one', async () => {
    const [assistant] = JSON.parse(await ok(on, ['assistants', 'list', '-o', 'json'])) as { id: string }[];
    const [number] = JSON.parse(await ok(on, ['numbers', 'list', '-o', 'json'])) as { id: string }[];
    const placed = JSON.parse(
      await ok(on, [
        'calls',
        'outbound',
        '--assistant',
        assistant.id,
        '--number',
        number.id,
        '--to',
        '+14155550123',
        '--name',
        'Quillon Verbatim',
        '-o',
        'json',
      ]),
    ) as { id: string };
    await ok(on, ['archive', 'sync']);
    const early = JSON.parse(await ok(on, ['calls', 'search', '"Quillon Verbatim"', '--offline', '-o', 'json'])) as { id: string; status: string }[];
    assert.equal(early[0]?.id, placed.id);
    assert.notEqual(early[0].status, 'ended');
    // Each sync reads it again until it has ended.
    let updated = 0;
    for (let i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      updated += (JSON.parse(await ok(on, ['archive', 'sync', '-o', 'json'])) as { updated: number }).updated;
      const now = JSON.parse(await ok(on, ['calls', 'search', '"Quillon Verbatim"', '--offline', '-o', 'json'])) as { status: string }[];
      if (now[0]?.status === 'ended') break;
    }
    assert.ok(updated >= 1);
    const late = JSON.parse(await ok(on, ['calls', 'search', '"Quillon Verbatim"', '--offline', '-o', 'json'])) as { id: string; status: string }[];
    assert.equal(late[0].status, 'ended');
    const record = JSON.parse(lines(await ok(on, ['calls', 'export', '--offline', '--after', '1h'])).find((l) => l.includes(placed.id))!) as {
      transcript: string;
    };
    assert.match(record.transcript, /Quillon Verbatim/);
  });

  test('archive status, and clear: refused without a terminal, done with --yes', async () => {
    const status = JSON.parse(await ok(on, ['archive', 'status', '-o', 'json'])) as {
      path: string;
      calls: number;
      bytes: number;
      complete: boolean;
      lastSync?: { at: string };
    };
    assert.equal(status.path, on.archive);
    assert.ok(status.calls > 0 && status.bytes > 0 && status.complete && status.lastSync);
    const refused = await runCli(['archive', 'clear'], { env: on.env });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--yes/);
    assert.ok(archivedRows(on.archive).n > 0);
    await ok(on, ['archive', 'clear', '--yes']);
    assert.equal(archivedRows(on.archive).n, 0);
    assert.ok(existsSync(on.archive));
  });
});

describe('archive sync with many calls', () => {
  // Enough pages after the first commit (a batch is at most 5,000 calls or a second) for a kill to land mid-sync.
  const on = sandboxWithArchive({ extraCalls: 10_000 });

  test('a sync killed with kill -9 resumes without duplicates or gaps', async () => {
    const ids = new Set(lines(await ok(on, ['calls', 'list', '--all', '-o', 'ids'])));
    const run = startCli(['archive', 'sync'], { env: on.env });
    // Kill it once some pages are written and before the end.
    const deadline = Date.now() + 60_000;
    let held = 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      try {
        held = archivedRows(on.archive).n;
      } catch {
        continue; // not created yet
      }
      if (held > 0) break;
    }
    run.child.kill('SIGKILL');
    await run.result;
    assert.ok(held > 0 && held < ids.size, `killed with ${held} of ${ids.size} archived`);
    await ok(on, ['archive', 'sync']);
    const rows = archivedRows(on.archive);
    assert.equal(rows.n, ids.size);
    assert.equal(rows.distinct, rows.n);
    assert.deepEqual(new Set(lines(await ok(on, ['calls', 'export', '--offline'])).map((l) => (JSON.parse(l) as { id: string }).id)), ids);
  });

  test('two processes syncing at once lose nothing', async () => {
    await ok(on, ['archive', 'clear', '--yes']);
    const ids = new Set(lines(await ok(on, ['calls', 'list', '--all', '-o', 'ids'])));
    // Two processes, as two terminals would be: the lease is between processes.
    const [a, b] = await Promise.all([
      runCli(['archive', 'sync', '-o', 'json'], { env: on.env, process: true }),
      runCli(['archive', 'sync', '-o', 'json'], { env: on.env, process: true }),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const results = [JSON.parse(a.stdout), JSON.parse(b.stdout)] as { added: number; held: number; waited: boolean }[];
    assert.equal(results[0].added + results[1].added, ids.size);
    // One synced while the other waited for it (the lease), rather than both walking the log.
    assert.equal(results.filter((r) => r.waited).length, 1);
    const rows = archivedRows(on.archive);
    assert.equal(rows.n, ids.size);
    assert.equal(rows.distinct, rows.n);
  });
});
