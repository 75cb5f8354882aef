// The one way the console and the commands get an API: resolve the target from flags, env and
// config; for the sandbox, start it embedded on a loopback port with a fresh key and talk to it
// over real HTTP, exactly as to a hosted service.
import type { VoiceAgentApi } from './api/contract.js';
import { forwardingTo } from './api/forward.js';
import type { ClientOptions } from './api/client.js';
import type { RateLimitWait } from './api/http.js';
import type { ServiceTraits } from './api/traits.js';
import { loadTraits, rememberTraits } from './config/traits.js';
import { ConnectionStateFeed, type ConnectionListener, type ConnectionState } from './api/connection-state.js';
import type { Target } from './config/resolve.js';
import type { Env } from './config/paths.js';
import { createConnection, type Socket } from 'node:net';
// Small (node:child_process only): loaded with this module so the fork needs no extra step.
import { spawnSandbox, type SandboxChild } from './sandbox/child.js';

export type { Target } from './config/resolve.js';

export interface Connection {
  api: VoiceAgentApi;
  target: Target;
  /** Closes the client and, for the sandbox, stops it. Safe to call twice. */
  close(): Promise<void>;
  /** An embedded sandbox in a child process is supervised: told when it stops and when it is back. */
  onSandbox?(listener: (e: SandboxEvent) => void): () => void;
  /** The api to use from now on, when a restarted sandbox could not have its old port. */
  onApiReplaced?(listener: (api: VoiceAgentApi) => void): () => void;
  /** The embedded sandbox's process id (tests kill it). */
  sandboxPid?(): number;
}

/** What the supervisor of an embedded sandbox saw. */
export type SandboxEvent =
  { kind: 'stopped'; why: string } | { kind: 'restarted'; ms: number; url: string } | { kind: 'restart-failed'; why: string; retryInMs: number };

/** How an exited child is described: "killed by SIGKILL" or "exit 1: <its last line>". */
function howItEnded(how: Awaited<SandboxChild['exited']>): string {
  return `${how.signal ? `killed by ${how.signal}` : `exit ${how.code}`}${how.lastLine ? `: ${how.lastLine}` : ''}`;
}

/** Restarts after a sandbox that lived less than this come later each time (a crash at start would loop). */
const QUICK_DEATH_MS = 5000;

export interface ConnectOptions {
  profile?: string;
  env?: Env;
  /** Refuse every write (--read-only); a profile may ask for it too. */
  readOnly?: boolean;
  /** The target when the caller has resolved it already (profile and env are then not read again). */
  resolved?: Target;
  debug?: (line: string) => void;
  /** Told of each record of a list skipped as unreadable (ClientOptions.onWarning). */
  onWarning?: (line: string) => void;
  /** Told before each wait on a 429 (the console says so; see http.ts). */
  onRateLimited?: (wait: RateLimitWait) => void;
  /**
   * Where an embedded sandbox runs: in this process; in a child process (the console: it starts in
   * parallel with the UI, and its memory and request handling stay off the console's heap and event
   * loop); or 'shared' (commands): one an earlier command left running on the data dir, else a new
   * one that outlives this process by a few idle seconds.
   */
  sandboxIn?: 'process' | 'child' | 'shared';
  /**
   * Load the HTTP client only after this settles (the console passes Ink's first frame, so no frame
   * waits for the client's code; the request waits for both anyway).
   */
  loadClientAfter?: Promise<unknown>;
}

/** Where what is learned about a target's service is kept: its profile and URL (the embedded sandbox's port changes every run). */
export interface TraitsKey {
  profile: string;
  url: string;
}

export function traitsKeyOf(target: Pick<Target, 'kind' | 'profile' | 'baseUrl'>): TraitsKey {
  return { profile: target.profile, url: target.kind === 'sandbox' ? 'embedded sandbox' : (target.baseUrl ?? '') };
}

