// The built CLI against the second service: a fixture written from the hosted service's public
// references (test/support/hosted-fixture.ts), in each variant that changes what the client sees.
// Each test starts its own fixture and HOME, so variants and writes never meet.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';
import { startHostedFixture, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';

type Rec = Record<string, unknown>;

interface Target {
  fx: HostedFixture;
  home: CliHome;
  env: NodeJS.ProcessEnv;
}

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const scratch = mkdtempSync(join(tmpdir(), 'switchboard-hosted-'));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));

async function target(opts: Partial<FixtureVariant> = {}): Promise<Target> {
  const fx = await startHostedFixture(opts);
  const home = tempHome();
  cleanups.push(
    () => fx.close(),
    () => home.cleanup(),
  );
  return { fx, home, env: { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey } };
}

interface Run extends CliResult {
  /** The run was stopped after timeoutMs: it did not end by itself. */
  timedOut: boolean;
}

/** Runs the CLI; a run still going after timeoutMs is reported as timedOut. */
async function run(t: Target, args: string[], opts: { stdin?: string; timeoutMs?: number } = {}): Promise<Run> {
  const r = await runCli(args, { env: t.env, stdin: opts.stdin, timeoutMs: opts.timeoutMs ?? 60_000 });
  assert.ok(!(r.stdout + r.stderr).includes(t.fx.apiKey), `the key leaked from ${args.join(' ')}`);
  return { ...r, timedOut: r.timedOut === true };
}

