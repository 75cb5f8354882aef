// Shared setup for console component tests: a real sandbox and the real client, or the in-memory
// api (test/support/memory-api.ts); a fresh store.
import { createElement } from 'react';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '../support/cli.js';
import { startTestSandbox } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { createConsoleStore, type ConsoleStore, type ConsoleTarget, type Route } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { Form, type Field } from '../../src/ui/components/Form.js';
import { KeypressProvider } from '../../src/ui/hooks/keypress.js';
import { renderApp } from '../support/ink.js';
import type { MemoryApi } from '../support/memory-api.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

export type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;

/**
 * `cacheDir`: the console's cache (lists, call archive); a fresh temp dir, removed on close, when
 * not given. On a sandbox the archive's sync runs in a worker thread with the same key, as in the
 * console; on the memory api it runs in the process, through that api (the console's `--offline`
 * path to the same archive code). The memory api stays open after close: the file owns it.
 */
export async function openConsole(
  sb: Sandbox | MemoryApi,
  opts: {
    apiKey?: string;
    initialRoute?: Route;
    pollMs?: number;
    debugLog?: (line: string) => string | undefined;
    target?: Partial<ConsoleTarget>;
    cacheDir?: string;
    wrapApi?: (api: VoiceAgentApi) => VoiceAgentApi;
    /** The terminal's clipboard write (the copy keys); none: the console has no terminal to copy with. */
    copy?: (text: string) => boolean;
  } = {},
) {
  const memory = 'records' in sb ? sb : undefined;
  const baseUrl = 'records' in sb ? sb.baseUrl : sb.url;
  const apiKey = opts.apiKey ?? ('records' in sb ? '' : sb.apiKey);
  const client = 'records' in sb ? sb : createClient({ baseUrl, apiKey });
  // `wrapApi`: the console sees a service that answers some requests otherwise (the store's api).
  const api = opts.wrapApi ? opts.wrapApi(client) : client;
  const cacheDir = opts.cacheDir ?? mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
  const store: ConsoleStore = createConsoleStore(
    api,
    { kind: 'sandbox', profile: 'sandbox', baseUrl, cacheDir, ...opts.target },
    { routes: ROUTES, ...opts, syncWorker: memory ? undefined : async () => ({ baseUrl, apiKey }) },
  );
  const app = await renderApp(createElement(App, { store, copy: opts.copy }));
  return {
    ...app,
    store,
    api,
    cacheDir,
    async close() {
      app.unmount();
      store.getState().actions.dispose();
      if (!memory) await api.close();
      // A sync's worker stops within its grace after dispose (src/archive/worker.ts); until then it
      // may still write the archive's files, and the dir could not be removed.
      for (let waited = 0; store.getState().archiveSync.running && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      if (!opts.cacheDir) removeTree(cacheDir);
    },
  };
}

export { startTestSandbox };

/** A bare Form inside the key dispatcher (no app, no sandbox); `submitted()` is what its last Ctrl-S sent. */
export async function renderForm(fields: Field[], opts: { height?: number } = {}) {
  let got: Record<string, unknown> | undefined;
  const initial = Object.fromEntries(fields.map((f) => [f.key, '']));
  const form = createElement(Form, {
    title: 'T',
    width: 60,
    height: opts.height ?? 12,
    submitLabel: 'Go',
    initial,
    onCancel: () => {},
    onSubmit: (v: Record<string, unknown>) => void (got = v),
    fields,
  });
  const app = await renderApp(createElement(KeypressProvider, { onForceQuit: () => {}, children: form }));
  return { ...app, submitted: () => got };
}

/** The multi-line prompt and a one-line name, as in the create form. */
export const PROMPT_AND_NAME: Field[] = [
  { kind: 'text', key: 'p', label: 'Prompt', multiline: true },
  { kind: 'text', key: 'n', label: 'Name' },
];