/** A client's `traits` and `onLearned` for this key: what earlier clients learned, and keeping what this one learns. */
function traitsOptions(key: TraitsKey, env: Env = process.env): { traits: ServiceTraits; onLearned: (patch: Partial<ServiceTraits>) => void } {
  return { traits: loadTraits(key.profile, key.url, env), onLearned: (patch) => void rememberTraits(key.profile, key.url, patch, env) };
}

/** A client's options for `baseUrl` and `apiKey`, with this connection's own: debug, rate-limit reports, read-only, learned traits. */
function clientOptions(resolved: Target, opts: ConnectOptions, learned: ReturnType<typeof traitsOptions>, baseUrl: string, apiKey: string): ClientOptions {
  return { baseUrl, apiKey, debug: opts.debug, onWarning: opts.onWarning, onRateLimited: opts.onRateLimited, readOnly: resolved.readOnly, ...learned };
}

export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  // The config (and zod, which checks it) is loaded only here: the console resolves its target before its first frame.
  const resolved = opts.resolved ?? (await import('./config/config.js')).resolveTarget({ profile: opts.profile, env: opts.env, readOnly: opts.readOnly });
  if (resolved.kind === 'sandbox' && opts.sandboxIn === 'child') return connectToChild(resolved, opts);
  if (resolved.kind === 'sandbox' && opts.sandboxIn === 'shared') return connectShared(resolved, opts);
  // Loaded here, not at the top: the console draws its first frames before connecting.
  await opts.loadClientAfter?.catch(() => undefined);
  const { createClient } = await import('./api/client.js');
  const learned = traitsOptions(traitsKeyOf(resolved), opts.env);
  if (resolved.kind === 'remote') {
    const api = createClient(clientOptions(resolved, opts, learned, resolved.baseUrl!, resolved.apiKey!));
    return { api, target: resolved, close: once(() => api.close()) };
  }
  // Loaded only when needed: fastify and sqlite cost startup time a remote target never pays.
  const { startSandbox, generateApiKey } = await import('./sandbox/server.js');
  const sandbox = await startSandbox({ dataDir: resolved.sandboxDataDir!, apiKey: generateApiKey(), host: '127.0.0.1', port: 0, seed: true });
  const target: Target = { ...resolved, baseUrl: sandbox.url, apiKey: sandbox.apiKey };
  const api = createClient(clientOptions(resolved, opts, learned, sandbox.url, sandbox.apiKey));
  return {
    api,
    target,
    close: once(async () => {
      await api.close();
      await sandbox.close();
    }),
  };
}

/**
 * The embedded sandbox yields the CPU to the console's thread (drawing frames, reading keys): on a
 * 2-core machine a back-fill keeps the sandbox serialising pages, the sync's worker (nice 10,
 * src/archive/sync-worker.ts) writing them and the console drawing, three busy threads; a key must
 * not wait behind the other two. Between the console (0) and the sync's worker, so the service
 * still outruns its one client.
 */
export const SANDBOX_CHILD_NICE = 5;

/**
 * How long a command's sandbox waits, once no command holds a connection to it, before it stops: long enough for the
 * next command of a script or a shell session, short enough that nothing stays up for long.
 */
export const SHARED_SANDBOX_IDLE_MS = 3000;

/**
 * A connection held open to a shared sandbox while this process uses it: an idle sandbox stops only
 * once no connection is open, so a command that waits (on a confirmation, between `calls watch`
 * polls) finds it still there. Opened again if the server closes it; never keeps this process up.
 */
function holdOpen(url: string): { release(): void } {
  const { port, hostname } = new URL(url);
  let released = false;
  let socket: Socket | undefined;
  const open = () => {
    if (released) return;
    let connected = false;
    socket = createConnection({ port: Number(port), host: hostname }, () => (connected = true));
    socket.unref();
    socket.on('error', () => undefined);
    // Closed by the server: again at once; refused (the sandbox is gone): the requests will say so.
    socket.once('close', () => connected && setTimeout(open, 0).unref());
  };
  open();
  return {
    release: () => {
      released = true;
      socket?.destroy();
    },
  };
}

