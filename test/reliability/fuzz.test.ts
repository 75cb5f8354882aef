// A seeded slice of the sandbox fuzz (npm run fuzz runs 10,000): every answer JSON with a 4xx
// (2xx for valid requests), never a 5xx; the sandbox process is still alive and answering after;
// its request log never holds the key.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { FUZZ_MAX_UPLOAD, knownIds, runFuzz } from './fuzz-cases.js';
import { removeDataDir, startChildSandbox, type ChildSandbox } from '../support/child-sandbox.js';

const SEED = 20261121;
const CASES = 300;

let sb: ChildSandbox;
setUpAndTearDown(
  async () => {
    sb = await startChildSandbox({ maxUploadBytes: FUZZ_MAX_UPLOAD, logger: true });
  },
  async () => {
    await sb.stop();
    removeDataDir(sb.dataDir);
  },
);

test(`${CASES} fuzzed requests (seed ${SEED}) over every endpoint: never a 5xx, the sandbox survives`, async () => {
  const report = await runFuzz({ host: sb.host, port: sb.port, ids: await knownIds(sb.url, sb.apiKey), seed: SEED, cases: CASES });
  console.log(`fuzz: ${report.cases} cases in ${Math.round(report.ms)} ms; by status ${JSON.stringify(report.byStatus)}`);
  assert.equal(report.cases, CASES);
  assert.deepEqual(report.failures, []);
  assert.ok(
    Object.keys(report.byStatus).some((s) => s.startsWith('2')),
    'valid cases reached the sandbox',
  );
  assert.ok(Object.keys(report.byKind).length >= 10, `many kinds of case: ${Object.keys(report.byKind).join(', ')}`);
  assert.ok(sb.alive(), 'the sandbox process is alive');
  const r = await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } });
  assert.equal(r.status, 200, 'and still answers');
  assert.ok(!sb.output().includes(sb.apiKey), 'the key never appears in the sandbox log');
  assert.match(sb.output(), /"statusCode":4\d\d/, 'the log did record the requests');
});
