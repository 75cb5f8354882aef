// `switchboard test` with simulated callers, judges, samples, baselines, cost and reports: the built
// CLI against a real sandbox, and against the hosted fixture whose chat answers differently (an
// echo, or what a test makes it say), so that a judge answering prose is seen too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { fixturesForFile, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';
import { elements, parseXml } from '../support/xml.js';
import { openSqlite } from '../../src/sandbox/sqlite.js';

const on = sandboxForCli();
const fixture = fixturesForFile();
let dir: string;
const homes: CliHome[] = [];
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-evals-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const h of homes) h.cleanup();
});

function file(name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const cli = async (args: string[], env = on.env) => {
  const r = await runCli(['test', ...args], { env });
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'a stack trace');
  assert.doesNotMatch(r.stdout + r.stderr, /\u001b/, 'a raw ESC reached the terminal');
  return r;
};

/** Sessions, chats and assistants the sandbox holds (read from its database, not through the API). */
function held(): { sessions: number; chats: number; assistants: number } {
  const db = openSqlite(join(on.sb.dataDir, 'sandbox.db'), { readOnly: true });
  try {
    const n = (t: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
    return { sessions: n('sessions'), chats: n('chats'), assistants: n('assistants') };
  } finally {
    db.close();
  }
}

async function onFixture(variant: Partial<FixtureVariant> = {}): Promise<{ fx: HostedFixture; env: NodeJS.ProcessEnv }> {
  const fx = await fixture(variant);
  const home = tempHome();
  homes.push(home);
  return { fx, env: { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey } };
}

const RILEY = 'Riley — Northwind support';

const SIMULATED = `name: Returns, simulated
assistant: ${RILEY}
simulate:
  persona: |
    You are Dana, who bought a blender last week. Ask how long you have to return an item.
    Ask whether sale items can be returned.
  maxTurns: 5
  stopWhen: goodbye
judge:
  - rubric: The assistant quotes "30 days" and "final sale".
`;

interface JsonReport {
  summary: { passed: number; failed: number; flaky: number; cost: number };
  helpersCreated: { id: string; name: string }[];
  baseline?: { file: string; regressions: { scenario: string; what: string }[] };
  scenarios: {
    name: string;
    status: string;
    failure?: string;
    samples: number;
    passRate: number;
    scores: Record<string, number>;
    latency: { p50: number; p95: number }[];
    runs: {
      passed: boolean;
      ended?: string;
      judges?: { score?: number; reason?: string; error?: string; passed: boolean }[];
      turns: { simulated?: boolean; user: string; reply: string; latencyMs?: number }[];
    }[];
  }[];
}

describe('switchboard test: the format of simulate and judge', () => {
  const bad: [string, string, RegExp][] = [
    ['no maxTurns', `assistant: ${RILEY}\nsimulate:\n  persona: a caller\n`, /:3:3: simulate\.maxTurns: missing \(required\)/],
    ['a misspelt key', `assistant: ${RILEY}\nsimulate:\n  personna: a caller\n  maxTurns: 2\n`, /:3:3: unknown key "personna" in simulate/],
    [
      'a bad stopWhen',
      `assistant: ${RILEY}\nsimulate:\n  persona: a caller\n  maxTurns: 2\n  stopWhen: "(bye"\n`,
      /:5:13: simulate\.stopWhen: not a valid regular expression/,
    ],
    ['a threshold above 1', `assistant: ${RILEY}\nturns:\n  - user: hi\njudge:\n  - rubric: polite\n    threshold: 2\n`, /:6:16: judge\[0\]\.threshold: .*1/],
    ['an empty judge list', `assistant: ${RILEY}\nturns:\n  - user: hi\njudge: []\n`, /:4:8: judge: must not be empty/],
    ['neither turns nor simulate', `assistant: ${RILEY}\njudge:\n  - rubric: polite\n`, /:1:1: a scenario needs `turns`, `simulate` or both/],
  ];
  for (const [what, text, error] of bad) {
    test(`${what}: file:line:col, exit 2, nothing sent and no assistant created`, async () => {
      const f = file(`bad/${what.replace(/\W+/g, '-')}.test.yaml`, text);
      const was = held();
      const r = await cli([f]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, error);
      assert.ok(r.stderr.includes(f), r.stderr);
      assert.deepEqual(held(), was);
    });
  }

  test('--schema describes simulate and judge; a scenario needs only assistant', async () => {
    const r = await cli(['--schema']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, readFileSync('assets/scenario.schema.json', 'utf8'), 'stale: run switchboard test --schema > assets/scenario.schema.json');
    const one = (JSON.parse(r.stdout) as { anyOf: { properties: Record<string, { type?: string }>; required: string[] }[] }).anyOf[0];
    assert.deepEqual(one.required, ['assistant']);
    assert.ok(one.properties.simulate && one.properties.judge, Object.keys(one.properties).join(', '));
  });
});

describe('switchboard test on the sandbox: a simulated caller and a judge', () => {
  test('the caller says its goals in order until stopWhen; the judge scores from the transcript; the helpers are ours and reused', async () => {
    const f = file('sim/returns.test.yaml', SIMULATED);
    const was = held();
    const r = await cli([f, '-o', 'json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    const run = report.scenarios[0].runs[0];
    assert.deepEqual(
      run.turns.map((t) => [t.simulated, t.user]),
      [
        [true, "I'd like to know how long you have to return an item."],
        [true, "I'd like to know whether sale items can be returned."],
        [true, 'Thanks, that is all I needed. Goodbye.'],
      ],
    );
    assert.match(run.turns[0].reply, /30 days/);
    assert.match(run.ended!, /caller said stopWhen after 3 lines/);
    assert.equal(run.judges![0].score, 1);
    assert.match(run.judges![0].reason!, /2 of 2/);
    assert.deepEqual(
      report.helpersCreated.map((h) => h.name.replace(/[0-9a-f]{8}$/, '…')),
      ['switchboard caller · …', 'switchboard judge · …'],
    );
    // The assistant's session, the caller's and the judge's; 3 lines each way and one verdict.
    const now = held();
    assert.deepEqual(
      { sessions: now.sessions - was.sessions, chats: now.chats - was.chats, assistants: now.assistants - was.assistants },
      {
        sessions: 3,
        chats: 7,
        assistants: 2,
      },
    );

    const again = await cli([f, '-o', 'json']);
    const second = JSON.parse(again.stdout) as JsonReport;
    assert.deepEqual(second.helpersCreated, [], 'the helpers are found by the hash in their name');
    assert.deepEqual(
      second.scenarios[0].runs[0].turns,
      report.scenarios[0].runs[0].turns.map((t, i) => ({ ...t, latencyMs: second.scenarios[0].runs[0].turns[i].latencyMs })),
    );
    assert.equal(held().assistants, now.assistants);

    const cleanup = await cli(['--cleanup']);
    assert.equal(cleanup.code, 0, cleanup.stderr);
    assert.equal(cleanup.stdout.trim().split('\n').length, 2, cleanup.stdout);
    assert.match(cleanup.stdout, /switchboard caller · [0-9a-f]{8}/);
    assert.match(cleanup.stderr, /cannot delete assistants \(it has no DELETE \/assistants\)/);
  });

  test('a judge below its threshold fails the scenario: its reason is in the text, JUnit (with samples as properties) and GitHub reports', async () => {
    const f = file(
      'judged/credit.test.yaml',
      SIMULATED.replace('name: Returns, simulated', 'name: Offers store credit') + '  - rubric: The assistant offers "store credit".\n    threshold: 0.5\n',
    );
    const text = await cli([f, '--samples', '2']);
    assert.equal(text.code, 1, text.stdout + text.stderr);
    assert.match(text.stdout, /^✗ Offers store credit/m);
    assert.match(text.stdout, /passed 0 of 2 samples \(0%\)/);
    assert.match(text.stdout, /latency p50\/p95 per turn: \d+\/\d+, \d+\/\d+, \d+\/\d+ ms/);
    assert.match(text.stdout, /judge "The assistant offers \\"store credit\\"\.": 0\.00 < 0\.5: .*missing: store credit/);

    const xml = await cli([f, '--samples', '2', '-o', 'junit']);
    const doc = parseXml(xml.stdout);
    const props = Object.fromEntries(elements(doc, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    assert.equal(props.samples, '2');
    assert.equal(props['samples.passed'], '0');
    assert.equal(props['score: The assistant offers "store credit".'], '0');
    const failure = elements(doc, 'failure')[0];
    assert.equal(failure.attrs.type, 'judge');
    assert.match(failure.text, /sample 2: judge "The assistant offers \\"store credit\\"\.": 0\.00 < 0\.5: .*missing: store credit/);

    const gh = await cli([f, '-o', 'github']);
    assert.equal(gh.code, 1);
    const lines = gh.stdout.split('\n');
    assert.equal(lines[0], `::group::${f}`);
    assert.match(
      lines[2],
      new RegExp(`^::error file=${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=1,col=1,title=Offers store credit::judge .*store credit.*%0A`),
    );
    assert.equal(lines[3], '::endgroup::');
  });
});

describe('switchboard test: samples, pass rates and baselines', () => {
  test('--samples N --pass-rate P: a scenario passes when P of its samples pass; without P a mixed result is flaky', async () => {
    // A judge that answers a good and a bad score in turn: two of three samples pass.
    let verdicts = 0;
    const { env } = await onFixture({
      chatReply: (prompt) =>
        prompt.startsWith('[switchboard:judge]') ? JSON.stringify({ score: verdicts++ % 3 === 1 ? 0.2 : 0.9, reason: `verdict ${verdicts}` }) : undefined,
    });
    const f = file('rate/front.test.yaml', `name: Front desk\nassistant: Front Desk\nturns:\n  - user: Hello\njudge:\n  - rubric: greets the caller\n`);
    const loose = await cli([f, '--samples', '3', '--pass-rate', '0.6', '--concurrency', '1', '-o', 'json'], env);
    assert.equal(loose.code, 0, loose.stdout + loose.stderr);
    const report = JSON.parse(loose.stdout) as JsonReport;
    assert.deepEqual(
      report.scenarios[0].runs.map((x) => x.passed),
      [true, false, true],
    );
    assert.equal(report.scenarios[0].status, 'passed');
    assert.equal(Math.round(report.scenarios[0].passRate * 100), 67);
    assert.equal(report.scenarios[0].latency.length, 1);

    const strict = await cli([f, '--samples', '3', '--pass-rate', '80%', '--concurrency', '1'], env);
    assert.equal(strict.code, 1, strict.stdout);
    assert.match(strict.stdout, /passed 2 of 3 samples \(67%; needs 80%\)/);

    const flaky = await cli([f, '--repeat', '3', '--concurrency', '1'], env);
    assert.equal(flaky.code, 1);
    assert.match(flaky.stdout, /^~ Front desk/m);
    assert.match(flaky.stdout, /flaky: passed 2 of 3 samples \(67%\)/);

    const wrong = await cli([f, '--pass-rate', '1.5'], env);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--pass-rate.*from 0 to 1/);
  });

  test('--baseline lists a score drop beyond the tolerance; --fail-on-regression makes it exit 1; a bad baseline sends nothing', async () => {
    const base = join(dir, 'base.json');
    const scenario = (persona: string) =>
      `name: Returns policy\nassistant: ${RILEY}\nsimulate:\n  persona: ${persona}\n  maxTurns: 3\n` +
      'judge:\n  - rubric: quotes "30 days" and "final sale"\n    threshold: 0.4\n';
    const f = file('baseline/returns.test.yaml', scenario('Ask how long you have to return an item. Ask whether sale items can be returned.'));
    const first = await cli([f, '-o', 'json', '--out', base]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const written = JSON.parse(readFileSync(base, 'utf8')) as JsonReport;
    assert.equal(written.scenarios[0].scores['quotes "30 days" and "final sale"'], 1);
    // The baseline's latency goes: a slow turn on a busy machine is a latency regression of its own,
    // and this test is about scores (the latency rule is tested on its own in test/scenarios).
    for (const s of written.scenarios) s.latency = [];
    writeFileSync(base, JSON.stringify(written));

    file('baseline/returns.test.yaml', scenario('Ask how long you have to return an item.'));
    const r = await cli([f, '--baseline', base]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /compared with .*base\.json: 1 regression\n {2}↓ Returns policy: score 0\.50, was 1\.00 \(tolerance 0\.1\): quotes "30 days"/);
    const failing = await cli([f, '--baseline', base, '--fail-on-regression', '-o', 'json']);
    assert.equal(failing.code, 1);
    assert.equal((JSON.parse(failing.stdout) as JsonReport).baseline!.regressions.length, 1);
    const tolerant = await cli([f, '--baseline', base, '--fail-on-regression', '--tolerance', '0.6']);
    assert.equal(tolerant.code, 0, tolerant.stdout);
    assert.match(tolerant.stdout, /no regressions/);

    writeFileSync(join(dir, 'not-a-report.json'), '{"summary": {}}');
    const was = held();
    const bad = await cli([f, '--baseline', join(dir, 'not-a-report.json')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not-a-report\.json: not a report of switchboard test -o json/);
    assert.deepEqual(held(), was);
  });
});

describe('switchboard test against the hosted fixture: judges that answer prose, cost', () => {
  test('a judge that answers no JSON is asked again once, then is a judge error and never a pass', async () => {
    const { fx, env } = await onFixture();
    const f = file('prose/front.test.yaml', `name: Front desk\nassistant: Front Desk\nturns:\n  - user: Hello\njudge:\n  - rubric: greets the caller\n`);
    const r = await cli([f, '-o', 'json'], env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    const judge = report.scenarios[0].runs[0].judges![0];
    assert.equal(judge.passed, false);
    assert.equal(judge.score, undefined);
    assert.match(judge.error!, /answered no JSON verdict twice \(last: "You said: That was not the JSON verdict/);
    const judgeSession = fx.sessions.find((s) => String(s.name).startsWith('switchboard test judge'))!;
    assert.equal(fx.chats.filter((c) => c.sessionId === judgeSession.id).length, 2);
    // The helper is created with the tested assistant's voice, transcriber and model provider.
    const created = fx.assistants.find((a) => /^switchboard judge · [0-9a-f]{8}$/.test(String(a.name)))!;
    assert.equal((created.transcriber as { provider: string }).provider, 'deepgram');
    assert.match(r.stderr, /1 scenario × 1 sample: 2 chat sessions, up to 3 chats/);
  });

  test('a verdict in prose or a code fence is read; hostile text in a reason is escaped in every report', async () => {
    const { env } = await onFixture({
      chatReply: (prompt, _input, before) =>
        prompt.startsWith('[switchboard:judge]')
          ? before === 0
            ? 'Let me think about it.'
            : 'Sure:\n```json\n{"score": 0.8, "reason": "greets \\u001b]52;c;SGk=\\u0007 warmly"}\n```'
          : undefined,
    });
    const f = file(
      'fence/front.test.yaml',
      `name: Front desk\nassistant: Front Desk\nturns:\n  - user: Hello\njudge:\n  - rubric: greets the caller\n    threshold: 0.9\n`,
    );
    for (const format of ['text', 'junit', 'github', 'json', 'tap']) {
      const r = await cli([f, '-o', format], env);
      assert.equal(r.code, 1, `${format}: ${r.stdout}${r.stderr}`);
      if (format !== 'tap') assert.match(r.stdout, /0\.8|greets/);
    }
    const text = await cli([f], env);
    assert.match(text.stdout, /judge "greets the caller": 0\.80 < 0\.9: greets \\x1b\]52;c;SGk=\\x07 warmly/);
  });

  test("a caller the service refuses to create fails the scenario with the service's words; nothing is judged", async () => {
    const { fx, env } = await onFixture();
    fx.faults.push({ method: 'POST', path: '/assistants', status: 400, message: 'model.provider is not allowed' });
    const f = file('refused/front.test.yaml', `name: Front desk\nassistant: Front Desk\nsimulate:\n  persona: Ask about opening hours.\n  maxTurns: 2\n`);
    const r = await cli([f], env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^✗ Front desk/m);
    assert.match(r.stdout, /\n {4}the simulated caller could not be started: .*model\.provider is not allowed/);
    assert.equal(fx.chats.length, 0);
  });

  test('--max-cost stops starting chats once spent; the rest is reported, and the exit is 1', async () => {
    const { fx, env } = await onFixture();
    const f = file(
      'cost/many.test.yaml',
      `scenarios:\n${[1, 2, 3, 4].map((i) => `  - name: s${i}\n    assistant: Front Desk\n    turns:\n      - user: Hello\n      - user: Bye\n`).join('')}`,
    );
    const r = await cli([f, '--max-cost', '0.004', '--concurrency', '1'], env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /stopped: --max-cost 0\.004: spent 0\.0042/);
    assert.equal(fx.chats.length, 2, 'each chat costs 0.0021: two reach the limit');
    assert.match(r.stderr, /4 scenarios × 1 sample: 4 chat sessions, up to 8 chats .*; --max-cost 0\.004 stops the run/);

    // With a baseline that holds costs, the line before the run estimates this run's cost from it.
    const base = join(dir, 'cost-base.json');
    assert.equal((await cli([f, '-o', 'json', '--out', base], env)).code, 0);
    const estimated = await cli([f, '--samples', '2', '--baseline', base], env);
    assert.match(estimated.stderr, /8 chat sessions, up to 16 chats on .*; about 0\.0336 by the baseline's cost per sample/);
  });
});