/** A command's sandbox: one found running on the data dir (checked before use), else one started for a few idle seconds. */
async function connectShared(resolved: Target, opts: ConnectOptions): Promise<Connection> {
  const dataDir = resolved.sandboxDataDir!;
  const client = import('./api/client.js');
  client.catch(() => undefined); // said below, once awaited
  const { findRunningSandbox } = await import('./sandbox/registry.js');
  const found = await findRunningSandbox(dataDir);
  // A sandbox found is used with its registered token; one started here, with its key.
  const sandbox = found ? { url: found.url, apiKey: found.token } : await spawnSandbox({ dataDir, idleMs: SHARED_SANDBOX_IDLE_MS });
  const { createClient } = await client;
  const api = createClient(clientOptions(resolved, opts, traitsOptions(traitsKeyOf(resolved), opts.env), sandbox.url, sandbox.apiKey));
  const started = 'close' in sandbox ? sandbox : undefined;
  const lease = holdOpen(sandbox.url);
  return {
    api,
    target: { ...resolved, baseUrl: sandbox.url, apiKey: sandbox.apiKey },
    // The sandbox stays for the next command; its idle time stops it.
    close: once(async () => {
      lease.release();
      await api.close();
      await started?.close();
    }),
  };
}

async function connectToChild(resolved: Target, opts: ConnectOptions): Promise<Connection> {
  // Forked at once, so the child loads fastify and SQLite while this process loads its UI and client.
  const starting = spawnSandbox({ dataDir: resolved.sandboxDataDir!, nice: SANDBOX_CHILD_NICE });
  starting.catch(() => undefined); // said below, once awaited
  await opts.loadClientAfter?.catch(() => undefined);
  const { createClient } = await import('./api/client.js').catch(async (err: unknown) => {
    await (await starting.catch(() => undefined))?.close();
    throw err;
  });
  const sandbox = await starting;
  const learned = traitsOptions(traitsKeyOf(resolved), opts.env);
  const client = (url: string, apiKey: string) => createClient(clientOptions(resolved, opts, learned, url, apiKey));
  let api = client(sandbox.url, sandbox.apiKey);
  let current = sandbox;
  let closed = false;
  const sandboxListeners = new Set<(e: SandboxEvent) => void>();
  const apiListeners = new Set<(api: VoiceAgentApi) => void>();
  const emit = (e: SandboxEvent) => sandboxListeners.forEach((l) => l(e));
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
  let quickDeaths = 0;

  // The child is supervised: if it dies (killed, out of memory, a crash), it is started again on
  // the same data dir, with the same key and port, so the client carries on; on another port if
  // that one was taken, and then the console is given a client for it.
  const supervise = (child: SandboxChild, since: number) => {
    void child.exited.then(async (how) => {
      if (closed || child !== current) return;
      const stoppedAt = Date.now();
      quickDeaths = stoppedAt - since < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      emit({ kind: 'stopped', why: howItEnded(how) });
      if (quickDeaths > 1) await sleep(Math.min(QUICK_DEATH_MS, 250 * 2 ** quickDeaths));
      for (let attempt = 0; !closed; attempt++) {
        try {
          const next = await spawnSandbox({
            dataDir: resolved.sandboxDataDir!,
            nice: SANDBOX_CHILD_NICE,
            reuse: { apiKey: child.apiKey, port: Number(new URL(child.url).port) },
          });
          if (closed) return void (await next.close());
          current = next;
          if (next.url !== child.url) {
            const old = api;
            api = client(next.url, next.apiKey);
            apiListeners.forEach((l) => l(api));
            void old.close();
          }
          emit({ kind: 'restarted', ms: Date.now() - stoppedAt, url: next.url });
          return supervise(next, Date.now());
        } catch (err) {
          const retryInMs = Math.min(QUICK_DEATH_MS, 250 * 2 ** attempt);
          emit({ kind: 'restart-failed', why: err instanceof Error ? err.message : String(err), retryInMs });
          await sleep(retryInMs);
        }
      }
    });
  };
  supervise(sandbox, Date.now());
  const subscribe = <T>(set: Set<T>, l: T) => (set.add(l), () => void set.delete(l));
  return {
    get api() {
      return api;
    },
    target: { ...resolved, baseUrl: sandbox.url, apiKey: sandbox.apiKey },
    close: once(async () => {
      closed = true;
      await api.close();
      await current.close();
    }),
    onSandbox: (l) => subscribe(sandboxListeners, l),
    onApiReplaced: (l) => subscribe(apiListeners, l),
    sandboxPid: () => current.pid,
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/**
 * The api while `connecting` settles, so the console's screens can ask for their data before the
 * service is reached: each call waits for the connection (or fails as it did). Its connection
 * state is 'connecting' until then and the client's transport's from then on ('offline' if the
 * connection could not be made).
 */
export class ApiOnceConnected extends forwardingTo<VoiceAgentApi, 'close'>() implements VoiceAgentApi {
  #ready: Promise<VoiceAgentApi>;
  readonly #state = new ConnectionStateFeed('connecting');
  #baseUrl = '';
  #unwatch: () => void = () => undefined;
  /** The embedded sandbox is down and being started again: the header says so, not "offline". */
  #restarting = false;

  #current: VoiceAgentApi | undefined;

  constructor(connecting: Promise<Connection>) {
    super();
    let current: VoiceAgentApi | undefined;
    const follow = (api: VoiceAgentApi) => {
      current = api;
      this.#current = api;
      this.#unwatch();
      this.#baseUrl = api.baseUrl;
      if (!this.#restarting) this.#state.set(api.connectionState);
      this.#unwatch = api.onConnectionState((s) => {
        if (!this.#restarting) this.#state.set(s);
      });
    };
    this.#ready = connecting.then(
      (conn) => {
        follow(conn.api);
        conn.onApiReplaced?.((api) => {
          follow(api);
          this.#ready = Promise.resolve(api);
        });
        conn.onSandbox?.((e) => {
          if (e.kind === 'stopped') {
            this.#restarting = true;
            this.#state.set('restarting');
          } else if (e.kind === 'restarted') {
            this.#restarting = false;
            // What its client last saw (the console asks again at once, see the store, and a
            // failure there says offline).
            this.#state.set(current?.connectionState === 'offline' ? 'connecting' : (current?.connectionState ?? 'connecting'));
          }
        });
        return conn.api;
      },
      (err: unknown) => {
        this.#state.set('offline');
        throw err;
      },
    );
    this.#ready.catch(() => undefined); // each call that waits on it says the error
  }

  /** Where every request (each method of VoiceAgentApi answering with a promise, but close) goes: forwardingTo. */
  protected connected(): Promise<VoiceAgentApi> {
    return this.#ready;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }
  /** The connected client's (nothing known before it connects). */
  get adapted(): VoiceAgentApi['adapted'] {
    return this.#current?.adapted;
  }
  /** The connected client's (nothing known before it connects). */
  get traits(): Readonly<ServiceTraits> {
    return this.#current?.traits ?? {};
  }
  learn(patch: Partial<ServiceTraits>): void {
    if (this.#current) this.#current.learn(patch);
    else
      void this.#ready.then(
        (api) => api.learn(patch),
        () => undefined,
      );
  }
  get connectionState(): ConnectionState {
    return this.#state.state;
  }
  onConnectionState(listener: ConnectionListener): () => void {
    return this.#state.subscribe(listener);
  }

  /** Closes the client once connected; the connection itself (and its sandbox) is closed by its owner. */
  close() {
    return this.#ready.then(
      (api) => api.close(),
      () => undefined,
    );
  }
}
