// Child processes and temp dirs the bench creates, and their guaranteed cleanup (also on
// Ctrl-C or a crash), plus the /proc readings the memory rows need.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { msSince } from './stats.js';

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** A temp dir removed when the bench ends (or by `removeTempDir`). */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `switchboard-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** spawn() whose child (and its descendants) is killed at the latest when the bench ends. */
export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions): ChildProcess {
  const child = spawn(cmd, args, opts);
  children.add(child);
  child.on('exit', () => children.delete(child));
  child.on('error', () => children.delete(child));
  return child;
}

/** Every live descendant pid of `pid` (children first), from /proc. */
export function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command (field 2) may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = byParent.get(ppid) ?? [];
      list.push(Number(name));
      byParent.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of byParent.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Kills a child and everything under it (by pid), and waits for the child to be gone. */
export async function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null;
  const pids = [...descendants(child.pid).reverse(), ...(exited ? [] : [child.pid])];
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
  if (exited) return;
  await new Promise<void>((done) => {
    const force = setTimeout(() => {
      for (const pid of [...descendants(child.pid!), child.pid!]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }, 2000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
  });
}

export async function cleanupAll(): Promise<void> {
  await Promise.all([...children].map((c) => killTree(c)));
  for (const dir of [...tempDirs]) removeTempDir(dir);
}

/** Last-resort cleanup on Ctrl-C, SIGTERM or a synchronous exit. */
export function installCleanupHandlers(): void {
  const onSignal = (sig: NodeJS.Signals) => {
    process.stderr.write(`\nbench: ${sig}, cleaning up…\n`);
    void cleanupAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', () => {
    for (const c of children) {
      if (c.pid === undefined) continue;
      for (const pid of [...descendants(c.pid), c.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}

export interface MemoryStatus {
  /** resident set now, bytes */
  rss: number;
  /** peak resident set since start, bytes */
  hwm: number;
}

/** VmRSS / VmHWM of a live process, or undefined if it has gone. */
export function memoryOf(pid: number): MemoryStatus | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    const m = { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    // A process that has exited but not been reaped (a zombie) has no memory lines any more.
    return Number.isNaN(m.rss) || Number.isNaN(m.hwm) ? undefined : m;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a live process has used so far, ms; from /proc/<pid>/stat. */
export function cpuTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 (indexes 11 and 12 after the command), in clock ticks (100/s on Linux).
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command to completion (stdin closed), timing spawn → exit; fails on timeout. */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string; onSpawn?: (pid: number) => void } = {},
): Promise<Finished> {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const child = spawnTracked(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      void killTree(child, 'SIGKILL');
      fail(new Error(`${[cmd, ...args].join(' ')} took longer than ${opts.timeoutMs} ms`));
    }, opts.timeoutMs ?? 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('exit', (code) => {
      const ms = msSince(start);
      clearTimeout(timer);
      // Wait for the pipes to drain before handing the output over.
      child.on('close', () => done({ code, stdout, stderr, ms }));
    });
  });
}
