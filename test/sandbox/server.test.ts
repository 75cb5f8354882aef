import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox } from '../support/sandbox.js';
import { get } from './http.js';

test('a port in use is a plain error, and the data dir stays usable', async () => {
  const first = await startTestSandbox({ seed: false });
  try {
    const port = Number(new URL(first.url).port);
    await assert.rejects(startTestSandbox({ port }), /port \d+ is already in use; pick another with --port/);
    await assert.rejects(startTestSandbox({ apiKey: '' }), /needs an API key/);
    assert.equal((await get(first, '/assistants')).status, 200);
  } finally {
    await first.close();
  }
});

test('close is idempotent and a closed sandbox refuses connections', async () => {
  const sb = await startTestSandbox({ seed: false });
  await Promise.all([sb.close(), sb.close()]);
  await assert.rejects(fetch(`${sb.url}/assistants`));
});
