// The built CLI against the fixture service whose records are the platform's own, generated from
// its OpenAPI document (test/support/platform-records.ts): money as decimal strings, numbers in the
// platform's shape, an outbound call answered 202 {id, status}; and records that cannot be read at
// all. No field of another type fails a request; what cannot be read is skipped and said.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, startCli, tempHome, type CliResult } from '../support/cli.js';
import { startHostedFixture, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';
import { until } from '../support/wait.js';

type Rec = Record<string, unknown>;
interface Target {
  fx: HostedFixture;
  env: NodeJS.ProcessEnv;
}

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function target(opts: Partial<FixtureVariant> = {}): Promise<Target> {
  const fx = await startHostedFixture({ records: 'platform', ...opts });
  const home = tempHome();
  cleanups.push(
    () => fx.close(),
    () => home.cleanup(),
  );
  return { fx, env: { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey } };
}

const run = (t: Target, args: string[]): Promise<CliResult> => runCli(args, { env: t.env });

async function ok(t: Target, args: string[]): Promise<CliResult> {
  const r = await run(t, args);
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}

/** The first call of the fixture whose cost is a decimal string. */
function decimalCall(fx: HostedFixture): { call: Rec; at: number } {
  const at = fx.calls.findIndex((c) => typeof c.cost === 'string');
  assert.ok(at >= 0 && at < 10, 'the seed has a call with a decimal-string cost among the first ten');
  return { call: fx.calls[at], at };
}

describe('a cost sent as a decimal string', () => {
  test('calls list, -o json and calls get succeed; the table shows the cost; -o json is the record as sent', async () => {
    const t = await target();
    const { call } = decimalCall(t.fx);
    const table = (await ok(t, ['calls', 'list', '--limit', '10', '-o', 'csv'])).stdout;
    const row = table.split(/\r?\n/).find((l) => l.startsWith(String(call.id)));
    assert.ok(row, table);
    assert.ok(row.split(',').includes(String(Number(call.cost))), `the cost ${String(call.cost)} in ${row}`);
    const listed = JSON.parse((await ok(t, ['calls', 'list', '--limit', '10', '-o', 'json'])).stdout) as Rec[];
    assert.deepEqual(listed, t.fx.calls.slice(0, 10), 'records exactly as received (the cost still a string)');
    const got = JSON.parse((await ok(t, ['calls', 'get', String(call.id), '-o', 'json'])).stdout) as Rec;
    assert.deepEqual(got, call);
    const shown = (await ok(t, ['calls', 'get', String(call.id)])).stdout;
    assert.match(shown, new RegExp(String(call.cost).replace('.', '\\.')));
  });

  test('--debug says once that it adapted to the decimal string, naming the field', async () => {
    const t = await target();
    const r = await ok(t, ['calls', 'list', '--limit', '40', '--debug']);
    const lines = r.stderr.split('\n').filter((l) => /adapted to cost: a numeric string/.test(l));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /GET \/calls/);
  });

  test('archive sync keeps every call, and calls stats counts the decimal strings as the numbers they are', async () => {
    const t = await target();
    const synced = await ok(t, ['archive', 'sync']);
    assert.doesNotMatch(synced.stderr, /unexpected shape/);
    const rows = JSON.parse((await ok(t, ['calls', 'stats', '-o', 'json'])).stdout) as Rec[];
    const calls = rows.reduce((s, r) => s + Number(r.calls ?? 0), 0);
    assert.equal(calls, t.fx.calls.length);
    const cost = rows.reduce((s, r) => s + Number(r.cost ?? 0), 0);
    const truth = t.fx.calls.reduce((s, c) => s + Number(c.cost ?? (c.costBreakdown as Rec | undefined)?.total ?? 0), 0);
    assert.ok(
      t.fx.calls.some((c) => typeof c.cost === 'string'),
      'the seed sends some costs as strings',
    );
    assert.ok(Math.abs(cost - truth) < 0.005, `cost ${cost} vs ${truth}`);
  });
});

