// What the rows share: the bench context, a throwaway home (HOME + XDG dirs) per scenario, and
// helper scripts run as child processes.
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { makeTempDir, spawnTracked } from './procs.js';
import { homeEnv } from '../support/cli.js';

export interface BenchContext {
  /** absolute path of the built entry, dist/cli.js */
  cli: string;
  /** fewer runs and shorter durations, for trying the bench out */
  quick: boolean;
  log(message: string): void;
}

export interface Home {
  dir: string;
  env: NodeJS.ProcessEnv;
  /** where the embedded sandbox keeps its data for this home */
  sandboxDir: string;
}

/**
 * A temp home with nothing configured, so Switchboard picks the embedded sandbox profile.
 * CI is left out on purpose: Ink treats any set CI as a non-interactive terminal.
 */
export function tempHome(name: string): Home {
  const dir = makeTempDir(name);
  const env: NodeJS.ProcessEnv = { ...homeEnv(dir), TERM: 'xterm-256color', LANG: process.env.LANG ?? 'C.UTF-8' };
  return { dir, env, sandboxDir: join(dir, 'data', 'switchboard', 'sandbox') };
}

const HERE = resolve(import.meta.dirname);

/** Runs a bench helper script (test/bench/children/*.ts) through tsx. */
export function spawnChild(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawnTracked(process.execPath, ['--import', 'tsx', join(HERE, 'children', script), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a child's stdout; resolves with its first line, or fails with what it printed on stderr. */
export function firstLine(child: ChildProcess, timeoutMs: number, what: string): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        done(out.slice(0, nl));
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code}): ${firstErrorLine(err)}`));
    });
  });
}

/** The line of a stack-trace-ish stderr that says what went wrong. */
export function firstErrorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.find((l) => /error|cannot|not found|failed/i.test(l)) ?? lines[0] ?? 'no output').slice(0, 160);
}
