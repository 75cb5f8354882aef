// A real sandbox for tests: fresh temp data dir (removed on close), random loopback port,
// generated key, seeded unless `seed: false`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { tempHome, type CliHome } from './cli.js';
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
        if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * For a file (or a describe) of tests: a sandbox started before its tests and closed after them,
 * `const sb = sandboxForFile()`, then `sb.url`, `sb.apiKey`, … inside the tests. `sb` stands for
 * the running sandbox (it forwards to it), so it is used as one; touched before the file's `before`
 * has run, it says so.
 */
export function sandboxForFile(opts: Partial<SandboxOptions> = {}): RunningSandbox {
  let running: RunningSandbox | undefined;
  before(async () => {
    running = await startTestSandbox(opts);
  });
  after(async () => {
    await running?.close();
    running = undefined;
  });
  const target = (): RunningSandbox => {
    if (!running) throw new Error('the sandbox of sandboxForFile() is used outside the tests of its file (before its `before` or after its `after`)');
    return running;
  };
  return new Proxy({} as RunningSandbox, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(target(), key), configurable: true }),
  });
}

/**
 * For a file of built-CLI tests: a sandbox and a temporary HOME, started before the file's tests
 * and removed after them, with `env` pointing the CLI at that sandbox as a remote service.
 */
export function sandboxForCli(): { readonly sb: RunningSandbox; readonly home: CliHome; readonly env: NodeJS.ProcessEnv } {
  const on = {} as { sb: RunningSandbox; home: CliHome; env: NodeJS.ProcessEnv };
  before(async () => {
    on.sb = await startTestSandbox();
    on.home = tempHome();
    on.env = { ...on.home.env, SWITCHBOARD_BASE_URL: on.sb.url, SWITCHBOARD_API_KEY: on.sb.apiKey };
  });
  after(async () => {
    await on.sb.close();
    on.home.cleanup();
  });
  return on;
}

/**
 * For a file of tests against the API: a sandbox and a client for it, started before the file's
 * tests and closed after them.
 */
export function sandboxWithClient(): { readonly sb: RunningSandbox; readonly api: ReturnType<typeof createClient> } {
  const on = {} as { sb: RunningSandbox; api: ReturnType<typeof createClient> };
  before(async () => {
    on.sb = await startTestSandbox();
    on.api = createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey });
  });
  after(async () => {
    await on.api.close();
    await on.sb.close();
  });
  return on;
}
