// The console against a deliberately faulty service: the problem shows on the screen it
// happened on, keys still navigate, `r` retries (the service healed: rows appear), a failed
// create keeps the form filled in, and no frame ever shows the key.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { createClient } from '../../src/api/client.js';
import { maskKey } from '../../src/config/mask.js';
import { createConsoleStore, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { KEYS, renderApp } from '../support/ink.js';
import { sandboxForFile } from '../support/sandbox.js';
import { FAULT_MODES, startFaultyServer, type FaultMode, type FaultyServer } from '../support/faulty-server.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

/** What the error state must say for each fault (the client's own words). */
const SAYS: Record<Exclude<FaultMode, 'healthy'>, RegExp> = {
  refuse: /connection refused/,
  reset: /closed before the service answered|cut short/,
  slow: /did not start answering/,
  '500': /500/,
  '502': /502/,
  '503': /503/,
  'malformed-json': /malformed/i,
  html: /502/,
  'wrong-shape': /unexpected shape/,
};

const sb = sandboxForFile();

async function openOn(server: FaultyServer, initialRoute?: Route) {
  // Short timeouts so the slow mode fails fast; no retries, so each fault shows on the first try.
  const api = createClient({ baseUrl: server.url, apiKey: sb.apiKey, timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 }, retries: 0 });
  const target = { kind: 'remote' as const, profile: 'faulty', baseUrl: server.url, maskedKey: maskKey(sb.apiKey) };
  const store = createConsoleStore(api, target, { routes: ROUTES, initialRoute });
  const app = await renderApp(createElement(App, { store }));
  const frames: string[] = [];
  const frame = () => {
    const f = app.frame();
    frames.push(f);
    return f;
  };
  return {
    ...app,
    store,
    frame,
    async waitFor(text: string | RegExp) {
      const f = await app.waitFor(text);
      frames.push(f);
      return f;
    },
    allFrames: () => [...frames, ...app.frames].join('\n'),
    async close() {
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
    },
  };
}

describe('the console against a faulty service', { concurrency: true }, () => {
  for (const mode of FAULT_MODES) {
    test(`${mode}: the error shows where it happened, keys still work, r retries`, async () => {
      const server = await startFaultyServer({ mode, upstream: sb.url });
      const c = await openOn(server);
      try {
        const shown = await c.waitFor('Could not load assistants');
        assert.match(shown, SAYS[mode as Exclude<FaultMode, 'healthy'>], shown);
        assert.match(shown, /Press r to retry/);
        assert.match(shown, /Assistants/, 'still on the Assistants screen');
        // Keys still navigate: to Numbers (which fails the same way) and back.
        await c.press('2');
        await c.waitFor('Could not load phone numbers');
        await c.press('1');
        await c.waitFor('Could not load assistants');
        // The service heals; r retries on the screen the error was on.
        await server.setMode('healthy');
        await c.press('r');
        const healed = await c.waitFor(/NAME[\s\S]*STATUS/);
        const first = (await (await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } })).json()) as { assistants: { name: string }[] };
        assert.ok(healed.includes(first.assistants[0].name.slice(0, 12)), healed);
        assert.ok(!c.allFrames().includes(sb.apiKey), 'the key never shows');
        console.log(`console survived fault ${mode}`);
      } finally {
        await c.close();
        await server.close();
      }
    });
  }

  test('a failed create keeps the form filled in; saving again once the service heals creates it', async () => {
    const server = await startFaultyServer({ mode: '503', upstream: sb.url });
    const c = await openOn(server, { name: 'assistant-new' });
    try {
      await c.waitFor('New assistant');
      await c.type('Kept Through Failure');
      await c.press(KEYS.tab);
      await c.type('typed with care');
      await c.press(KEYS.ctrlS);
      const failed = await c.waitFor('Could not create the assistant');
      assert.match(failed, /503/);
      assert.ok(failed.includes('Kept Through Failure'), `the name is still in the form:\n${failed}`);
      assert.ok(failed.includes('typed with care'), 'and the description');
      assert.equal(c.store.getState().stack.at(-1)!.name, 'assistant-new', 'still on the form');
      await server.setMode('healthy');
      // The form takes keys again once its failed submit has settled (a render after the flash);
      // pressing again until it saves is safe: the form ignores keys while a save is under way.
      for (let i = 0; i < 100 && !c.frame().includes('Created assistant'); i++) {
        await c.press(KEYS.ctrlS);
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.waitFor('Created assistant Kept Through Failure');
      const listed = (await (await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } })).json()) as {
        assistants: { name: string; description?: string }[];
      };
      const made = listed.assistants.filter((a) => a.name === 'Kept Through Failure');
      assert.equal(made.length, 1, 'created once: the failed attempt left nothing behind');
      assert.equal(made[0].description, 'typed with care');
      assert.ok(!c.allFrames().includes(sb.apiKey));
    } finally {
      await c.close();
      await server.close();
    }
  });
});
