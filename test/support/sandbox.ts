// A real sandbox for tests: fresh temp data dir (removed on close), random loopback port,
// generated key, seeded unless `seed: false`.
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpAndTearDown } from './hooks.js';
import { removeTree, tempHome, type CliHome } from './cli.js';
import { generateApiKey, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { createClient } from '../../src/api/client.js';

export type { RunningSandbox, SandboxOptions };

export async function startTestSandbox(opts: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
  const ownsDir = opts.dataDir === undefined;
  try {
    const sb = await startSandbox({ apiKey: generateApiKey(), port: 0, host: '127.0.0.1', ...opts, dataDir });
    return {
      ...sb,
      close: async () => {
        await sb.close();
        if (ownsDir) removeTree(dataDir);
      },
    };
  } catch (err) {
    if (ownsDir) removeTree(dataDir);
    throw err;
  }
}

/** The sandbox of `sandboxForFile()`: the running sandbox, and `started`, settled once it runs. */
export type FileSandbox = RunningSandbox & { readonly started: Promise<void> };

/**
 * For a file (or a describe) of tests: a sandbox started before its tests and closed after them,
 * `const sb = sandboxForFile()`, then `sb.url`, `sb.apiKey`, … inside the tests. `sb` stands for
 * the running sandbox (it forwards to it), so it is used as one; touched before the file's `before`
 * has run, it says so. `skip` (a reason, or true) starts none, for a file whose tests all skip.
 * A file's top-level `before` hooks run side by side (node:test starts each as it is declared), so
 * one that uses the sandbox first awaits `sb.started`; in a describe they run in turn.
 */
export function sandboxForFile(opts: Partial<SandboxOptions> = {}, { skip }: { skip?: string | boolean } = {}): FileSandbox {
  let running: RunningSandbox | undefined;
  let settle!: { resolve: () => void; reject: (err: unknown) => void };
  const started = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // The start's error fails the hook; `started` only passes it on to whoever awaits it.
  started.catch(() => {});
  setUpAndTearDown(
    async () => {
      try {
        if (!skip) running = await startTestSandbox(opts);
        settle.resolve();
      } catch (err) {
        settle.reject(err);
        throw err;
      }
    },
    async () => {
      await running?.close();
      running = undefined;
    },
  );
  const target = (): RunningSandbox => {
    if (!running) {
      throw new Error(
        'the sandbox of sandboxForFile() is used outside the tests of its file (before its `before` or after its `after`;' +
          ' a top-level `before` awaits `sb.started` first)',
      );
    }
    return running;
  };
  return new Proxy({} as FileSandbox, {
    get: (_, key) => (key === 'started' ? started : Reflect.get(target(), key)),
    has: (_, key) => key === 'started' || Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(target(), key), configurable: true }),
  });
}

/**
 * For a file of built-CLI tests: a sandbox and a temporary HOME, started before the file's tests
 * and removed after them, with `env` pointing the CLI at that sandbox as a remote service.
 */
export function sandboxForCli(opts: Partial<SandboxOptions> = {}): { readonly sb: RunningSandbox; readonly home: CliHome; readonly env: NodeJS.ProcessEnv } {
  const on = {} as { sb: RunningSandbox; home: CliHome; env: NodeJS.ProcessEnv };
  setUpAndTearDown(
    async () => {
      on.sb = await startTestSandbox(opts);
      on.home = tempHome();
      on.env = { ...on.home.env, SWITCHBOARD_BASE_URL: on.sb.url, SWITCHBOARD_API_KEY: on.sb.apiKey };
    },
    async () => {
      await on.sb?.close();
      on.home?.cleanup();
    },
  );
  return on;
}

/**
 * For a file of tests against the API: a sandbox and a client for it, started before the file's
 * tests and closed after them.
 */
export function sandboxWithClient(): { readonly sb: RunningSandbox; readonly api: ReturnType<typeof createClient> } {
  const on = {} as { sb: RunningSandbox; api: ReturnType<typeof createClient> };
  setUpAndTearDown(
    async () => {
      on.sb = await startTestSandbox();
      on.api = createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey });
    },
    async () => {
      await on.api?.close();
      await on.sb?.close();
    },
  );
  return on;
}

/** A sandbox that stops and comes back as the same service (same data dir, key and, unless told, port). */
export interface RestartableSandbox extends RunningSandbox {
  /** Stops it, keeping its data dir. */
  stop(): Promise<void>;
  /**
   * Starts it again (stopping it first if it runs) on the same data dir and key and the same port
   * unless `opts.port` says (`0`: any free one, and `url` follows), with `opts` as its other options.
   */
  restart(opts?: Partial<SandboxOptions>): Promise<void>;
}

/** `startTestSandbox` for a test of a restart: `stop()`, `restart()`, and `close()` ends it and removes its data dir. */
export async function startRestartableSandbox(opts: Partial<SandboxOptions> = {}): Promise<RestartableSandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
  let running: RunningSandbox | undefined;
  try {
    running = await startTestSandbox({ ...opts, dataDir });
  } catch (err) {
    removeTree(dataDir);
    throw err;
  }
  let url = running.url;
  const apiKey = running.apiKey;
  const stop = async () => {
    await running?.close();
    running = undefined;
  };
  return {
    get url() {
      return url;
    },
    apiKey,
    dataDir,
    stop,
    restart: async (more = {}) => {
      await stop();
      running = await startTestSandbox({ ...more, apiKey, port: more.port ?? Number(new URL(url).port), dataDir });
      url = running.url;
    },
    close: async () => {
      await stop();
      removeTree(dataDir);
    },
  };
}

/** A service behind a loopback proxy that holds every request back `ms` before passing it on. */
export interface SlowService {
  url: string;
  close(): Promise<void>;
}

/**
 * A real service made slow on purpose: an HTTP proxy on loopback in front of `target` (a sandbox's
 * url) that waits `ms` before forwarding each request, so keys typed ahead surely arrive before the
 * answer a screen waits for. The answers themselves are the service's, byte for byte.
 */
export async function withLatency(target: string, ms: number): Promise<SlowService> {
  const up = new URL(target);
  const server = createServer((req, res) => {
    setTimeout(() => {
      const out = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    }, ms);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