async function ok(t: Target, args: string[], opts: { stdin?: string; timeoutMs?: number } = {}): Promise<string> {
  const r = await run(t, args, opts);
  assert.ok(!r.timedOut, `${args.join(' ')} did not end by itself`);
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function json<T = unknown>(t: Target, args: string[], opts: { stdin?: string; timeoutMs?: number } = {}): Promise<T> {
  return JSON.parse(await ok(t, [...args, '-o', 'json'], opts)) as T;
}

const ids = (out: string) => out.split('\n').filter(Boolean);
/** The records' shapes the call and number tests run against: the callhq reference's, and the platform's own (platform-records.ts). */
const RECORDS = ['callhq', 'platform'] as const;
/** A number's phone number in either shape. */
const didOf = (n: Rec) => String(n.did ?? n.number ?? n.id);
const HINT = /is the Voice Agent Service/;

/** A failed run's stderr names `words` on one line, with no markup and without the wrong-service hint. */
function saysOnOneLine(r: CliResult, words: string, what: string) {
  assert.notEqual(r.code, 0, `${what}: exit code`);
  const line = r.stderr.split('\n').find((l) => l.includes(words));
  assert.ok(line, `${what}: stderr should name "${words}":\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, HINT, `${what}: the wrong-service hint`);
  assert.doesNotMatch(r.stderr, /<\/?(p|h1|html|body|title)>|<!DOCTYPE/i, `${what}: markup shown`);
  assert.doesNotMatch(r.stderr, /^\s+at /m, `${what}: a stack trace`);
}

for (const records of RECORDS)
  describe(`calls list (${records} records)`, () => {
    for (const list of ['documented', 'bare', 'named', 'data', 'items', 'results'] as const) {
      test(`list envelope ${list}: the table and -o json show the records as the service sent them`, async () => {
        const t = await target({ list, records });
        const table = await ok(t, ['calls', 'list', '--limit', '5']);
        for (const c of t.fx.calls.slice(0, 5)) assert.ok(table.includes(String(c.id)), `${String(c.id)} in the table`);
        const listed = await json<Rec[]>(t, ['calls', 'list', '--limit', '5']);
        assert.deepEqual(listed, t.fx.calls.slice(0, 5), 'records unchanged (no added keys)');
      });
    }

    test('the table shows a duration from startedAt/endedAt and a cost from costBreakdown.total', async () => {
      const t = await target({ records });
      const rows = await json<Rec[]>(t, ['calls', 'list', '--limit', '12']);
      assert.equal(rows.length, 12);
      const csv = await ok(t, ['calls', 'list', '--limit', '12', '-o', 'csv']);
      const csvRows = csv.split(/\r?\n/);
      const header = csvRows[0].split(',');
      const durationAt = header.findIndex((h) => /duration/i.test(h));
      const costAt = header.findIndex((h) => /cost/i.test(h));
      assert.ok(durationAt >= 0 && costAt >= 0, header.join(','));
      const lines = csvRows.slice(1).filter(Boolean);
      const ended = t.fx.calls
        .slice(0, 12)
        .findIndex(
          (c) => c.status === 'ended' && !('cost' in c) && 'costBreakdown' in c && Date.parse(c.endedAt as string) > Date.parse(c.startedAt as string),
        );
      assert.ok(ended >= 0, 'the seed has an ended call without cost in the first 12');
      const cells = lines[ended].split(',');
      assert.ok(Number(cells[durationAt]) > 0 || /[1-9]/.test(cells[durationAt]), `duration of ${lines[ended]}`);
      assert.ok(Number(cells[costAt]) > 0, `cost from costBreakdown.total in ${lines[ended]}`);
    });

    test('--all with strict createdAtLt bounds (vapi): three calls sharing a timestamp across a page boundary are not skipped', async () => {
      const t = await target({ calls: 250, records });
      const out = ids(await ok(t, ['calls', 'list', '--all', '--limit', '100', '-o', 'ids']));
      assert.deepEqual(
        out,
        t.fx.calls.map((c) => c.id),
      );
    });

    test('--all with inclusive bounds: every call once', async () => {
      const t = await target({ calls: 250, dateFilters: 'inclusive', records });
      const out = ids(await ok(t, ['calls', 'list', '--all', '--limit', '100', '-o', 'ids']));
      assert.deepEqual(
        out,
        t.fx.calls.map((c) => c.id),
      );
    });

    for (const pageCap of ['silent', 'refuse'] as const) {
      test(`--all against a page cap of 100 (${pageCap}): every call once`, async () => {
        const t = await target({ calls: 250, pageCap, records });
        const out = ids(await ok(t, ['calls', 'list', '--all', '-o', 'ids'], { timeoutMs: 60_000 }));
        assert.deepEqual(
          out,
          t.fx.calls.map((c) => c.id),
        );
      });
    }

    test('a page cap that refuses limit over 100: calls list without --all still answers', async () => {
      const t = await target({ calls: 250, pageCap: 'refuse', records });
      const out = ids(await ok(t, ['calls', 'list', '--limit', '500', '-o', 'ids']));
      assert.ok(out.length >= 100, `got ${out.length}`);
      assert.deepEqual(
        out,
        t.fx.calls.slice(0, out.length).map((c) => c.id),
      );
    });

    for (const dateFilters of ['renamed', 'ignored'] as const) {
      const filtering = dateFilters === 'renamed' ? 'names its date filters otherwise' : 'ignores date filters';
      test(`--all when the service ${filtering}: ends by itself, each call at most once, all of them or one clear message`, async () => {
        const t = await target({ calls: 250, dateFilters, records });
        const r = await run(t, ['calls', 'list', '--all', '--limit', '100', '-o', 'ids'], { timeoutMs: 30_000 });
        assert.ok(!r.timedOut, 'the walk ended by itself');
        const out = ids(r.stdout);
        assert.equal(new Set(out).size, out.length, 'no id printed twice');
        if (r.code === 0)
          assert.deepEqual(
            out,
            t.fx.calls.map((c) => c.id),
          );
        else assert.equal(r.stderr.trim().split('\n').length, 1, `one clear message: ${r.stderr}`);
      });

      test(`--after when the service ${filtering}: only calls in the range`, async () => {
        const t = await target({ calls: 60, dateFilters, records });
        const from = String(t.fx.calls[30].createdAt);
        const r = await run(t, ['calls', 'list', '--after', from, '-o', 'ids'], { timeoutMs: 45_000 });
        assert.ok(!r.timedOut, 'ended by itself');
        assert.equal(r.code, 0, r.stderr);
        const expected = t.fx.calls.filter((c) => Date.parse(c.createdAt as string) >= Date.parse(from)).map((c) => c.id);
        assert.deepEqual(ids(r.stdout), expected);
      });
    }

    test('--after on a timestamp three calls share, with strict bounds (vapi): "on or after" keeps all three', async () => {
      const t = await target({ calls: 60, records });
      const from = String(t.fx.calls[20].createdAt);
      assert.equal(t.fx.calls[19].createdAt, from);
      const out = ids(await ok(t, ['calls', 'list', '--after', from, '-o', 'ids']));
      assert.deepEqual(
        out,
        t.fx.calls.slice(0, 22).map((c) => c.id),
      );
    });

    test('--before on a shared timestamp with strict bounds (vapi): "on or before" keeps all three', async () => {
      const t = await target({ calls: 60, records });
      const to = String(t.fx.calls[20].createdAt);
      const out = ids(await ok(t, ['calls', 'list', '--before', to, '-o', 'ids']));
      assert.deepEqual(
        out,
        t.fx.calls.slice(19).map((c) => c.id),
      );
    });
  });

for (const records of RECORDS)
  describe(`calls get, export, stats (${records} records)`, () => {
    for (const list of ['documented', 'bare', 'data'] as const) {
      test(`calls get -o json prints the service's record unchanged (list envelope ${list})`, async () => {
        const t = await target({ list, records });
        const held = t.fx.calls[3];
        const got = await json<Rec>(t, ['calls', 'get', String(held.id)]);
        assert.deepEqual(got, held);
        for (const m of (got.messages as Rec[] | undefined) ?? []) assert.ok(!('content' in m), 'no content key added to a message');
      });
    }

    test('calls get (table) shows the transcript text, the summary and a duration', async () => {
      const t = await target({ records });
      const held = t.fx.calls.slice(1).find((c) => Array.isArray(c.messages) && c.messages.length > 2 && (c.analysis as Rec | undefined)?.summary)!;
      const out = await ok(t, ['calls', 'get', String(held.id)]);
      const said = (held.messages as Rec[]).filter((m) => m.role === 'user').map((m) => String(m.message));
      assert.ok(said.length > 0);
      for (const s of said) assert.ok(out.replace(/\s+/g, ' ').includes(s), `the caller's words: ${s}`);
      assert.ok(out.includes(String((held.analysis as Rec).summary)), 'the summary from analysis.summary');
    });

    test('calls export: each NDJSON line is the record the service holds, unchanged', async () => {
      const t = await target({ records });
      const out = await ok(t, ['calls', 'export'], { timeoutMs: 60_000 });
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Rec);
      assert.equal(lines.length, t.fx.calls.length);
      const byId = new Map(lines.map((c) => [c.id, c]));
      for (const c of t.fx.calls) assert.deepEqual(byId.get(c.id), c);
    });

    test('calls stats: minutes from startedAt/endedAt, cost including costBreakdown.total', async () => {
      const t = await target({ records });
      const rows = await json<Rec[]>(t, ['calls', 'stats'], { timeoutMs: 60_000 });
      const total = rows.reduce((s, r) => s + Number(r.minutes ?? 0), 0);
      const expected = t.fx.calls
        .filter((c) => c.endedAt && c.startedAt)
        .reduce((s, c) => s + (Date.parse(c.endedAt as string) - Date.parse(c.startedAt as string)) / 60_000, 0);
      assert.ok(total > 0, `minutes: ${JSON.stringify(rows)}`);
      assert.ok(Math.abs(total - expected) < 1, `minutes ${total} vs ${expected}`);
      const cost = rows.reduce((s, r) => s + Number(r.cost ?? 0), 0);
      const expectedCost = t.fx.calls.reduce((s, c) => s + Number(c.cost ?? (c.costBreakdown as Rec | undefined)?.total ?? 0), 0);
      assert.ok(Math.abs(cost - expectedCost) < 0.01, `cost ${cost} vs ${expectedCost}`);
      const byAssistant = await json<Rec[]>(t, ['calls', 'stats', '--by', 'assistant'], { timeoutMs: 60_000 });
      // Every assistant's calls took time (the platform's calls without an assistant or a start time aside).
      assert.ok(
        byAssistant
          .filter(
            (r) => records === 'callhq' || t.fx.assistants.some((a) => JSON.stringify(r).includes(String(a.id)) || JSON.stringify(r).includes(String(a.name))),
          )
          .every((r) => Number(r.minutes) > 0),
        JSON.stringify(byAssistant),
      );
    });

    test('calls search finds words of the transcript (messages[].message) and of analysis.summary', async () => {
      const t = await target({ records });
      const inTranscript = await ok(t, ['calls', 'search', 'kettle', '-o', 'ids'], { timeoutMs: 60_000 });
      // The words are where the view reads them: the messages, else the artifact's (the platform keeps both).
      const spoken = (c: Rec) =>
        JSON.stringify([c.messages, c.transcript, (c.artifact as Rec | undefined)?.messages, (c.artifact as Rec | undefined)?.transcript]);
      const expected = t.fx.calls.filter((c) => spoken(c).includes('kettle')).map((c) => c.id);
      assert.ok(expected.length > 0);
      assert.deepEqual(new Set(ids(inTranscript)), new Set(expected));
      const word = records === 'callhq' ? 'supervisor' : 'asked';
      const inSummary = await ok(t, ['calls', 'search', word, '-o', 'ids'], { timeoutMs: 60_000 });
      const fromSummary = t.fx.calls.filter((c) => String((c.analysis as Rec | undefined)?.summary ?? '').includes(word)).map((c) => c.id);
      assert.ok(fromSummary.length > 0);
      assert.deepEqual(new Set(ids(inSummary)), new Set(fromSummary));
    });
  });

