// Keys as bindings with handlers: the footer shows what the screen in front binds and enables, `?`
// shows that screen's keys first, `/` filters help, and a screen's own key (the chat's r) runs
// through its binding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';

const RETRY = 'r load the session again';

describe('Bindings', () => {
  const sb = sandboxForFile();

  test("the chat's r is in the footer only once loading the session failed, and runs through its binding", async () => {
    let asked = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const c = await openConsole(sb, {
      initialRoute: { name: 'chat-session', sessionId: 'no-such-session' },
      wrapApi: (api) => {
        const wrapped: VoiceAgentApi = Object.create(api);
        wrapped.getSession = async (id) => {
          asked++;
          await held;
          return api.getSession(id);
        };
        return wrapped;
      },
    });
    const footer = () => c.frame().trimEnd().split('\n').at(-1) ?? '';
    try {
      await c.waitFor('Loading session no-such-session');
      await until(() => asked > 0);
      assert.match(footer(), /Esc back/, footer());
      assert.doesNotMatch(footer(), /load the session again/, 'off while it loads');
      // r now is no command: nothing asks again.
      const first = asked;
      await c.press('r');
      assert.equal(asked, first);
      release();
      await until(() => footer().includes(RETRY));
      await c.press('r');
      await until(() => asked === first + 1);
    } finally {
      await c.close();
    }
  });

  test('? shows the keys of the screen it was pressed on first, then the rest; each screen its own', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      await c.press('?');
      const lines = (await c.waitFor('This screen: Calls')).split('\n').map((l) => l.trim());
      const mine = lines.findIndex((l) => l === 'This screen: Calls');
      const filters = lines.findIndex((l) => /^f +filters$/.test(l));
      assert.ok(mine >= 0 && filters > mine, `the call log's f is in its own section, first:\n${lines.join('\n')}`);
      assert.ok(!lines.includes('Everywhere') || lines.indexOf('Everywhere') > filters, lines.join('\n'));
      // The rest further down (help scrolls), where f is not listed again.
      await c.press(...Array<string>(12).fill('j'));
      const below = (await c.waitFor(/^\s*Everywhere$/m)).split('\n').map((l) => l.trim());
      assert.ok(!below.slice(below.indexOf('Everywhere')).some((l) => /^f +filters$/.test(l)), below.join('\n'));
      await c.press(KEYS.escape, '1');
      await c.waitFor('Assistants');
      // g: help keeps its scroll between openings.
      await c.press('?', 'g');
      const other = await c.waitFor('This screen: Assistants');
      assert.match(other, /This screen: Assistants\s+\S.*\n(.*\n)*?\s+n +new/);
      assert.doesNotMatch(other, /This screen: Calls/);
    } finally {
      await c.close();
    }
  });

  test('/ in help filters its rows as you type; Esc clears the filter, Esc again leaves help', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      await c.press('?');
      await c.waitFor('This screen: Calls');
      assert.match(c.frame(), /call out/);
      await c.press('/');
      await c.type('quit');
      await until(() => !c.frame().includes('call out'));
      const filtered = c.frame();
      assert.match(filtered, /q +quit/);
      assert.doesNotMatch(filtered, /filters|page down/, filtered);
      await c.type('zzz');
      await c.waitFor('No key matches "quitzzz"');
      await c.press(KEYS.escape);
      await c.waitFor('call out');
      assert.match(c.frame(), /This screen: Calls/);
      await c.press(KEYS.escape);
      await until(() => !c.frame().includes('This screen'));
      await c.waitFor('calls/day');
    } finally {
      await c.close();
    }
  });
});
