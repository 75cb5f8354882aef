// A read-only console refuses the palette's writes as it refuses a write key: `:test` (it runs
// conversations) and `:ring` (it places a call) flash the one line, open nothing and send nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

test('under --read-only, :test and :ring are refused with the write line and nothing is sent', async () => {
  const sent: string[] = [];
  const recording = (api: VoiceAgentApi) =>
    new Proxy(api, {
      get: (t, p) => {
        const v = Reflect.get(t, p, t) as unknown;
        if (p === 'ringSandbox' || p === 'createSession' || p === 'sendChat') sent.push(p);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'assistants' }, target: { readOnly: true }, wrapApi: recording });
  try {
    await c.waitFor('NAME');
    for (const [line, name] of [
      ['test', 'test'],
      ['ring +14155550100', 'ring'],
    ]) {
      await c.press(':');
      await c.type(line);
      await c.press(KEYS.enter);
      await until(() => c.store.getState().flash?.kind === 'error', `:${name} refused`);
      assert.equal(c.store.getState().flash?.text, `Read-only: ":${name}" is a write and was refused; nothing was sent`);
      assert.deepEqual(
        c.store.getState().stack.map((r) => r.name),
        ['assistants'],
      );
      c.store.getState().actions.clearFlash();
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(sent, []);
  } finally {
    await c.close();
  }
});
