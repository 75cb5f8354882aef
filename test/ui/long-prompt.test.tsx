// j/k on an assistant whose system prompt is 100,000 characters with no space: the detail is laid
// out (wrapText over the prompt) once per record and width, and wrapping is linear. A quadratic
// wrap took seconds a key; the bench holds the target on a terminal.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';

const sb = sandboxForFile();
let id = '';
before(async () => {
  await sb.started;
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    const prompt = 'p'.repeat(100_000);
    id = (
      await api.createAssistant({
        name: 'Long prompt',
        model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: prompt }] },
      } as never)
    ).record!.id;
  } finally {
    await api.close();
  }
});

test('j/k on the detail of an assistant with a 100,000-character unbroken prompt take well under a second a key', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'assistant', id } });
  try {
    await c.waitFor('System prompt');
    await c.waitFor('pppppppp');
    const keys = 20;
    const start = performance.now();
    for (let i = 0; i < keys; i++) await c.press(i % 2 ? 'k' : 'j');
    const perKey = (performance.now() - start) / keys;
    // A wall-clock bound loose enough for a loaded machine (where the harness's own turns are slow
    // whatever the prompt), yet far below the seconds a quadratic wrap took a key.
    assert.ok(perKey < 1000, `${perKey.toFixed(1)} ms a key`);
    await c.press('j', 'j', 'j');
    assert.equal(c.store.getState().views[`assistant:${id}`]?.scroll ?? 3, 3);
    console.log(`# j/k on a 100,000-character prompt: ${perKey.toFixed(1)} ms a key (ink-testing-library)`);
  } finally {
    await c.close();
  }
});
