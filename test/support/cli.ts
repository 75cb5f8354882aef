// Runs Switchboard's commands with their own temporary HOME and XDG dirs, so tests never touch the
// real user's config, and returns what they printed and their exit code. runCli runs the commander
// program in this process (the same runCommands the binary calls, against the same real servers
// over HTTP); startCli, and runCli with { process: true }, run the BUILT binary (dist/cli.js) as a
// child: for what only a process has (signals, two at once, a TTY-less exit) and the smoke set
// that runs each leaf command through the binary (test/commands/binary-smoke.test.ts).
// SWITCHBOARD_TEST_CLI_PROCESS=1 runs every runCli through the binary, as the suite once did.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { runCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/commands/program.js';

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
  /** Still running after RunOptions.timeoutMs: what it had printed by then (a child is killed). */
  timedOut?: boolean;
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
  /** Run the built binary as a child process (runCli), not the program in this process. */
  process?: boolean;
  /** A run still going after this long ends the wait with timedOut (a hang fails its test, not the suite). */
  timeoutMs?: number;
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

const EVERY_RUN_A_PROCESS = process.env.SWITCHBOARD_TEST_CLI_PROCESS === '1';

/** The built binary as a child process: for tests of the process itself (what it loads, signals, many at once). */
export async function runBinary(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  const started = startCli(args, opts);
  if (!opts.timeoutMs) return started.result;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    started.child.kill('SIGKILL');
  }, opts.timeoutMs);
  const r = await started.result.finally(() => clearTimeout(timer));
  return timedOut ? { ...r, timedOut } : r;
}

export function runCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  if (opts.process || EVERY_RUN_A_PROCESS) return runBinary(args, opts);
  // One at a time: a run has this process's env, argv and standard streams to itself.
  const run = queue.then(() => inProcess(args, opts));
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let queue: Promise<unknown> = Promise.resolve();
const VERSION = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string }).version;
/** Signals a command may listen for; what one run adds is taken off after it, as its exit would. */
const PROCESS_EVENTS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE'];

/** A pipe's end as the program sees it: not a terminal, everything written kept as text. */
function captured(): { stream: NodeJS.WriteStream; text(): string } {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/** A run in process, given up on after opts.timeoutMs (it goes on, but no longer holds up the next run). */
function inProcess(args: string[], opts: RunOptions): Promise<CliResult> {
  const stdout = captured();
  const stderr = captured();
  const done = runInProcess(args, opts, stdout.stream, stderr.stream).then((code) => ({ stdout: stdout.text(), stderr: stderr.text(), code }));
  if (!opts.timeoutMs) return done;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CliResult>((resolve) => {
    timer = setTimeout(() => resolve({ stdout: stdout.text(), stderr: stderr.text(), code: null, timedOut: true }), opts.timeoutMs);
  });
  return Promise.race([done, late]).finally(() => clearTimeout(timer));
}

/**
 * The commander program in this process, as the binary runs it: its own standard streams (stdout
 * and stderr captured, stdin a pipe holding `stdin`), `env` in place of process.env, and argv naming
 * the built binary (an embedded sandbox forks it, as from the binary). Put back after the run.
 */
async function runInProcess(args: string[], opts: RunOptions, stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream): Promise<number> {
  const env = { ...process.env };
  const argv = process.argv;
  const exitCode = process.exitCode;
  const listeners = new Map(PROCESS_EVENTS.map((e) => [e, process.listeners(e)]));
  const stdin = new Readable({ read() {} });
  const feed = () => {
    if (opts.stdin) stdin.push(opts.stdin);
    stdin.push(null);
  };
  if (opts.stdinAfterMs) setTimeout(feed, opts.stdinAfterMs);
  else feed();
  let code: number;
  try {
    for (const k of Object.keys(process.env)) delete process.env[k];
    // process.env would store undefined as the word (TMPDIR: "undefined", a directory in the cwd); a child's env leaves the name out.
    for (const [k, v] of Object.entries(opts.env ?? env)) if (v !== undefined) process.env[k] = v;
    process.argv = [process.execPath, CLI, ...args];
    code = await runCommands(args, VERSION, { stdin: stdin as NodeJS.ReadStream, stdout, stderr });
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, env);
    process.argv = argv;
    process.exitCode = exitCode;
    for (const [e, before] of listeners) for (const l of process.listeners(e)) if (!before.includes(l)) process.removeListener(e, l as () => void);
  }
  return code;
}

/** Every leaf command of the program by its words ("assistants list"), in the program's order. */
export function leafCommandMap(): Map<string, Command> {
  const out = new Map<string, Command>();
  const walk = (c: Command, words: string[]) => {
    if (c.commands.length === 0) out.set(words.join(' '), c);
    for (const s of c.commands) walk(s, [...words, s.name()]);
  };
  for (const c of buildProgram('0').commands) walk(c, [c.name()]);
  return out;
}

/** Every leaf command of the program, as words ("assistants list"), in the program's order. */
export function leafCommands(): string[] {
  return [...leafCommandMap().keys()];
}
