// With request logging on, the log shows requests but never the API key (right or wrong).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeDataDir, startChildSandbox } from '../support/child-sandbox.js';

test('request logs never contain the key', async () => {
  const child = await startChildSandbox({ logger: true, callPace: 10 });
  const { url, apiKey } = child;
  try {
    const wrong = `${apiKey.slice(0, -4)}beef`;
    assert.equal((await fetch(`${url}/assistants`, { headers: { 'x-api-key': apiKey } })).status, 200);
    assert.equal((await fetch(`${url}/assistants`, { headers: { 'x-api-key': wrong } })).status, 401);
    await fetch(`${url}/nope?x-api-key=${'q'}`, { headers: { 'x-api-key': apiKey } });
    await child.kill();
    const out = child.output();
    assert.match(out, /"url":"\/assistants"/, 'requests are logged');
    assert.ok(!out.includes(apiKey), 'the key is not in the log');
    assert.ok(!out.includes(wrong), 'a wrong key is not in the log either');
  } finally {
    await child.kill();
    removeDataDir(child.dataDir);
  }
});
