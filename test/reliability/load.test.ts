// A short `npm run load` (10 clients, 3 s, and at least one operation of each kind per client on a
// slow machine): no errors, and every acknowledged write reads back.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { countAcked, percentile, runLoad, verifyAcked } from './load-run.js';
import { removeDataDir, startChildSandbox, type ChildSandbox } from '../support/child-sandbox.js';

let sb: ChildSandbox;
setUpAndTearDown(
  async () => {
    sb = await startChildSandbox();
  },
  async () => {
    await sb.stop();
    removeDataDir(sb.dataDir);
  },
);

test('10 clients for 3 s: 0 errors, every acknowledged write readable', async () => {
  const r = await runLoad({ url: sb.url, apiKey: sb.apiKey, clients: 10, seconds: 3, minOps: 10 });
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  console.log(
    `load: ${r.requests} requests, ${Math.round(r.requests / r.seconds)} req/s, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, ${countAcked(r.acked)} writes`,
  );
  assert.deepEqual(r.errorSamples, []);
  assert.equal(r.errors, 0);
  assert.ok(r.acked.assistants.size > 0 && r.acked.files.size > 0 && r.acked.calls.size > 0, 'every kind of write happened');
  const v = await verifyAcked(sb.url, sb.apiKey, r.acked);
  assert.deepEqual(v.lost, []);
  assert.equal(v.checked, countAcked(r.acked), 'every acknowledged write was checked');
  assert.ok(sb.alive());
});
