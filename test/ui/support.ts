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
import { createConsoleStore, type ConsoleStore, type ConsoleTarget, type ProfileSwitch, type Route } from '../../src/store/index.js';
import { App, LiveApp } from '../../src/ui/app.js';
import { LiveConsole } from '../../src/ui/live-console.js';
import { connect } from '../../src/target.js';
import { serviceOf } from '../../src/config/config.js';
import { maskKey } from '../../src/config/mask.js';
import type { Env } from '../../src/config/paths.js';
import { Form, type Field } from '../../src/ui/components/Form.js';
import { KeypressProvider } from '../../src/ui/hooks/keypress.js';
import { renderApp, type LookOptions } from '../support/ink.js';
import type { MemoryApi } from '../support/memory-api.js';
import { until } from '../support/wait.js';
import { walkCallLog } from '../../src/api/pager.js';
import type { Call } from '../../src/api/schemas.js';
import { routeKey, viewOf } from '../../src/store/index.js';
import { ROUTES, type RouteRegistry } from '../../src/ui/screens/routes.js';
import type { Keymap } from '../../src/ui/keymap.js';

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
    /**
     * The console switches between the profiles of the config `env` points at (ui/live-console.ts):
     * each switch connects to the profile (target.ts) and makes a store for it like this one.
     */
    profiles?: { env: Env };
    /** The keys the console reads (a keys file's); the routes' own when not given. */
    keymap?: Keymap;
    /** The routes (a test's own route among them); the console's when not given. */
    registry?: RouteRegistry;
  } & LookOptions = {},
) {
  const memory = 'records' in sb ? sb : undefined;
  const baseUrl = 'records' in sb ? sb.baseUrl : sb.url;
  const apiKey = opts.apiKey ?? ('records' in sb ? '' : sb.apiKey);
  const client = 'records' in sb ? sb : createClient({ baseUrl, apiKey });
  // `wrapApi`: the console sees a service that answers some requests otherwise (the store's api).
  const api = opts.wrapApi ? opts.wrapApi(client) : client;
  const cacheDir = opts.cacheDir ?? mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
  const stores: ConsoleStore[] = [];
  const make = (api: VoiceAgentApi, target: ConsoleTarget, syncTo: { baseUrl: string; apiKey: string } | undefined, profiles?: ProfileSwitch, home?: Route) => {
    const initialRoute = home ?? opts.initialRoute;
    const store = createConsoleStore(api, target, {
      ...opts,
      routes: opts.registry?.table ?? ROUTES,
      initialRoute,
      profiles,
      syncWorker: syncTo && (async () => syncTo),
    });
    stores.push(store);
    return store;
  };
  const first = (profiles?: ProfileSwitch) =>
    make(api, { kind: 'sandbox', profile: 'sandbox', baseUrl, cacheDir, ...opts.target }, memory ? undefined : { baseUrl, apiKey }, profiles);
  const live = opts.profiles
    ? new LiveConsole(
        {
          env: opts.profiles.env,
          async open(resolved, profiles) {
            const c = await connect({ resolved, env: opts.profiles?.env });
            const target: ConsoleTarget = {
              kind: resolved.kind,
              profile: resolved.profile,
              baseUrl: c.api.baseUrl,
              maskedKey: maskKey(c.target.apiKey ?? ''),
              cacheDir,
              service: serviceOf(resolved),
              ...(resolved.readOnly ? { readOnly: true } : {}),
            };
            const store = make(c.api, target, { baseUrl: c.api.baseUrl, apiKey: c.target.apiKey ?? '' }, profiles, { name: 'assistants' });
            return { store, disconnect: c.close };
          },
        },
        (profiles) => ({ store: first(profiles), disconnect: async () => (memory ? undefined : api.close()) }),
      )
    : undefined;
  const store = live?.store ?? first();
  const app = await renderApp(
    live
      ? createElement(LiveApp, { live, copy: opts.copy, keymap: opts.keymap, routes: opts.registry })
      : createElement(App, { store, copy: opts.copy, keymap: opts.keymap, routes: opts.registry }),
    opts,
  );
  return {
    ...app,
    /** The store of the profile the console is on (a switch replaces it). */
    get store(): ConsoleStore {
      return live?.store ?? store;
    },
    api,
    cacheDir,
    async close() {
      app.unmount();
      if (live) await live.close();
      else {
        store.getState().actions.dispose();
        await store.getState().actions.flushCachedLists();
        if (!memory) await api.close();
      }
      // A sync's worker stops within its grace after dispose (src/archive/worker.ts); until then it
      // may still write the archive's files, and the dir could not be removed.
      for (const s of stores) for (let waited = 0; s.getState().archiveSync.running && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      if (!opts.cacheDir) removeTree(cacheDir);
    },
  };
}

export { startTestSandbox };

/** A bare Form inside the key dispatcher (no app, no sandbox); `submitted()` is what its last Ctrl-S sent. */
/** A Form alone; `onSubmit` (say, a save that has not answered yet) runs after the values are kept for `submitted()`. */
export async function renderForm(fields: Field[], opts: { height?: number; onSubmit?: () => Promise<void> } = {}) {
  let got: Record<string, unknown> | undefined;
  const initial = Object.fromEntries(fields.map((f) => [f.key, '']));
  const form = createElement(Form, {
    title: 'T',
    width: 60,
    height: opts.height ?? 12,
    submitLabel: 'Go',
    initial,
    onCancel: () => {},
    onSubmit: (v: Record<string, unknown>) => {
      got = v;
      return opts.onSubmit?.();
    },
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

/**
 * The console on the call log once its archive holds the whole log: every call of the log (read
 * with the project's pager), the log's view, and the call under the cursor. Closed again if the
 * log never fills; otherwise the caller closes it.
 */
export async function openArchivedCallLog(sb: MemoryApi) {
  const all: Call[] = [];
  for await (const page of walkCallLog(sb, {}, { pageSize: 1000 })) all.push(...page);
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor(/\bDUR\b/);
    await until(() => c.store.getState().callLog.total === all.length && !c.store.getState().archiveSync.running, 'the archive holds the log');
  } catch (err) {
    await c.close();
    throw err;
  }
  const view = () => viewOf(c.store.getState(), routeKey({ name: 'calls' }));
  const selected = () => {
    const log = c.store.getState().callLog;
    return log.calls[view().cursor - log.from];
  };
  return { c, all, view, selected };
}
