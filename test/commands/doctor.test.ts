// `switchboard doctor` as a user runs it (the built CLI): its report on a pipe and as JSON, its exit
// codes, the traits it keeps for the profile, and service text escaped on the way to the terminal.
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { runDoctor } from '../../src/api/doctor.js';
import { CHECK_COLUMNS, describeLearned } from '../../src/commands/doctor.js';
import { toTable } from '../../src/commands/output.js';
import { saveProfile } from '../../src/config/config.js';
import { loadTraits } from '../../src/config/traits.js';
import { runCli, tempHome } from '../support/cli.js';
import { startHostedFixture, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';
import { sandboxForCli } from '../support/sandbox.js';

interface JsonReport {
  profile: string;
  target: string;
  ok: boolean;
  checks: { check: string; status: string; finding: string; [fact: string]: unknown }[];
  learned: Record<string, unknown> | null;
  remembered: boolean;
}

/** Rows of the plain (piped) table: [status, check, finding]. */
function rows(stdout: string): string[][] {
  const [header, ...lines] = stdout.trimEnd().split('\n');
  assert.equal(header, 'STATUS\tCHECK\tFINDING');
  return lines.map((l) => l.split('\t'));
}

async function withFixture(variant: Partial<FixtureVariant>, fn: (f: HostedFixture, env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
  const f = await startHostedFixture(variant);
  const home = tempHome();
  try {
    await fn(f, { ...home.env, SWITCHBOARD_BASE_URL: f.url, SWITCHBOARD_API_KEY: f.apiKey });
  } finally {
    home.cleanup();
    await f.close();
  }
}

describe('switchboard doctor against the sandbox', () => {
  const on = sandboxForCli();

  test('one line per check, none failed or warned, exit 0; what it learned is kept for the profile', async () => {
    const r = await runCli(['doctor'], { env: on.env });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const table = rows(r.stdout);
    assert.deepEqual(table[0].slice(0, 2), ['ok', 'key']);
    const byCheck = new Map(table.map(([status, check, finding]) => [check, { status, finding }]));
    assert.equal(byCheck.get('envelope GET /calls')?.finding, '{calls}');
    assert.match(byCheck.get('date filters')?.finding ?? '', /^createdAtGt\/createdAtLt, inclusive/);
    assert.equal(byCheck.get('calls page cap')?.status, 'ok');
    assert.ok(
      table.every(([status]) => status === 'ok' || status === 'adapted'),
      r.stdout,
    );
    for (const [status, check] of table) if (check === 'key' || check.startsWith('envelope ')) assert.equal(status, 'ok', check);
    assert.match(r.stderr, /^kept for profile env: date filter createdAtGt\/createdAtLt inclusive, 7 envelopes$/m);
    const kept = loadTraits('env', on.sb.url, on.env);
    assert.deepEqual(kept.callDateFilter, { after: 'createdAtGt', before: 'createdAtLt', inclusive: true });
    assert.equal(kept.envelopes?.['GET /calls'], '{calls}');
    assert.ok(kept.learnedAt);
  });

  test('-o json: the same facts as data', async () => {
    const r = await runCli(['doctor', '-o', 'json'], { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    assert.equal(report.ok, true);
    assert.equal(report.profile, 'env');
    assert.equal(report.remembered, true);
    const filters = report.checks.find((c) => c.check === 'date filters')!;
    assert.deepEqual([filters.status, filters.after, filters.before, filters.inclusive], ['ok', 'createdAtGt', 'createdAtLt', true]);
    assert.equal(report.checks.find((c) => c.check === 'envelope GET /calls')?.envelope, '{calls}');
    assert.deepEqual((report.learned as { callDateFilter: unknown }).callDateFilter, { after: 'createdAtGt', before: 'createdAtLt', inclusive: true });
  });

  test("a refused key: the key check fails, exit 4 (as every command's), nothing kept", async () => {
    const env = { ...on.env, SWITCHBOARD_API_KEY: 'sk-wrong-key-0000' };
    const r = await runCli(['doctor'], { env: { ...env, XDG_STATE_HOME: `${on.home.dir}/state-refused` } });
    assert.equal(r.code, 4, r.stderr);
    const [[status, check, finding]] = rows(r.stdout);
    assert.deepEqual([status, check], ['failed', 'key']);
    assert.match(finding, /refused: GET \/assistants answered 401/);
    assert.deepEqual(loadTraits('env', on.sb.url, { ...env, XDG_STATE_HOME: `${on.home.dir}/state-refused` }), {});
  });
});

describe('switchboard doctor against the hosted-service fixture', () => {
  test('a profile on a service with bare lists and a silent cap of 100: reported adapted, kept for that profile', () =>
    withFixture({ list: 'bare', single: 'bare', pageCap: 'silent', pageCapSize: 100, calls: 250 }, async (f, env) => {
      const { SWITCHBOARD_BASE_URL: _url, SWITCHBOARD_API_KEY: _key, ...home } = env;
      saveProfile('prod', { baseUrl: f.url, apiKey: f.apiKey }, home);
      const r = await runCli(['--profile', 'prod', 'doctor'], { env: home });
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const byCheck = new Map(rows(r.stdout).map(([status, check, finding]) => [check, { status, finding }]));
      assert.deepEqual(byCheck.get('envelope GET /calls'), { status: 'adapted', finding: 'bare' });
      assert.equal(byCheck.get('calls page cap')?.status, 'adapted');
      assert.match(byCheck.get('calls page cap')?.finding ?? '', /silently capped at 100/);
      assert.match(r.stderr, /kept for profile prod: calls page 100, date filter createdAtGe\/createdAtLe inclusive/);
      const kept = loadTraits('prod', f.url, home);
      assert.equal(kept.callPageCap, 100);
      assert.equal(kept.envelopes?.['GET /calls'], 'bare');
      assert.deepEqual(new Set(f.requests.map((q) => q.method)), new Set(['GET', 'HEAD']));
    }));

  test('a refused limit and renamed filters, as JSON', () =>
    withFixture({ pageCap: 'refuse', pageCapSize: 100, calls: 150, dateFilters: 'renamed' }, async (_f, env) => {
      const r = await runCli(['doctor', '-o', 'json'], { env });
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as JsonReport;
      const cap = report.checks.find((c) => c.check === 'calls page cap')!;
      assert.deepEqual([cap.status, cap.cap, cap.how], ['adapted', 100, 'refused']);
      const filters = report.checks.find((c) => c.check === 'date filters')!;
      assert.deepEqual([filters.status, filters.after, filters.before, filters.inclusive], ['adapted', 'createdAfter', 'createdBefore', true]);
    }));

  test('a refused key exits 4; a failing endpoint exits 1, its words escaped on the terminal', () =>
    withFixture({}, async (f, env) => {
      const refused = await runCli(['doctor'], { env: { ...env, SWITCHBOARD_API_KEY: 'hq_wrong' } });
      assert.equal(refused.code, 4);
      assert.match(refused.stdout, /failed\tkey\trefused: GET \/assistants answered 401: Invalid or missing API key/);

      f.faults.push({ method: 'GET', path: '/phone-numbers', status: 500, message: 'down \u001b[2J\u009b31m\u202eevil' });
      const r = await runCli(['doctor'], { env });
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stdout, /[\u001b\u009b\u202e]/);
      const line = r.stdout.split('\n').find((l) => l.includes('envelope GET /phone-numbers'));
      assert.ok(line?.startsWith('failed\t'), r.stdout);
      assert.ok(line?.includes('down \\x1b[2J\\x9b31m<U+202E>evil'), line);
      assert.equal(rows(r.stdout).find(([, check]) => check === 'envelope GET /calls')?.[0], 'ok');
    }));
});

test('the embedded sandbox: probed like any target, and what it learns kept under one name whatever its port', async () => {
  const home = tempHome();
  try {
    const r = await runCli(['doctor', '-o', 'json'], { env: home.env });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    assert.equal(report.target, 'embedded sandbox');
    assert.equal(report.ok, true);
    assert.equal(report.remembered, true);
    assert.deepEqual(loadTraits('sandbox', 'embedded sandbox', home.env).callDateFilter, { after: 'createdAtGt', before: 'createdAtLt', inclusive: true });
  } finally {
    home.cleanup();
  }
});

test("the README's example of doctor's output is what it prints against such a service", async () => {
  const readme = readFileSync('README.md', 'utf8');
  const example = /\$ switchboard --profile prod doctor\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(example, 'README has the example under "Against a hosted service"');
  // A service that forwards the platform's records: money as decimal strings, its own phone numbers.
  await withFixture({ pageCap: 'silent', pageCapSize: 100, calls: 250, records: 'platform' }, async (f) => {
    const report = await runDoctor({ baseUrl: f.url, apiKey: f.apiKey });
    const printed = toTable(report.checks, CHECK_COLUMNS, true, false, { wide: true }).split('\n');
    printed.push(`kept for profile prod: ${describeLearned(report.learned!)}`);
    for (const line of example.split('\n')) if (line !== '…') assert.ok(printed.includes(line), `printed: ${line}`);
  });
});