describe('calls outbound', () => {
  for (const [single, records] of [
    ...(['documented', 'messageData', 'data', 'messageNamed', 'bare'] as const).map((x) => [x, 'callhq'] as const),
    ['documented', 'platform'] as const,
  ]) {
    const answered = records === 'platform' ? '202 {id, status} (the platform)' : single === 'documented' ? '{message, data} (the default)' : single;
    test(`answered ${answered}: exits 0 and prints the call's id, placed once`, async () => {
      const t = await target({ single, records });
      const before = t.fx.calls.length;
      const out = await ok(t, [
        'calls',
        'outbound',
        '--assistant',
        String(t.fx.assistants[0].id),
        '--number',
        String(t.fx.phoneNumbers[0].id),
        '--to',
        '+14155550142',
      ]);
      assert.equal(t.fx.calls.length, before + 1, 'one call placed');
      assert.equal(t.fx.requestsTo('/calls/outbound', 'POST').length, 1, 'never re-sent');
      assert.ok(out.includes(String(t.fx.calls[0].id)), `the new call's id in: ${out}`);
    });
  }
});

describe('assistants', () => {
  test('list (a bare array, as Vapi lists are) and get, -o json unchanged', async () => {
    const t = await target();
    const table = await ok(t, ['assistants', 'list']);
    for (const a of t.fx.assistants) assert.ok(table.includes(String(a.name)));
    assert.deepEqual(await json(t, ['assistants', 'list']), t.fx.assistants);
    assert.deepEqual(await json(t, ['assistants', 'get', String(t.fx.assistants[1].id)]), t.fx.assistants[1]);
  });

  for (const single of ['documented', 'bare', 'named', 'data', 'messageData', 'messageNamed'] as const) {
    test(`create and update answered ${single}: both succeed, and update says which fields the service kept`, async () => {
      const t = await target({ single });
      const spec = {
        name: 'Hosted test',
        voice: { provider: 'sarvam', voiceId: 'anushka', model: 'bulbul:v2', language: 'en' },
        transcriber: { provider: 'deepgram', model: 'nova-3', language: 'en' },
        model: { provider: 'azure', model: 'gpt-4.1-mini-cluster' },
      };
      const created = await ok(t, ['assistants', 'create', '--file', '-'], { stdin: JSON.stringify(spec) });
      assert.equal(t.fx.assistants.length, 5);
      assert.equal(t.fx.requestsTo('/assistants', 'POST').length, 1, 'created once');
      const id = String(t.fx.assistants[4].id);
      assert.ok(created.includes(id) || created.includes('Hosted test'), created);
      await ok(t, ['assistants', 'update', id, '--name', 'Renamed', '--status', 'off']);
      assert.equal(t.fx.assistants[4].name, 'Renamed');
      assert.equal(t.fx.assistants[4].status, false);
      const patch = join(scratch, `patch-${single}.json`);
      writeFileSync(patch, JSON.stringify({ firstMessage: 'Howdy', description: 'kept' }));
      const r = await run(t, ['assistants', 'update', id, '--file', patch]);
      assert.ok(!/fail/i.test(r.stderr) || r.stderr.includes('firstMessage'), r.stderr);
      assert.equal(t.fx.assistants[4].description, 'kept');
      assert.equal(t.fx.patches.at(-1)!.body.firstMessage, 'Howdy', 'the rest of the patch is sent');
    });
  }

  test('create with a provider and model the service lists but the client may not know is sent, not refused', async () => {
    // An envelope today's client reads, so that only the catalogue is tested here.
    const t = await target({ single: 'messageNamed' });
    const spec = {
      name: 'Router',
      voice: { provider: '11labs', voiceId: 'burt' },
      transcriber: { provider: 'deepgram' },
      model: { provider: 'openrouter', model: 'gpt-oss-120b' },
    };
    await ok(t, ['assistants', 'create', '--file', '-'], { stdin: JSON.stringify(spec) });
    assert.deepEqual(t.fx.assistants[4].model, spec.model);
  });
});

