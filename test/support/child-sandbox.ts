// Starts test/support/sandbox-child.ts as a child process and hands back its URL, its
// output so far, and ways to stop it politely or kill it outright.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeTree } from './cli.js';
import { generateApiKey, type RunningSandbox } from '../../src/sandbox/server.js';

/**
 * How to start a test helper of test/support/ (`sandbox-child`, `sync-child`) as a process: its own
 * bundle under `npm test` (src/scripts/test-build.mjs), else its source through tsx.
 */
export function helperArgs(name: string): string[] {
  const dir = process.env.SWITCHBOARD_TEST_BUILD;
  const built = dir && join(dir, 'support', `${name}.mjs`);
  return built && existsSync(built) ? ['--enable-source-maps', built] : ['--import', 'tsx', join(import.meta.dirname, `${name}.ts`)];
}

/** Usable as a `RunningSandbox`: its `close` is `stop`. */
export interface ChildSandbox extends RunningSandbox {
  url: string;
  host: string;
  port: number;
  apiKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the child wrote to stdout and stderr. */
  output(): string;
  /** Resolves with the exit code or signal once the child is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export interface ChildOptions {
  dataDir?: string;
  apiKey?: string;
  port?: number;
  maxUploadBytes?: number;
  logger?: boolean;
  seed?: boolean;
  /** Milliseconds per simulated second of a call (20 unless given). */
  callPace?: number;
}

export async function startChildSandbox(opts: ChildOptions = {}): Promise<ChildSandbox> {
  const dataDir = opts.dataDir ?? join(mkdtempSync(join(tmpdir(), 'switchboard-rel-')), 'data');
  const apiKey = opts.apiKey ?? generateApiKey();
  const child = spawn(process.execPath, helperArgs('sandbox-child'), {
    env: {
      ...process.env,
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_API_KEY: apiKey,
      SANDBOX_PORT: String(opts.port ?? 0),
      SANDBOX_MAX_UPLOAD: opts.maxUploadBytes ? String(opts.maxUploadBytes) : '',
      SANDBOX_LOGGER: opts.logger ? '1' : '',
      SANDBOX_SEED: opts.seed === false ? '0' : '1',
      SANDBOX_CALL_PACE: String(opts.callPace ?? 20),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  let gone = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('close', (code, signal) => {
      gone = true;
      done({ code, signal });
    }),
  );
  const url = await new Promise<string>((done, fail) => {
    const onData = () => {
      const m = /READY (\S+)/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        done(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(() => fail(new Error(`the sandbox child exited before it was ready:\n${out}`)));
  });
  const u = new URL(url);
  return {
    url,
    host: u.hostname,
    port: Number(u.port),
    apiKey,
    dataDir,
    child,
    output: () => out,
    exited,
    alive: () => !gone,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
    async close() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Removes the temp dir made for a child's data dir (its parent). */
export function removeDataDir(dataDir: string): void {
  removeTree(resolve(dataDir, '..'));
}
