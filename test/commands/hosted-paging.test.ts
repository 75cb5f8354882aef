// What the CLI learns about how a hosted service pages (test/support/hosted-fixture.ts) is kept per
// profile: the next run starts from it, without the 400 or the probing the first run needed; and
// a sync with nothing new stays one request on a service whose bounds are strict.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome } from '../support/cli.js';
import { startHostedFixture, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function target(opts: Partial<FixtureVariant>) {
  const fx = await startHostedFixture(opts);
  const home = tempHome();
  cleanups.push(
    () => fx.close(),
    () => home.cleanup(),
  );
  const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
  const cli = async (args: string[]) => {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  const traits = () =>
    JSON.parse(readFileSync(join(home.env.XDG_STATE_HOME!, 'switchboard', 'traits.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  return { fx, cli, traits };
}

const callQueries = (fx: HostedFixture, from = 0) =>
  fx.requests
    .slice(from)
    .filter((r) => r.method === 'GET' && (r.path === '/calls' || r.path === '/calls/details'))
    .map((r) => r.query);

test('a limit refused with a 400 is learned once: the next run asks at 100 from its first request', async () => {
  const { fx, cli, traits } = await target({ calls: 250, pageCap: 'refuse' });
  const first = await cli(['calls', 'list', '--all', '-o', 'ids']);
  assert.equal(first.stdout.trim().split('\n').length, 250);
  assert.equal(Object.values(traits())[0].callPageCap, 100);
  const from = fx.requests.length;
  const second = await cli(['calls', 'list', '--limit', '300', '-o', 'ids']);
  assert.equal(second.stdout.trim().split('\n').length, 250);
  const asked = callQueries(fx, from).map((q) => q.limit);
  assert.ok(asked.length > 0 && asked.every((l) => l === '100'), `limits asked: ${asked.join(',')}`);
});

test('date filters under other names are learned once: the next run sends those names at once', async () => {
  const { fx, cli, traits } = await target({ calls: 60, dateFilters: 'renamed' });
  const from = String(fx.calls[30].createdAt);
  const expected = fx.calls.filter((c) => Date.parse(c.createdAt as string) >= Date.parse(from)).map((c) => c.id);
  const first = await cli(['calls', 'list', '--after', from, '-o', 'ids']);
  assert.deepEqual(first.stdout.trim().split('\n'), expected);
  assert.deepEqual(Object.values(traits())[0].callDateFilter, { after: 'createdAfter', before: 'createdBefore', inclusive: true });
  const at = fx.requests.length;
  const second = await cli(['calls', 'list', '--after', from, '-o', 'ids']);
  assert.deepEqual(second.stdout.trim().split('\n'), expected);
  const queries = callQueries(fx, at);
  assert.equal(queries.length, 1, 'one request');
  assert.equal(queries[0].createdAfter, from);
  assert.equal(queries[0].createdAtGt, undefined);
});

test("Vapi's strict bounds and a silent cap: archive sync holds every call, and a sync with nothing new is one request", async () => {
  const { fx, cli } = await target({ calls: 450, pageCap: 'silent' });
  await cli(['archive', 'sync']);
  const status = JSON.parse((await cli(['archive', 'status', '-o', 'json'])).stdout) as { calls: number; complete: boolean };
  assert.deepEqual([status.calls, status.complete], [450, true]);
  const from = fx.requests.length;
  await cli(['archive', 'sync']);
  assert.equal(callQueries(fx, from).length, 1);
});