for (const records of RECORDS)
  describe(`numbers (${records} records)`, () => {
    test('list: every number, -o json unchanged (organization, not service)', async () => {
      const t = await target({ records });
      const table = await ok(t, ['numbers', 'list']);
      for (const n of t.fx.phoneNumbers)
        assert.ok(table.includes(records === 'callhq' ? String(n.did) : n.number ? String(n.number) : String(n.id).slice(0, 8)));
      assert.deepEqual(await json(t, ['numbers', 'list']), t.fx.phoneNumbers);
    });

    for (const textPlainSuccess of [false, true]) {
      test(`link answered ${textPlainSuccess ? '200 text/plain' : '200 {message}'}: exits 0 with the service's words; the list shows the link`, async () => {
        const t = await target({ textPlainSuccess, records });
        const [a, n] = [t.fx.assistants[2], t.fx.phoneNumbers[1]];
        const out = await ok(t, ['numbers', 'link', String(n.id), '--assistant', String(a.id)]);
        assert.match(out, /Inbound agent configured successfully/);
        assert.deepEqual(t.fx.links, [{ assistantId: a.id, phoneNumberId: n.id }]);
        const row = (await ok(t, ['numbers', 'list', '--wide'])).split('\n').find((l) => l.includes(didOf(n)));
        assert.ok(row && (row.includes(String(a.id)) || row.includes(String(a.name))), `the linked assistant on the row: ${row}`);
      });
    }
  });

