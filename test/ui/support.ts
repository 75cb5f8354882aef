// Shared setup for console component tests: a real sandbox, the real client, a fresh store.
import { createElement } from 'react';
import { startTestSandbox } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { renderApp } from '../support/ink.js';

export type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;

export async function openConsole(sb: Sandbox, opts: { apiKey?: string; initialRoute?: Route; pollMs?: number } = {}) {
  const api = createClient({ baseUrl: sb.url, apiKey: opts.apiKey ?? sb.apiKey });
  const store: ConsoleStore = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl: sb.url }, opts);
  const app = await renderApp(createElement(App, { store }));
  return {
    ...app,
    store,
    async close() {
      app.unmount();
      store.getState().actions.dispose();
      await api.close();
    },
  };
}

export { startTestSandbox };
