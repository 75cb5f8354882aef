// The embedded sandbox as a child process (the console's default). Two halves:
//
// - `spawnSandbox()` runs in the console: it forks this same program with a marker, gets the
//   sandbox's URL and key back over the IPC channel, and stops it when asked. It imports nothing
//   heavy, so the console can start it first thing and load its UI while the child loads fastify
//   and SQLite on the other core.
// - `runSandboxChild()` runs in the child: it starts the sandbox and serves until the console
//   disconnects (quits, crashes or is killed: the channel closes in every case).
//
// A separate process keeps the sandbox's memory and request handling off the console's heap and
// event loop. The key is made in the child and passed back over the channel, never through argv
// or the environment.
import type { ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Socket } from 'node:net';

/** Set in the child's environment (with an IPC channel present) to run the sandbox instead of the CLI. */
const CHILD_MARKER = 'SWITCHBOARD_SANDBOX_CHILD';
const DATA_DIR_VAR = 'SWITCHBOARD_SANDBOX_CHILD_DATA_DIR';

type FromChild = { ready: { url: string; apiKey: string } } | { error: string } | { awaiting: true };
/** A restart's wishes, sent over the channel (the key never goes through argv or the environment). */
type ToChild = { start: { apiKey: string; port: number } };
const AWAIT_VAR = 'SWITCHBOARD_SANDBOX_CHILD_AWAIT';
/** A command's sandbox: outlives the command, serves whoever finds it registered, stops after this many idle ms. */
const IDLE_VAR = 'SWITCHBOARD_SANDBOX_CHILD_IDLE_MS';
/** Demo traffic for the console's sandbox, as `switchboard sandbox --ring-every` gives it to a standalone one. */
export const RING_EVERY_VAR = 'SWITCHBOARD_SANDBOX_RING_EVERY';
export const MAX_RING_EVERY = 24 * 60 * 60;

export interface SandboxChild {
  url: string;
  apiKey: string;
  pid: number;
  /** Stops the sandbox (it closes its database) and waits for the process to end. Safe to call twice. */
  close(): Promise<void>;
  /** Settles when the process ends, however it ends: how, and the last line it wrote to stderr. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; lastLine?: string }>;
}

export interface SpawnOptions {
  dataDir: string;
  /** The program to fork (default: this one, `process.argv[1]`, with the same node flags). */
  entry?: string;
  execArgv?: string[];
  /** How long a stopping child may take before it is killed (ms). */
  stopTimeoutMs?: number;
  /** A restart: the same key, and this port if it is free (else another). */
  reuse?: { apiKey: string; port: number };
  /** The child's nice value (a lower CPU priority than the console's), where the system allows it. */
  nice?: number;
  /**
   * A command's sandbox: detached, it outlives this process and stops by itself after this many ms
   * with no connection open; `close()` then only lets go of it.
   */
  idleMs?: number;
}

const STDERR_KEPT = 4096;

export function spawnSandbox(opts: SpawnOptions): Promise<SandboxChild> {
  const entry = opts.entry ?? process.argv[1];
  if (!entry) return Promise.reject(new Error('cannot start the embedded sandbox: the program path is unknown'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [CHILD_MARKER]: '1',
    [DATA_DIR_VAR]: opts.dataDir,
    ...(opts.reuse ? { [AWAIT_VAR]: '1' } : {}),
    ...(opts.idleMs ? { [IDLE_VAR]: String(opts.idleMs) } : {}),
  };
  const lingers = opts.idleMs !== undefined;
  // The sandbox makes no TLS connections, and Node 20 reads and parses this bundle of certificates
  // eagerly at start, which costs CPU where it is set for every process.
  delete env.NODE_EXTRA_CA_CERTS;
  // Loaded here: a command on a remote service, which imports this module with target.ts, forks nothing.
  const child = process.getBuiltinModule('node:child_process').fork(entry, [], {
    env,
    // The same node flags (a loader such as tsx, say), but not a debugger's port the console holds.
    execArgv: opts.execArgv ?? process.execArgv.filter((a) => !a.startsWith('--inspect')),
    // stdout/stdin are the console's terminal: the child must never draw on it. A command's
    // sandbox holds none of the command's pipes, so whoever reads the command's output is not kept waiting.
    stdio: ['ignore', 'ignore', lingers ? 'ignore' : 'pipe', 'ipc'],
    serialization: 'json',
    // Its own session: a Ctrl-C or hang-up meant for the command's terminal is not for it.
    detached: lingers,
  });
  if (opts.nice !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, opts.nice);
    } catch {
      // not allowed here: the console's priority
    }
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    stderr = (stderr + s).slice(-STDERR_KEPT);
  });
  const lastLine = () => stderr.trim().split('\n').filter(Boolean).pop();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; lastLine?: string }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal, lastLine: lastLine() }));
    child.once('error', () => {
      if (child.exitCode === null && child.signalCode === null && child.pid === undefined) done({ code: null, signal: null, lastLine: lastLine() });
    });
  });

  return new Promise<SandboxChild>((resolve, reject) => {
    const failed = (why: string) => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(why));
    };
    const onMessage = (m: FromChild) => {
      if ('awaiting' in m) return void child.send({ start: opts.reuse ?? { apiKey: '', port: 0 } } satisfies ToChild);
      if ('error' in m) return failed(m.error);
      cleanup();
      // From here the child must not keep the console alive, nor the console wait for it.
      child.unref();
      child.channel?.unref();
      (child.stderr as Socket | null)?.unref(); // still drained (into the tail kept above), never waited for
      const close = lingers ? () => Promise.resolve(child.connected ? child.disconnect() : undefined) : () => stopChild(child, opts.stopTimeoutMs ?? 3000);
      resolve({ url: m.ready.url, apiKey: m.ready.apiKey, pid: child.pid ?? -1, close: once(close), exited });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const last = lastLine();
      failed(`the embedded sandbox stopped before it was ready (${signal ?? `exit ${code}`})${last ? `: ${last}` : ''}`);
    };
    const onError = (err: Error) => failed(`cannot start the embedded sandbox: ${err.message}`);
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.on('error', onError);
  });
}