describe('files', () => {
  test('list pages by the service defaults (page 1, limit 10) and says more pages exist', async () => {
    const t = await target();
    const first = await run(t, ['files', 'list', '-o', 'ids']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      ids(first.stdout),
      t.fx.files.slice(0, 10).map((f) => f.id),
    );
    assert.match(first.stderr, /page 1 of 3/);
    assert.deepEqual(
      ids(await ok(t, ['files', 'list', '--page', '3', '-o', 'ids'])),
      t.fx.files.slice(20).map((f) => f.id),
    );
    assert.deepEqual(
      ids(await ok(t, ['files', 'list', '--page', '2', '--limit', '5', '-o', 'ids'])),
      t.fx.files.slice(5, 10).map((f) => f.id),
    );
  });

  for (const list of ['data', 'bare'] as const) {
    test(`list in a ${list} envelope; get -o json unchanged`, async () => {
      const t = await target({ list, single: list === 'bare' ? 'bare' : 'data' });
      assert.deepEqual(
        ids(await ok(t, ['files', 'list', '-o', 'ids'])),
        t.fx.files.slice(0, 10).map((f) => f.id),
      );
      assert.deepEqual(await json(t, ['files', 'get', String(t.fx.files[4].id)]), t.fx.files[4]);
    });
  }

  test('upload (one multipart part named file) and delete', async () => {
    const t = await target();
    const path = join(scratch, 'faq.md');
    writeFileSync(path, '# FAQ\nWe open at nine.\n');
    const up = await json<Rec>(t, ['files', 'upload', path]);
    assert.equal(up.name, 'faq.md');
    assert.deepEqual(up, t.fx.files[0]);
    await ok(t, ['files', 'delete', String(up.id), '--yes']);
    assert.ok(!t.fx.files.some((f) => f.id === up.id));
  });
});

describe('sessions and chat', () => {
  for (const messagesWithoutRole of [false, true]) {
    test(`sessions show reads a conversation ${messagesWithoutRole ? 'whose messages carry no role' : 'with roles'}`, async () => {
      const t = await target({ messagesWithoutRole });
      const out = await ok(t, ['sessions', 'show', String(t.fx.sessions[0].id)]);
      assert.match(out, /opening hours on Sunday/);
      assert.match(out, /open from ten until four/);
    });
  }

  for (const single of ['documented', 'data', 'bare'] as const) {
    test(`create a session and chat in it (answers ${single})`, async () => {
      const t = await target({ single });
      const created = await ok(t, ['sessions', 'create', '--assistant', String(t.fx.assistants[0].id), '--name', 'Hours']);
      const session = t.fx.sessions.at(-1)!;
      assert.equal(session.name, 'Hours');
      assert.ok(created.includes(String(session.id)), created);
      const reply = await ok(t, ['chat', 'send', '--session', String(session.id), 'When do you open?']);
      assert.match(reply, /Our team will follow up today/);
      assert.equal(t.fx.chats.length, 1);
    });
  }
});

