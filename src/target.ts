// The one way the console and the commands get an API: resolve the target from flags, env and
// config; for the sandbox, start it embedded on a loopback port with a fresh key and talk to it
// over real HTTP, exactly as to a hosted service.
import type { VoiceAgentApi } from './api/contract.js';
import type { RateLimitWait } from './api/http.js';
import { ConnectionStateFeed, type ConnectionListener, type ConnectionState } from './api/connection-state.js';
import { resolveTarget, type Target } from './config/config.js';
import type { Env } from './config/paths.js';
// Small (node:child_process only): loaded with this module so the fork needs no extra step.
import { spawnSandbox } from './sandbox/child.js';

export type { Target } from './config/config.js';

export interface Connection {
  api: VoiceAgentApi;
  target: Target;
  /** Closes the client and, for the sandbox, stops it. Safe to call twice. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  profile?: string;
  env?: Env;
  /** The target when the caller has resolved it already (profile and env are then not read again). */
  resolved?: Target;
  debug?: (line: string) => void;
  /** Told before each wait on a 429 (the console says so; see http.ts). */
  onRateLimited?: (wait: RateLimitWait) => void;
  /**
   * Where an embedded sandbox runs: in this process (commands: one short request, no second
   * process to start) or in a child process (the console: it starts in parallel with the UI, and
   * its memory and request handling stay off the console's heap and event loop).
   */
  sandboxIn?: 'process' | 'child';
  /**
   * Load the HTTP client only after this settles (the console passes its UI's loading, so its
   * first frame does not wait for the client's code; the request waits for both anyway).
   */
  loadClientAfter?: Promise<unknown>;
}

export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  const resolved = opts.resolved ?? resolveTarget({ profile: opts.profile, env: opts.env });
  if (resolved.kind === 'sandbox' && opts.sandboxIn === 'child') return connectToChild(resolved, opts);
  // Loaded here, not at the top: the console draws its first frames before connecting.
  await opts.loadClientAfter?.catch(() => undefined);
  const { createClient } = await import('./api/client.js');
  if (resolved.kind === 'remote') {
    const api = createClient({ baseUrl: resolved.baseUrl!, apiKey: resolved.apiKey!, debug: opts.debug, onRateLimited: opts.onRateLimited });
    return { api, target: resolved, close: once(() => api.close()) };
  }
  // Loaded only when needed: fastify and sqlite cost startup time a remote target never pays.
  const { startSandbox, generateApiKey } = await import('./sandbox/server.js');
  const sandbox = await startSandbox({ dataDir: resolved.sandboxDataDir!, apiKey: generateApiKey(), host: '127.0.0.1', port: 0, seed: true });
  const target: Target = { ...resolved, baseUrl: sandbox.url, apiKey: sandbox.apiKey };
  const api = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, debug: opts.debug, onRateLimited: opts.onRateLimited });
  return {
    api,
    target,
    close: once(async () => {
      await api.close();
      await sandbox.close();
    }),
  };
}

async function connectToChild(resolved: Target, opts: ConnectOptions): Promise<Connection> {
  // Forked at once, so the child loads fastify and SQLite while this process loads its UI and client.
  const starting = spawnSandbox({ dataDir: resolved.sandboxDataDir! });
  starting.catch(() => undefined); // said below, once awaited
  await opts.loadClientAfter?.catch(() => undefined);
  const { createClient } = await import('./api/client.js').catch(async (err: unknown) => {
    await (await starting.catch(() => undefined))?.close();
    throw err;
  });
  const sandbox = await starting;
  const api = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, debug: opts.debug, onRateLimited: opts.onRateLimited });
  return {
    api,
    target: { ...resolved, baseUrl: sandbox.url, apiKey: sandbox.apiKey },
    close: once(async () => {
      await api.close();
      await sandbox.close();
    }),
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

type Args<K extends keyof VoiceAgentApi> = VoiceAgentApi[K] extends (...a: infer A) => unknown ? A : never;

/**
 * The api while `connecting` settles, so the console's screens can ask for their data before the
 * service is reached: each call waits for the connection (or fails as it did). Its connection
 * state is 'connecting' until then and the client's transport's from then on ('offline' if the
 * connection could not be made).
 */
export class ApiOnceConnected implements VoiceAgentApi {
  readonly #ready: Promise<VoiceAgentApi>;
  readonly #state = new ConnectionStateFeed('connecting');
  #baseUrl = '';

  constructor(connecting: Promise<Connection>) {
    this.#ready = connecting.then(
      ({ api }) => {
        this.#baseUrl = api.baseUrl;
        this.#state.set(api.connectionState);
        api.onConnectionState((s) => this.#state.set(s));
        return api;
      },
      (err: unknown) => {
        this.#state.set('offline');
        throw err;
      },
    );
    this.#ready.catch(() => undefined); // each call that waits on it says the error
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }
  get connectionState(): ConnectionState {
    return this.#state.state;
  }
  onConnectionState(listener: ConnectionListener): () => void {
    return this.#state.subscribe(listener);
  }

  listCalls(...a: Args<'listCalls'>) {
    return this.#ready.then((api) => api.listCalls(...a));
  }
  callDetails(...a: Args<'callDetails'>) {
    return this.#ready.then((api) => api.callDetails(...a));
  }
  getCall(...a: Args<'getCall'>) {
    return this.#ready.then((api) => api.getCall(...a));
  }
  placeOutboundCall(...a: Args<'placeOutboundCall'>) {
    return this.#ready.then((api) => api.placeOutboundCall(...a));
  }
  createSession(...a: Args<'createSession'>) {
    return this.#ready.then((api) => api.createSession(...a));
  }
  getSession(...a: Args<'getSession'>) {
    return this.#ready.then((api) => api.getSession(...a));
  }
  sendChat(...a: Args<'sendChat'>) {
    return this.#ready.then((api) => api.sendChat(...a));
  }
  listAssistants(...a: Args<'listAssistants'>) {
    return this.#ready.then((api) => api.listAssistants(...a));
  }
  getAssistant(...a: Args<'getAssistant'>) {
    return this.#ready.then((api) => api.getAssistant(...a));
  }
  createAssistant(...a: Args<'createAssistant'>) {
    return this.#ready.then((api) => api.createAssistant(...a));
  }
  updateAssistant(...a: Args<'updateAssistant'>) {
    return this.#ready.then((api) => api.updateAssistant(...a));
  }
  listPhoneNumbers(...a: Args<'listPhoneNumbers'>) {
    return this.#ready.then((api) => api.listPhoneNumbers(...a));
  }
  linkNumber(...a: Args<'linkNumber'>) {
    return this.#ready.then((api) => api.linkNumber(...a));
  }
  listFiles(...a: Args<'listFiles'>) {
    return this.#ready.then((api) => api.listFiles(...a));
  }
  getFile(...a: Args<'getFile'>) {
    return this.#ready.then((api) => api.getFile(...a));
  }
  uploadFile(...a: Args<'uploadFile'>) {
    return this.#ready.then((api) => api.uploadFile(...a));
  }
  deleteFile(...a: Args<'deleteFile'>) {
    return this.#ready.then((api) => api.deleteFile(...a));
  }
  /** Closes the client once connected; the connection itself (and its sandbox) is closed by its owner. */
  close() {
    return this.#ready.then(
      (api) => api.close(),
      () => undefined,
    );
  }
}
