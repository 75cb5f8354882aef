// Runs the BUILT binary (dist/cli.js) as a child process with its own temporary HOME and XDG
// dirs, so tests never touch the real user's config, and returns what it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// SWITCHBOARD_TEST_CLI points the tests at a private build (build.mjs --outdir) that a concurrent
// rebuild of dist/ cannot pull out from under a running test.
export const CLI = resolve(process.env.SWITCHBOARD_TEST_CLI ?? 'dist/cli.js');

/** Why a test of the built program can't run here (the runner prints it as the skip's reason), or false. */
export function builtSkip(cli = CLI): string | false {
  return existsSync(cli) ? false : `${cli} is missing (npm run build)`;
}

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

export interface CliHome {
  dir: string;
  /** HOME and XDG dirs inside `dir`, and a clean slate for the variables Switchboard reads. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** HOME and the XDG dirs inside `dir`, plus PATH and TMPDIR: nothing else of the caller's environment. */
export function homeEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    TMPDIR: process.env.TMPDIR,
  };
}

/**
 * Removes a test's temp tree. A console or sandbox that was just killed may still be writing its
 * last file in there, which makes one pass fail with ENOTEMPTY: rmSync retries those.
 */
export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/** A throwaway home for one test (or one suite that shares profiles). */
export function tempHome(): CliHome {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-home-'));
  return { dir, env: homeEnv(dir), cleanup: () => removeTree(dir) };
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (a pipe, never a TTY). */
  stdin?: string;
  /** Write stdin only this long after the start, as a slow producer in a pipeline would. */
  stdinAfterMs?: number;
}

/** Starts the binary and leaves it running (for `calls watch`); stdin is a closed pipe unless given. */
export function startCli(args: string[], opts: RunOptions = {}): { child: ChildProcess; result: Promise<CliResult>; stdout(): string } {
  const child = spawn(process.execPath, [CLI, ...args], { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  if (opts.stdinAfterMs) setTimeout(() => child.stdin!.end(opts.stdin ?? ''), opts.stdinAfterMs);
  else child.stdin!.end(opts.stdin ?? '');
  const result = new Promise<CliResult>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ stdout, stderr, code }));
  });
  return { child, result, stdout: () => stdout };
}

export function runCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return startCli(args, opts).result;
}
