// Every test file that needs a sandbox gets it from test/support (sandbox.ts, child-sandbox.ts),
// never from a set-up of its own: no `startSandbox` from src/sandbox/server.js, no sandbox kept in
// a variable a `before` fills (`sb = await startTestSandbox(…)`: that is `sandboxForFile()`), no
// sandbox on a data dir the test makes (that is `startRestartableSandbox()`), except as listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST = import.meta.dirname;

/** Files allowed a rule, each with the reason (test/README.md lists them too). */
const ALLOWED: Record<string, { rule: string; why: string }> = {
  'sandbox/schema.test.ts': { rule: 'own data dir', why: "the sandbox's own start-up on a data dir of an older or newer schema, which the test writes" },
  'commands/sandbox.test.ts': { rule: 'own data dir', why: "a sandbox on the data dir the CLI's `sandbox seed` and `ring` filled" },
  'commands/parallel.test.ts': { rule: 'own data dir', why: "a sandbox on the CLI's own embedded data dir, racing the CLI's start" },
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'support' && dir === TEST ? [] : files(p);
    return /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

/** What in `text` starts a sandbox outside the helpers, by rule. */
function directStartUps(text: string): string[] {
  const found: string[] = [];
  if (/import\s*\{[^}]*\bstartSandbox\b[^}]*\}\s*from\s*['"][^'"]*src\/sandbox\/server\.js['"]/.test(text)) found.push('startSandbox');
  if (/^(?!\s*(?:const|let|var)\s).*[\w\]]\s*=\s*await\s+startTestSandbox\(/m.test(text)) found.push('a before-filled variable');
  if (/startTestSandbox\(\s*\{[^}]*\bdataDir\b/.test(text)) found.push('own data dir');
  return found;
}

test('the rules see each kind of direct start-up', () => {
  assert.deepEqual(directStartUps("import { generateApiKey, startSandbox } from '../../src/sandbox/server.js';"), ['startSandbox']);
  assert.deepEqual(directStartUps('before(async () => {\n  sb = await startTestSandbox();\n});'), ['a before-filled variable']);
  assert.deepEqual(directStartUps('before(async () => (sb = await startTestSandbox({ cors })));'), ['a before-filled variable']);
  assert.deepEqual(directStartUps('    on.sb = await startTestSandbox({ callPace: 1 });'), ['a before-filled variable']);
  assert.deepEqual(directStartUps('const again = await startTestSandbox({ dataDir, seed: false });'), ['own data dir']);
  assert.deepEqual(directStartUps('const sb = sandboxForFile();\nconst one = await startTestSandbox({ seed: false });'), []);
});

test('every test file that starts a sandbox does it through test/support', () => {
  const found: string[] = [];
  // This file's own samples are not start-ups.
  for (const file of files(TEST).filter((f) => f !== import.meta.filename)) {
    const name = relative(TEST, file);
    for (const rule of directStartUps(readFileSync(file, 'utf8'))) {
      const helpers = 'test/support has sandboxForFile, startTestSandbox, startRestartableSandbox, startChildSandbox';
      if (ALLOWED[name]?.rule !== rule) found.push(`${name}: ${rule} (${helpers})`);
    }
  }
  assert.deepEqual(found, []);
});

test('every allowed exception still needs its allowance', () => {
  const stale = Object.entries(ALLOWED)
    .filter(([name, { rule }]) => !directStartUps(readFileSync(join(TEST, name), 'utf8')).includes(rule))
    .map(([name]) => name);
  assert.deepEqual(stale, []);
});
