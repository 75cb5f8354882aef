// A read-only console: the header says so, the footer leaves the write keys out, and each write
// key is refused with one flash line, opens nothing and calls no write of the api.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';
import { KEYS } from '../support/ink.js';
import type { Route } from '../../src/store/index.js';

const WRITE_METHODS = new Set([
  'placeOutboundCall',
  'createSession',
  'sendChat',
  'createAssistant',
  'updateAssistant',
  'linkNumber',
  'uploadFile',
  'deleteFile',
]);

describe('the console with --read-only', () => {
  const sb = sandboxForFile();
  const writes: string[] = [];
  const recording = (api: VoiceAgentApi) =>
    new Proxy(api, {
      get: (t, p) => {
        const v = Reflect.get(t, p, t) as unknown;
        if (typeof p === 'string' && WRITE_METHODS.has(p)) writes.push(p);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });

  const cases: [Route, string, string[]][] = [
    [{ name: 'assistants' }, 'Assistants', ['n', 'e', 'E', 'K', 'c', 'o', 'D']],
    [{ name: 'numbers' }, 'Numbers', ['l']],
    [{ name: 'calls' }, 'calls/day', ['o']],
    [{ name: 'files' }, 'Files', ['u', 'd']],
  ];
  for (const [route, ready, keys] of cases) {
    test(`${route.name}: ${keys.join(' ')} each refused with one line, nothing opened or sent`, async () => {
      writes.length = 0;
      const c = await openConsole(sb, { initialRoute: route, target: { readOnly: true }, wrapApi: recording });
      try {
        await c.waitFor(ready);
        await c.waitFor(/READ-ONLY/);
        // Wait for rows, so a key that needs a selected row is bound.
        await new Promise((r) => setTimeout(r, 300));
        for (const key of keys) {
          await c.press(key);
          const flash = c.store.getState().flash;
          assert.match(flash?.text ?? '', /^Read-only: ".*" is a write and was refused; nothing was sent$/, `key ${key}`);
          assert.equal(c.store.getState().stack.length, 1, `key ${key} opened nothing`);
          assert.equal(c.store.getState().dialog, null, `key ${key} asked nothing`);
          await c.press(KEYS.escape);
        }
        assert.deepEqual(writes, []);
        const footer = c.frame().split('\n').at(-1) ?? '';
        assert.doesNotMatch(footer, /\bnew\b|upload|link assistant|call out/, footer);
      } finally {
        await c.close();
      }
    });
  }

  test('without read-only the same key opens its form (the keys above are live)', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('Assistants');
      assert.doesNotMatch(c.frame(), /READ-ONLY/);
      await c.press('n');
      assert.equal(c.store.getState().stack.length, 2);
    } finally {
      await c.close();
    }
  });
});