describe('records that cannot be read', () => {
  test('one call that is not an object is skipped with a warning naming its position; the rest of the page is listed and archived', async () => {
    const t = await target();
    const broken = String(t.fx.calls[2].id);
    t.fx.variant.callText = (c) => (c.id === broken ? '"a note, not a call"' : JSON.stringify(c));
    const r = await ok(t, ['calls', 'list', '--limit', '10', '-o', 'ids']);
    assert.deepEqual(
      r.stdout.split('\n').filter(Boolean),
      t.fx.calls
        .map((c) => c.id)
        .filter((id) => id !== broken)
        .slice(0, 10),
    );
    assert.match(r.stderr, /calls\[2\] skipped, it cannot be read \(not an object: a string\)/);
    const synced = await ok(t, ['archive', 'sync']);
    assert.match(synced.stderr, /skipped/);
    const archived = (await ok(t, ['calls', 'search', 'done', '--offline', '-o', 'ids'])).stdout.split('\n').filter(Boolean);
    assert.ok(archived.length > 0 && !archived.includes(broken), 'the other calls are archived');
  });

  test('doctor: exits 1 when no call can be read, and says why', async () => {
    const t = await target({ callText: () => '17' });
    const r = await run(t, ['doctor']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const line = r.stdout.split('\n').find((l) => l.includes('records GET /calls'));
    assert.ok(line, r.stdout);
    assert.match(line, /^failed/);
    assert.match(line, /none of the 40 records can be read \(calls\[0\]: not an object: a number/);
  });
});

describe('doctor against the platform', () => {
  test('prints what it adapted to (decimal strings, the platform numbers), exits 0', async () => {
    const t = await target();
    const r = await run(t, ['doctor']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const line = (check: string) => r.stdout.split('\n').find((l) => l.includes(`\t${check}\t`)) ?? '';
    assert.match(line('records GET /calls'), /^adapted\t.*numeric strings read as numbers: cost \("\d+\.\d+", \d+ of 40\)/);
    assert.match(line('records GET /phone-numbers'), /^adapted\t.*the platform's shape/);
    assert.match(line('cost'), /^ok/);
    const json = JSON.parse((await run(t, ['doctor', '-o', 'json'])).stdout) as { checks: Rec[] };
    const calls = json.checks.find((c) => c.check === 'records GET /calls')!;
    assert.ok((calls.adapted as Rec[]).some((m) => m.field === 'cost' && m.numeric === true && m.expected === 'number' && m.received === 'string'));
  });
});

describe('numbers in the platform shape', () => {
  test('numbers list shows number, name and the status word; numbers link and calls outbound take its +DID', async () => {
    const t = await target();
    const csv = (await ok(t, ['numbers', 'list', '-o', 'csv'])).stdout;
    for (const n of t.fx.phoneNumbers) {
      const row = csv.split(/\r?\n/).find((l) => l.startsWith(String(n.id)));
      assert.ok(row, `${String(n.id)} in ${csv}`);
      if (n.number) assert.ok(row.includes(String(n.number)), row);
      if (typeof n.status === 'string') assert.ok(row.includes(n.status), row);
    }
    const second = t.fx.phoneNumbers[1];
    await ok(t, ['numbers', 'link', String(second.number), '--assistant', String(t.fx.assistants[2].id)]);
    assert.deepEqual(t.fx.links.at(-1), { assistantId: t.fx.assistants[2].id, phoneNumberId: second.id });
    const r = await ok(t, ['calls', 'outbound', '--assistant', String(t.fx.assistants[0].id), '--number', String(second.number), '--to', '+14155550142']);
    assert.equal(
      t.fx.requestsTo('/calls/outbound', 'POST').at(-1)?.body && (t.fx.requestsTo('/calls/outbound', 'POST').at(-1)!.body as Rec).phoneNumberId,
      second.id,
    );
    assert.ok(r.stdout.includes(String(t.fx.calls[0].id)), r.stdout);
  });
});

describe('an outbound call answered 202 {id, status}', () => {
  test('prints the id, sent once; calls watch follows the call', async () => {
    const t = await target();
    const r = await ok(t, [
      'calls',
      'outbound',
      '--assistant',
      String(t.fx.assistants[0].id),
      '--number',
      String(t.fx.phoneNumbers[0].id),
      '--to',
      '+14155550142',
    ]);
    assert.equal(t.fx.requestsTo('/calls/outbound', 'POST').length, 1, 'never re-sent');
    const id = String(t.fx.calls[0].id);
    assert.ok(r.stdout.includes(id), r.stdout);
    assert.doesNotMatch(r.stderr, /id is unknown/);
    const watch = startCli(['calls', 'watch', '--interval', '1', '-o', 'ids'], { env: t.env });
    try {
      await until(() => t.fx.requestsTo('/calls').length >= 2, 'the watch polled twice');
      t.fx.call(id)!.status = 'ringing';
      await until(() => watch.stdout().includes(id), `the watch prints ${id}`);
    } finally {
      watch.child.kill('SIGINT');
      await watch.result;
    }
  });
});
