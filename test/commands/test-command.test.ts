// `switchboard test`: the built CLI as a child process against a real sandbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, startCli, tempHome } from '../support/cli.js';
import { elements, parseXml } from '../support/xml.js';
import { openSqlite } from '../../src/sandbox/sqlite.js';
import { createClient } from '../../src/api/client.js';

const on = sandboxForCli();
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-scenarios-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const cli = async (args: string[], env = on.env, opts: { process?: boolean } = {}) => {
  const r = await runCli(['test', ...args], { env, ...opts });
  assert.ok(!(r.stdout + r.stderr).includes(on.sb.apiKey), 'the key leaked');
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'a stack trace');
  return r;
};

/** What the sandbox recorded: sessions and chats (read from its database, not through the API). */
function sent(): { sessions: number; chats: number } {
  const db = openSqlite(join(on.sb.dataDir, 'sandbox.db'), { readOnly: true });
  try {
    const n = (t: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
    return { sessions: n('sessions'), chats: n('chats') };
  } finally {
    db.close();
  }
}

const RILEY = 'Riley — Northwind support';

const PASSING = `name: Quotes the return window
assistant: ${RILEY}
turns:
  - user: How long do I have to return an item?
    expect:
      contains: ["30 DAYS"]
      notContains: ["I don't know"]
      matches: "\\\\b30 days\\\\b"
      maxLatencyMs: 5000
      maxCost: 1
  - user: What about sale items?
    expect:
      contains: ["final sale"]
`;

describe('switchboard test', () => {
  test('a passing file exits 0; each scenario in its own session, variables sent on every turn', async () => {
    const riley = (await createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey }).listAssistants()).find((a) => a.name === RILEY)!;
    const f1 = file('pass/returns.test.yaml', PASSING);
    file(
      'pass/more.test.yml',
      `scenarios:
  - name: Says who it is, with the company variable
    assistant: ${riley.id}
    variables: { company: Acme Outdoor }
    turns:
      - user: Who are you?
        expect: { contains: ["support agent for Acme Outdoor"], notContains: ["{{company}}"] }
      - user: What can you do?
        expect: { contains: ["Acme Outdoor"] }
`,
    );
    file('pass/notes.yaml', 'not: a scenario file (no .test.yaml)\n');
    const before = sent();
    const r = await cli([join(dir, 'pass'), '-o', 'json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as {
      summary: { passed: number; failed: number };
      scenarios: { name: string; file: string; status: string; runs: { sessionId: string }[] }[];
    };
    assert.deepEqual(
      report.scenarios.map((s) => [s.name, s.status]),
      [
        ['Says who it is, with the company variable', 'passed'],
        ['Quotes the return window', 'passed'],
      ],
    );
    assert.equal(report.scenarios[1].file, f1);
    assert.notEqual(report.scenarios[0].runs[0].sessionId, report.scenarios[1].runs[0].sessionId);
    const after = sent();
    assert.deepEqual({ sessions: after.sessions - before.sessions, chats: after.chats - before.chats }, { sessions: 2, chats: 4 });

    const text = await cli([f1]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^✓ Quotes the return window/m);
    assert.match(text.stdout, /1 passed, 0 failed · 1 scenario, \d+ turns? sent/);
    assert.doesNotMatch(text.stdout, /\b1 (scenarios|turns)\b/);
  });

  test('with nothing configured it runs against the embedded sandbox', async () => {
    const home = tempHome();
    try {
      const r = await cli([file('embedded/returns.test.yaml', PASSING)], home.env);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /1 passed/);
    } finally {
      home.cleanup();
    }
  });

  test('a failing expectation exits 1; the JUnit report is XML with a <testsuite> per file and one <failure> per failed scenario', async () => {
    file(
      'fail/a.test.yaml',
      `scenarios:
  - name: passes
    assistant: ${RILEY}
    turns: [{ user: How long do I have to return an item?, expect: { contains: [30 days] } }]
  - name: wrong <answer> & "quotes"
    assistant: ${RILEY}
    turns:
      - user: How long do I have to return an item?
        expect: { contains: [30 days] }
      - user: What about sale items?
        expect: { contains: ["60 days"], notContains: ["final sale"] }
`,
    );
    file('fail/b.test.yaml', `assistant: ${RILEY}\nturns:\n  - user: Do you sell bikes?\n    expect: { matches: "^yes" }\n`);
    const out = join(dir, 'results.xml');
    const r = await cli([join(dir, 'fail'), '-o', 'junit', '--out', out]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    // The text report still goes to stdout: the failing turn, the expectation, the reply.
    assert.match(r.stdout, /^✗ wrong <answer> & "quotes"/m);
    assert.match(r.stdout, /turn 2: What about sale items\?\n\s+expected contains "60 days"\n\s+expected notContains "final sale"\n\s+reply {3}.*final sale/);
    assert.match(r.stdout, /1 passed, 2 failed/);

    // A report that could not be written is refused before any scenario runs, not after all of them.
    const nowhere = await cli([join(dir, 'fail'), '-o', 'junit', '--out', join(dir, 'no-such-dir', 'results.xml')]);
    assert.equal(nowhere.code, 2, nowhere.stdout + nowhere.stderr);
    assert.match(nowhere.stderr, /--out .*no-such-dir.*results\.xml: cannot write the report \(its directory does not exist\)/);
    assert.equal(nowhere.stdout, '', 'no scenario ran');

    const root = parseXml(readFileSync(out, 'utf8'));
    assert.equal(root.name, 'testsuites');
    const suites = elements(root, 'testsuite');
    assert.deepEqual(
      suites.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures]),
      [
        [join(dir, 'fail/a.test.yaml'), '2', '1'],
        [join(dir, 'fail/b.test.yaml'), '1', '1'],
      ],
    );
    const failures = elements(root, 'failure');
    assert.equal(failures.length, 2);
    const cases = elements(root, 'testcase');
    assert.deepEqual(
      cases.map((c) => [c.attrs.name, elements(c, 'failure').length]),
      [
        ['passes', 0],
        ['wrong <answer> & "quotes"', 1],
        ['b', 1],
      ],
    );
    assert.match(failures[0].attrs.message, /^turn 2: contains "60 days"; notContains "final sale"$/);
    assert.match(failures[0].text, /reply: .*final sale/);
    assert.match(failures[1].attrs.message, /^turn 1: matches \/\^yes\/i$/);
  });

  test('an invalid file exits 2 naming file, line and column; nothing is sent, not even for the valid files', async () => {
    const good = file('invalid/good.test.yaml', PASSING);
    const cases: [string, string, RegExp][] = [
      ['unknown.test.yaml', `assistant: x\nturns:\n  - user: hi\n    expect:\n      contians: [a]\n`, /unknown\.test\.yaml:5:7: unknown key "contians"/],
      [
        'type.test.yaml',
        `assistant: x\nturns:\n  - user: hi\n    expect: { maxLatencyMs: soon }\n`,
        /type\.test\.yaml:4:29: .*maxLatencyMs: expected a number, got text "soon"/,
      ],
      [
        'regex.test.yaml',
        `assistant: x\nturns:\n  - user: hi\n    expect:\n      matches: "(30 days"\n`,
        /regex\.test\.yaml:5:16: .*matches: not a valid regular expression/,
      ],
      ['yaml.test.yaml', `assistant: x\nturns: [\n`, /yaml\.test\.yaml:\d+:\d+: invalid YAML/],
      ['noturns.test.yaml', `assistant: x\n`, /noturns\.test\.yaml:1:1: a scenario needs `turns`, `simulate` or both/],
      // An alias bomb: nine lines that expand to a billion nodes.
      [
        'bomb.test.yaml',
        `assistant: x\nturns: [{ user: hi }]\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, ` +
          `lol]\n${Array.from({ length: 8 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(', ')}]`).join('\n')}\n`,
        /bomb\.test\.yaml:4:10: aliases \(\*name\) expand too many times/,
      ],
      [
        'huge.test.yaml',
        `assistant: x\nturns:\n${'  - user: hello there, this line makes the file large\n'.repeat(60_000)}`,
        /huge\.test\.yaml: 3(\.\d)? MB is too large for a scenario file \(at most 2 MB\)/,
      ],
    ];
    for (const [name, text] of cases) file(`invalid/${name}`, text);
    const before = sent();
    const r = await cli([join(dir, 'invalid')]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    for (const [, , re] of cases) assert.match(r.stderr, re);
    assert.equal(r.stdout, '');
    assert.deepEqual(sent(), before, 'sessions or chats were created');

    const one = await cli([join(dir, 'invalid/type.test.yaml'), good]);
    assert.equal(one.code, 2);
    assert.equal(one.stderr.trim().split('\n').length, 1);
    assert.deepEqual(sent(), before);
  });

  test('an unknown assistant exits 2 naming where it is written; nothing is sent', async () => {
    const f = file('unknown-assistant.test.yaml', `name: x\nturns:\n  - user: hi\nassistant: Nobody at all\n`);
    const before = sent();
    const r = await cli([f]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /unknown-assistant\.test\.yaml:4:12: no assistant has the id or the exact name "Nobody at all"/);
    assert.deepEqual(sent(), before);
  });

  test('usage errors exit 2: a bad --grep, a --grep that matches nothing, -o table, no files', async () => {
    const f = file('usage/returns.test.yaml', PASSING);
    assert.equal((await cli([f, '--grep', '(['])).code, 2);
    const none = await cli([f, '--grep', 'nothing like this']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no scenario name matches --grep/);
    const table = await cli([f, '-o', 'table']);
    assert.equal(table.code, 2);
    assert.match(table.stderr, /switchboard test writes text, json, junit, tap/);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    assert.equal((await cli([empty])).code, 2);
    assert.equal((await runCli(['assistants', 'list', '-o', 'junit'], { env: on.env })).code, 2);
  });

  test('a refused key exits 4, with nothing run', async () => {
    const f = file('auth/returns.test.yaml', PASSING);
    const before = sent();
    const r = await cli([f], { ...on.env, SWITCHBOARD_API_KEY: 'sk-wrong-key-0000' });
    assert.equal(r.code, 4, r.stdout + r.stderr);
    assert.match(r.stderr, /refused|401/);
    assert.doesNotMatch(r.stderr, /sk-wrong-key-0000/);
    assert.deepEqual(sent(), before);
  });

  test('--repeat reports a scenario whose reply varies as flaky ({{now}} in the first message)', async () => {
    const api = createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey });
    await api.createAssistant({ name: 'Speaking clock', firstMessage: 'The clock reads {{now}}.' });
    await api.close();
    const f = file(
      'clock.test.yaml',
      `scenarios:
  - name: even millisecond
    assistant: Speaking clock
    turns:
      - user: Hello
        expect: { matches: "[02468]Z\\\\.$" }
  - name: steady
    assistant: ${RILEY}
    turns: [{ user: What about sale items?, expect: { contains: [final sale] } }]
`,
    );
    const r = await cli([f, '--repeat', '20', '--concurrency', '2', '-o', 'json']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as {
      summary: { flaky: number; passed: number };
      scenarios: { name: string; status: string; variedTurns: number[]; runs: unknown[]; failure?: string }[];
    };
    const [clock, steady] = report.scenarios;
    assert.equal(clock.status, 'flaky');
    assert.equal(clock.runs.length, 20);
    assert.deepEqual(clock.variedTurns, [1]);
    assert.match(clock.failure!, /^flaky: passed \d+ of 20 samples \(\d+%\); turn 1: matches/);
    assert.equal(steady.status, 'passed');
    assert.deepEqual(steady.variedTurns, []);

    const text = await cli([f, '--repeat', '20', '--grep', 'even']);
    assert.match(text.stdout, /^~ even millisecond/m);
    assert.match(text.stdout, /flaky: passed \d+ of 20 samples \(\d+%\)/);
    assert.match(text.stdout, /the reply to turn 1 was not the same in every run/);
  });

  test('snapshots round-trip: --update-snapshots stores the replies beside the file, a later run compares them', async () => {
    const f = file(
      'snap/returns.test.yaml',
      `assistant: ${RILEY}\nturns:\n  - user: How long do I have to return an item?\n    expect: { snapshot: true }\n  - user: What about sale items?\n` +
        `    expect: { snapshot: true }\n`,
    );
    const snap = join(dir, 'snap/returns.snap.yaml');
    const first = await cli([f]);
    assert.equal(first.code, 1);
    assert.match(first.stdout, /snapshot \(none stored yet: run with --update-snapshots\)/);
    assert.ok(!existsSync(snap));

    const update = await cli([f, '--update-snapshots']);
    assert.equal(update.code, 0, update.stdout + update.stderr);
    assert.match(update.stdout, /snapshots written: .*returns\.snap\.yaml/);
    const stored = parse(readFileSync(snap, 'utf8')) as Record<string, { user: string; reply: string }[]>;
    assert.deepEqual(Object.keys(stored), ['returns']);
    assert.equal(stored.returns[1].user, 'What about sale items?');
    assert.match(stored.returns[1].reply, /final sale/);

    assert.equal((await cli([f])).code, 0);
    writeFileSync(snap, readFileSync(snap, 'utf8').replace('final sale', 'final-sale'));
    const changed = await cli([f]);
    assert.equal(changed.code, 1);
    assert.match(changed.stdout, /turn 2: What about sale items\?\n\s+expected snapshot \(stored: ".*final-sale/);
    assert.equal((await cli([f, '--update-snapshots'])).code, 0);
    assert.equal((await cli([f])).code, 0);
  });

  test('snapshot updates take a lock: two runs updating one file keep both; a held lock is waited for, a stale one taken over', async () => {
    const f = file(
      'locked/two.test.yaml',
      `scenarios:
  - { name: A, assistant: ${RILEY}, turns: [{ user: What about sale items?, expect: { snapshot: true } }] }
  - { name: B, assistant: ${RILEY}, turns: [{ user: Who are you?, expect: { snapshot: true } }] }
`,
    );
    const snap = join(dir, 'locked/two.snap.yaml');
    const [a, b] = await Promise.all([
      // Two processes at once: the snapshot file's lock is between processes.
      cli([f, '--update-snapshots', '--grep', '^A$'], on.env, { process: true }),
      cli([f, '--update-snapshots', '--grep', '^B$'], on.env, { process: true }),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(Object.keys(parse(readFileSync(snap, 'utf8')) as object).sort(), ['A', 'B']);

    rmSync(snap);
    const lock = `${snap}.lock`;
    writeFileSync(lock, '');
    const run = startCli(['test', f, '--update-snapshots'], { env: on.env });
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(!existsSync(snap), 'written while another run held the lock');
    unlinkSync(lock);
    assert.equal((await run.result).code, 0);
    assert.ok(existsSync(snap));
    assert.ok(!existsSync(lock), 'the lock is released');

    writeFileSync(lock, '');
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    assert.equal((await cli([f, '--update-snapshots'])).code, 0, 'a stale lock is taken over');
    assert.ok(!existsSync(lock));
  });

  test('-o tap and --bail', async () => {
    const f = file(
      'tap.test.yaml',
      `scenarios:
  - { name: "one # hash", assistant: ${RILEY}, turns: [{ user: What about sale items?, expect: { contains: [nope] } }] }
  - { name: two, assistant: ${RILEY}, turns: [{ user: What about sale items? }] }
`,
    );
    const r = await cli([f, '-o', 'tap', '--bail', '--concurrency', '1']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^TAP version 14\n1\.\.2\nnot ok 1 - one \\# hash\n {2}---\n/);
    assert.match(r.stdout, /^ok 2 - two # SKIP/m);
  });

  test('--schema prints the JSON Schema of scenario files: the same as assets/scenario.schema.json', async () => {
    const r = await cli(['--schema']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, readFileSync('assets/scenario.schema.json', 'utf8'), 'stale: run switchboard test --schema > assets/scenario.schema.json');
    const schema = JSON.parse(r.stdout) as { anyOf: { properties: Record<string, unknown>; additionalProperties: boolean; required: string[] }[] };
    assert.deepEqual(schema.anyOf[0].required.sort(), ['assistant']);
    assert.equal(schema.anyOf[0].additionalProperties, false);
  });
});