function stopChild(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    // Closing the channel is the stop signal (the same one a crashed or killed console gives).
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
  });
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** The child's side: start the sandbox, say where it is, serve until the channel closes. */
export async function runSandboxChild(): Promise<void> {
  const send = (m: FromChild) => new Promise<void>((done) => (process.send ? process.send(m, undefined, {}, () => done()) : done()));
  const refuse = async (why: string) => {
    await send({ error: why });
    process.exit(1);
  };
  const dataDir = process.env[DATA_DIR_VAR];
  const awaits = process.env[AWAIT_VAR] === '1';
  const idleMs = Number(process.env[IDLE_VAR]) || undefined;
  delete process.env[CHILD_MARKER];
  delete process.env[DATA_DIR_VAR];
  delete process.env[AWAIT_VAR];
  delete process.env[IDLE_VAR];
  // A restart: the console sends the key and port it had, so its client carries on unchanged.
  const wish = awaits
    ? await new Promise<ToChild['start'] | undefined>((done) => {
        process.once('message', (m: ToChild) => done(m?.start?.apiKey ? m.start : undefined));
        void send({ awaiting: true });
      })
    : undefined;
  // The console decides when the sandbox stops; a Ctrl-C meant for the terminal is not for us.
  process.on('SIGINT', () => undefined);
  if (!dataDir) return refuse('the embedded sandbox was started without a data dir');
  const every = process.env[RING_EVERY_VAR]?.trim();
  const ringEverySeconds = every ? Number(every) : undefined;
  if (ringEverySeconds !== undefined && !(Number.isInteger(ringEverySeconds) && ringEverySeconds >= 1 && ringEverySeconds <= MAX_RING_EVERY)) {
    return refuse(
      `${RING_EVERY_VAR} must be whole seconds from 1 to ${MAX_RING_EVERY} (an inbound call every so many seconds); it is ${JSON.stringify(every)}`,
    );
  }
  const { startSandbox, generateApiKey } = await import('./server.js');
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  const stop = () => {
    if (!sandbox) return process.exit(0);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  const apiKey = wish?.apiKey ?? generateApiKey();
  // A command's sandbox is registered, so the next commands use it rather than start their own; it
  // stays while any of them holds a connection. The console's is not: it stops with the console,
  // which would cut off a command still using it (that command could not know to retry).
  const common = {
    dataDir,
    apiKey,
    host: '127.0.0.1',
    seed: true,
    ringEverySeconds,
    register: Boolean(idleMs),
    idle: idleMs ? { ms: idleMs, then: stop } : undefined,
  };
  try {
    sandbox = await startSandbox({ ...common, port: wish?.port ?? 0 });
  } catch (err) {
    // The old port was taken meanwhile: any port (the console then points its client there).
    if (!wish || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') return refuse(err instanceof Error ? err.message : String(err));
    try {
      sandbox = await startSandbox({ ...common, port: 0 });
    } catch (again) {
      return refuse(again instanceof Error ? again.message : String(again));
    }
  }
  // A command's sandbox outlives the command that started it: its idle time ends it.
  if (!idleMs) process.once('disconnect', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  await send({ ready: { url: sandbox.url, apiKey: sandbox.apiKey } });
}
