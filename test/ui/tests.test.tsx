// Conversation tests in the console: a chat saved as a scenario file with one key
// (then passed by the built `switchboard test`), and `:test` showing the results view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { openConsole } from './support.js';
import { KEYS } from '../support/ink.js';
import { runCli, tempHome } from '../support/cli.js';
import { createClient } from '../../src/api/client.js';
import type { Route } from '../../src/store/index.js';
import { DEFAULT_ROUTES } from '../../src/ui/screens/routes.js';
import { completePalette, parsePalette } from '../../src/ui/components/Palette.js';
import { sandboxForFile } from '../support/sandbox.js';

const CTRL_T = '\x14';

describe('conversation tests in the console', () => {
  const sb = sandboxForFile();
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-console-tests-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** The console on the real client, with its sessions index and tests directory in the temp dir. */
  const open = (initialRoute?: Route) => openConsole(sb, { initialRoute, target: { dataDir: join(dir, 'data'), testsDir: join(dir, 'tests') } });

  test(':test [path] in the palette (a path may hold spaces; Tab completes with a space)', () => {
    assert.deepEqual(parsePalette(':test'), { route: { name: 'tests' } });
    assert.deepEqual(parsePalette(':test my tests/a.test.yaml'), { route: { name: 'tests', path: 'my tests/a.test.yaml' } });
    assert.deepEqual(parsePalette(':test my tests --samples 3'), { route: { name: 'tests', path: 'my tests', samples: 3 } });
    assert.deepEqual(parsePalette(':test --samples=5'), { route: { name: 'tests', samples: 5 } });
    assert.equal(completePalette('te'), 'test ');
  });

  test('the save key is in the keymap (so footer and help show it)', () => {
    const save = DEFAULT_ROUTES.keymap.binding('saveAsTest')!;
    assert.deepEqual(save.keys, [{ char: 't', ctrl: true }]);
    assert.ok(save.contexts.includes('chat'));
  });

  test('Ctrl-T saves the conversation as tests/<name>.test.yaml with snapshots; switchboard test passes it; :test shows it', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const riley = (await api.listAssistants()).find((a) => a.name === 'Riley — Northwind support')!;
    await api.close();
    const c = await open({ name: 'chat', assistantId: riley.id });
    try {
      await c.waitFor('type a message');
      await c.type('How long do I have to return an item?');
      await c.press(KEYS.enter);
      await c.waitFor('Items can be returned within 30 days');
      await c.type('What about sale items?');
      await c.press(KEYS.enter);
      await c.waitFor('marked "final sale"');
      await c.press(CTRL_T);
      await c.waitFor('Saved as');
      const flash = c.store.getState().flash?.text ?? '';
      assert.ok(flash.startsWith(`Saved as a test; run it: switchboard test ${join(dir, 'tests')}/riley-northwind-support-`), flash);
      assert.match(flash, /\.test\.yaml \(or :test\)$/);

      const files = readdirSync(join(dir, 'tests')).sort();
      assert.equal(files.length, 2, files.join(', '));
      const [snapFile, testFile] = files;
      assert.match(testFile, /\.test\.yaml$/);
      assert.match(snapFile, /\.snap\.yaml$/);
      const scenario = parse(readFileSync(join(dir, 'tests', testFile), 'utf8')) as { assistant: string; turns: { user: string; expect: unknown }[] };
      assert.equal(scenario.assistant, 'Riley — Northwind support');
      assert.deepEqual(scenario.turns, [
        { user: 'How long do I have to return an item?', expect: { snapshot: true } },
        { user: 'What about sale items?', expect: { snapshot: true } },
      ]);

      // The built CLI passes the saved file as it is, against the same service.
      const home = tempHome();
      try {
        const r = await runCli(['test', join(dir, 'tests')], { env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey } });
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /^✓ Riley — Northwind support/m);
      } finally {
        home.cleanup();
      }

      // :test runs the tests directory in the results view; Enter shows the turns; r runs again.
      await c.press(KEYS.escape);
      await c.press(':');
      await c.type('test');
      await c.press(KEYS.enter);
      const results = await c.waitFor(/✓ passed.*Riley — Northwind support/);
      assert.match(results, /1 passed · 0 failed/);
      assert.match(results, /r run again/);
      await c.press(KEYS.enter);
      const detail = await c.waitFor('Turn 2');
      assert.match(detail, /You\n\s+How long do I have to return an item\?/);
      assert.match(detail, /✓ snapshot/);
      assert.match(detail, /Reply\n\s+Here's what I found in returns-policy\.md/);
      await c.press(KEYS.escape);
      await c.waitFor('1 passed');
      const before = c.store.getState().tests.run;
      await c.press('r');
      for (let i = 0; i < 500 && !(c.store.getState().tests.run === before + 1 && c.store.getState().tests.status === 'done'); i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(c.store.getState().tests.run, before + 1);
      await c.waitFor('✓ passed');
      assert.match(c.frame(), /✓ passed/);
    } finally {
      await c.close();
    }
  });

  test('T on a call makes a test of it; switchboard test passes it against the same service', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const calls = await api.listCalls({ limit: 50 });
    await api.close();
    const call = calls.find((x) => x.status === 'ended' && x.endedReason !== 'customer-did-not-answer' && x.endedReason !== 'customer-busy')!;
    const testsDir = join(dir, 'tests');
    const before = new Set(existsSync(testsDir) ? readdirSync(testsDir) : []);
    const c = await open({ name: 'call', id: call.id });
    try {
      await c.waitFor('Transcript');
      await c.press('T');
      await c.waitFor('Saved the call as a test');
      const made = readdirSync(testsDir).filter((f) => !before.has(f) && f.endsWith('.test.yaml'));
      assert.equal(made.length, 1, made.join(', '));
      assert.match(readFileSync(join(testsDir, made[0]), 'utf8'), new RegExp(`Made from call ${call.id}`));
      const home = tempHome();
      try {
        const r = await runCli(['test', join(testsDir, made[0])], { env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey } });
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /1 passed, 0 failed/);
      } finally {
        home.cleanup();
      }
    } finally {
      await c.close();
    }
  });

  test('a chat whose variables were set part-way through is saved as it happened: each turn its own variables; it passes its first run', async () => {
    const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const riley = (await api.listAssistants()).find((a) => a.name === 'Riley — Northwind support')!;
    await api.close();
    const testsDir = join(dir, 'vars-tests');
    const c = await openConsole(sb, {
      initialRoute: { name: 'chat', assistantId: riley.id },
      target: { dataDir: join(dir, 'vars-data'), testsDir },
    });
    try {
      await c.waitFor('type a message');
      await c.type('Who are you?');
      await c.press(KEYS.enter);
      await c.waitFor('support agent for {{company}}');
      const id = Object.keys(c.store.getState().chat.conversations)[0];
      c.store.getState().actions.setVariables(id, { company: 'Northwind' });
      await c.type('Who are you?');
      await c.press(KEYS.enter);
      await c.waitFor('support agent for Northwind');
      await c.press(CTRL_T);
      await c.waitFor('Saved as');
      const testFile = readdirSync(testsDir).find((f) => f.endsWith('.test.yaml'))!;
      const scenario = parse(readFileSync(join(testsDir, testFile), 'utf8')) as Record<string, unknown>;
      assert.equal(scenario.variables, undefined, 'not one set for every turn: the first turn had none');
      assert.deepEqual(scenario.turns, [
        { user: 'Who are you?', expect: { snapshot: true } },
        { user: 'Who are you?', variables: { company: 'Northwind' }, expect: { snapshot: true } },
      ]);
      const home = tempHome();
      try {
        const r = await runCli(['test', testsDir], { env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey } });
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /1 passed, 0 failed/);
      } finally {
        home.cleanup();
      }
    } finally {
      await c.close();
    }
  });

  test(':test shows a simulated conversation as a transcript, and each judge with its score and reason', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const d = join(dir, 'simulated');
    mkdirSync(d, { recursive: true });
    writeFileSync(
      join(d, 'sim.test.yaml'),
      'name: Dana returns\nassistant: Riley — Northwind support\nsimulate:\n  persona: Ask how long you have to return an item.\n  maxTurns: 1\n' +
        'judge:\n  - rubric: quotes "30 days"\n',
    );
    const c = await open();
    try {
      await c.waitFor('NAME');
      await c.press(':');
      await c.type(`test ${d}`);
      await c.press(KEYS.enter);
      await c.waitFor(/✓ passed.*Dana returns/);
      await c.press(KEYS.enter);
      const detail = await c.waitFor('Judge ✓');
      assert.match(detail, /Caller \(simulated\)\n\s+I'd like to know how long you have to return an item\./);
      assert.match(detail, /Reply\n\s+Here's what I found in returns-policy\.md/);
      assert.match(detail, /Ended: maxTurns \(1\) reached/);
      assert.match(detail, /Judge ✓ quotes "30 days"\n\s+score 1\.00 \(threshold 0\.7\): the assistant's replies contain 1 of 1/);
      // With samples, each sample and its scores.
      await c.press(KEYS.escape, ':');
      await c.type(`test ${d} --samples 2`);
      await c.press(KEYS.enter);
      await c.waitFor(/✓ passed.*Dana returns/);
      await c.press(KEYS.enter);
      const sampled = await c.waitFor('Samples: 2 of 2 passed');
      assert.match(sampled, /1\. ✓ scores 1\.00\n\s+2\. ✓ scores 1\.00/);
    } finally {
      await c.close();
    }
  });

  test("a result's line at 80 columns wraps its long file path whole and still names the assistant", async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const d = join(dir, 'a-rather-long-directory-name-for-tests', 'and-one-more-level');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'riley-northwind-support-2026-12-02-04-31.test.yaml'), 'name: Hello\nassistant: Riley — Northwind support\nturns:\n  - user: Hi\n');
    const c = await open();
    try {
      c.store.getState().actions.resize(80, 24);
      await c.waitFor('NAME');
      await c.press(':');
      await c.type(`test ${d}`);
      await c.press(KEYS.enter);
      await c.waitFor(/passed.*Hello/);
      await c.press(KEYS.enter);
      await c.waitFor(/Turn 1/);
      const flat = c.frame().replace(/\s+/g, '');
      assert.ok(flat.includes('riley-northwind-support-2026-12-02-04-31.test.yaml'), `the whole path:\n${c.frame()}`);
      assert.match(c.frame(), /assistant\s+Riley — Northwind support/);
    } finally {
      await c.close();
    }
  });

  test(':test with no tests directory says how to make one', async () => {
    const c = await openConsole(sb, { target: { dataDir: join(dir, 'data'), testsDir: join(dir, 'none') } });
    try {
      await c.waitFor('NAME');
      await c.press(':');
      await c.type('test');
      await c.press(KEYS.enter);
      await c.waitFor('Nothing was run');
      assert.match(c.store.getState().tests.errors[0], /^no tests yet: .*none does not exist; save a chat conversation as a test/);
    } finally {
      await c.close();
    }
  });

  test(':test on a file that fails shows ✗ with why; an invalid file shows where, and nothing runs', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const d = join(dir, 'other');
    mkdirSync(d, { recursive: true });
    writeFileSync(
      join(d, 'f.test.yaml'),
      'assistant: Riley — Northwind support\nturns:\n  - user: What about sale items?\n    expect: { contains: ["\\e[31mred"] }\n',
    );
    const c = await open();
    try {
      await c.waitFor('NAME');
      await c.press(':');
      await c.type(`test ${d}`);
      await c.press(KEYS.enter);
      const f = await c.waitFor('✗ failed');
      assert.match(f, /turn 1: contains/);
      assert.ok(!f.includes('\x1b[31mred'), 'the expectation text is escaped');
      writeFileSync(join(d, 'g.test.yaml'), 'assistant: x\nturns:\n  - usr: hi\n');
      await c.press('r');
      const bad = await c.waitFor('Nothing was run');
      assert.match(bad, /g\.test\.yaml:3:5: unknown key "usr"/);
    } finally {
      await c.close();
    }
  });
});