describe('errors in each body style', () => {
  for (const errors of ['nested', 'string', 'array', 'errors', 'html', 'plain'] as const) {
    test(`${errors}: the service's words on one line, no wrong-service hint`, async () => {
      const t = await target({ errors });
      // An assistant no record has: named before any write (commands look names and ids up in the list first).
      saysOnOneLine(await run(t, ['assistants', 'get', 'no-such-assistant']), 'no assistant "no-such-assistant"', 'assistants get');
      saysOnOneLine(
        await run(t, ['numbers', 'link', String(t.fx.phoneNumbers[0].id), '--assistant', 'no-such-assistant']),
        'no assistant "no-such-assistant"',
        'numbers link',
      );
      t.fx.faults.push({ path: '/phone-numbers', method: 'GET', status: 500, message: 'Error fetching phone numbers' });
      saysOnOneLine(await run(t, ['numbers', 'list']), 'Error fetching phone numbers', 'numbers list');
      t.fx.faults.push({ path: '/calls/outbound', method: 'POST', status: 400, message: 'customer.number must be a valid phone number in the E.164 format' });
      saysOnOneLine(
        await run(t, ['calls', 'outbound', '--assistant', String(t.fx.assistants[0].id), '--number', String(t.fx.phoneNumbers[0].id), '--to', '+14155550142']),
        'customer.number must be a valid phone number',
        'calls outbound',
      );
    });
  }
});

describe('archive', () => {
  for (const pageCap of ['silent', 'refuse'] as const) {
    test(`sync over 3,008 calls with a page cap of 100 (${pageCap}) archives all of them and status says complete`, async () => {
      const t = await target({ calls: 3008, pageCap });
      const sync = await run(t, ['archive', 'sync'], { timeoutMs: 180_000 });
      assert.ok(!sync.timedOut, 'sync ended by itself');
      assert.equal(sync.code, 0, sync.stderr);
      const status = await json<Rec>(t, ['archive', 'status']);
      assert.equal(status.calls, 3008);
      assert.equal(status.complete, true);
      assert.equal(status.oldest, t.fx.calls.at(-1)!.createdAt);
      assert.equal(status.newest, t.fx.calls[0].createdAt);
    });
  }

  // Without a cap the service answers up to 1,000 records a request: more calls than that, so that
  // the history needs a second page; with a silent cap of 100 the history cannot be reached at all.
  for (const [dateFilters, pageCap, calls] of [
    ['ignored', 'none', 1500],
    ['renamed', 'none', 1500],
    ['ignored', 'silent', 450],
    ['renamed', 'silent', 450],
  ] as const) {
    const filtering = dateFilters === 'ignored' ? 'ignores date filters' : 'names them otherwise';
    test(`sync when the service ${filtering} (page cap ${pageCap}): ends by itself, all calls or one clear message, status honest`, async () => {
      const t = await target({ calls, dateFilters, pageCap });
      const sync = await run(t, ['archive', 'sync'], { timeoutMs: 60_000 });
      assert.ok(!sync.timedOut, 'sync ended by itself');
      const status = await json<Rec>(t, ['archive', 'status']);
      if (status.complete === true) {
        assert.equal(status.calls, calls, 'complete means every call');
        assert.equal(sync.code, 0, sync.stderr);
      } else {
        const said = (sync.stdout + sync.stderr).trim();
        assert.ok(said.length > 0, 'says why the history is not complete');
        assert.ok(Number(status.calls) <= calls);
      }
      // A second sync also ends, and adds no duplicates.
      const again = await run(t, ['archive', 'sync'], { timeoutMs: 60_000 });
      assert.ok(!again.timedOut, 'the second sync ended by itself');
      assert.ok(Number((await json<Rec>(t, ['archive', 'status'])).calls) <= calls);
    });
  }
});
