// The one driver of a real terminal for the tests: a detached tmux session on a tmux server of its
// own (its own socket: no test shares a server's environment or options, or meets one exiting),
// named keys in with send-keys, the screen out with capture-pane. Waits poll the screen, bounded
// against a hang; no timed assertions.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pidAlive } from '../../src/config/lock.js';
import { builtSkip, removeTree } from './cli.js';
import { GUARD_MS } from './wait.js';

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
}

/** Why a test of the built program (`cli`, dist/cli.js by default) in tmux can't run here, or false. */
export function tmuxSkip(cli?: string): string | false {
  return hasTmux() ? builtSkip(cli) : 'tmux is not installed';
}

/** tmux on the server of `socket`; `env` is the server's own when this starts it. */
function tmuxWith(env: NodeJS.ProcessEnv, socket: string, ...args: string[]): string {
  const r = spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

export interface TmuxSession {
  name: string;
  /** Keys as tmux names them: 'Enter', 'Escape', 'Tab', 'C-s', or literal text with `literal`. */
  keys(...keys: string[]): void;
  type(text: string): void;
  /** Types `text` and waits to see it, so that a key pressed next is a keypress of its own. */
  typeLine(text: string): Promise<void>;
  /** Pastes `text` as a terminal paste (bracketed where the program asked for it). */
  paste(text: string): void;
  /** The screen as text; `colours`: with its SGR sequences; `joined`: lines the terminal wrapped joined. */
  screen(how?: { colours?: boolean; joined?: boolean }): string;
  /** A tmux format (`#{alternate_on}`, `#{mouse_sgr_flag}`, …) for the pane. */
  display(format: string): string;
  /** Appends every byte the program writes to the terminal to `file`. */
  record(file: string): void;
  /** Polls the screen until it contains `text` (or matches), for up to `guardMs` (GUARD_MS); throws with the screen. */
  waitFor(text: string | RegExp, guardMs?: number): Promise<string>;
  resize(width: number, height: number): void;
  /** The pid of the program in the pane: the last of the chain of only children below the pane's shell. */
  pid(): number;
  /** The exit status once the program has ended (the pane stays, remain-on-exit), else null. */
  exitStatus(): number | null;
  /** Polls (bounded) until the program has ended; returns its exit status. */
  waitForExit(): Promise<number>;
  kill(): void;
}

/**
 * Whether `pid` is still running: pidAlive, but a zombie (ended, not yet reaped: a program whose
 * pane's shell was hung up first waits for an init that may never reap it) has ended.
 */
export function running(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Blocks until `pid` has ended: a hang-up is given 10 s, then SIGKILL (the test's own process, in its teardown). */
function untilGone(pid: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const signal of [undefined, 'SIGKILL'] as const) {
    if (signal && running(pid)) {
      try {
        process.kill(pid, signal);
      } catch {
        /* ended meanwhile */
      }
    }
    for (let waited = 0; running(pid) && waited < 10_000; waited += 20) Atomics.wait(pause, 0, 0, 20);
  }
}

/** A word for the shell the session runs its command in: single-quoted, a ' inside closed, escaped and reopened. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function startTmux(opts: {
  name: string;
  command: string;
  env: Record<string, string | undefined>;
  cwd: string;
  width?: number;
  height?: number;
}): TmuxSession {
  // `env -u CI`: Ink treats any set CI as non-interactive.
  const assigns = Object.entries(opts.env)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
  // The shell records the exit status in a file: tmux can report a pane dead before (or, seen
  // here now and then, without ever) filling in #{pane_dead_status}.
  const statusFile = join(mkdtempSync(join(tmpdir(), 'sb-tmux-')), 'status');
  const cmd = `cd ${JSON.stringify(opts.cwd)} && env -u CI ${assigns} ${opts.command}; echo $? > ${JSON.stringify(statusFile)}`;
  const socket = `sb-${opts.name}`;
  const t = (...args: string[]) => tmuxWith(process.env, socket, ...args);
  // The server (and so the pane) starts from the test's environment without what the person running
  // the tests may have set for Switchboard itself, nor what `npm test` sets for its script (its
  // npm_config_cache would give a pane's npm and npx the runner's cache, not the test home's), then
  // the session's own: a variable set to undefined there is unset.
  const serverEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SWITCHBOARD_|CI$|npm_)/i.test(k)));
  for (const [k, v] of Object.entries(opts.env)) {
    if (v === undefined) delete serverEnv[k];
    else serverEnv[k] = v;
  }
  tmuxWith(serverEnv, socket, 'new-session', '-d', '-s', opts.name, '-x', String(opts.width ?? 120), '-y', String(opts.height ?? 40), cmd);
  t('set-option', '-t', opts.name, 'remain-on-exit', 'on');
  const s: TmuxSession = {
    name: opts.name,
    keys: (...keys) => void t('send-keys', '-t', opts.name, ...keys),
    type: (text) => void t('send-keys', '-t', opts.name, '-l', text),
    async typeLine(text) {
      s.type(text);
      await s.waitFor(text);
    },
    paste(text) {
      t('set-buffer', '-b', 'paste', text);
      // -p: bracketed, as a terminal pastes for a program that turned bracketed paste on.
      t('paste-buffer', '-p', '-d', '-b', 'paste', '-t', opts.name);
    },
    screen: (how = {}) => t('capture-pane', '-p', ...(how.colours ? ['-e'] : []), ...(how.joined ? ['-J'] : []), '-t', opts.name),
    display: (format) => t('display-message', '-p', '-t', opts.name, format).trim(),
    record: (file) => void t('pipe-pane', '-o', '-t', opts.name, `cat >> ${JSON.stringify(file)}`),
    async waitFor(text, guardMs = GUARD_MS) {
      let last = '';
      // Until it shows (bounded against a hang, not by a clock: see wait.ts).
      for (const end = Date.now() + guardMs; Date.now() < end;) {
        last = s.screen();
        if (typeof text === 'string' ? last.includes(text) : text.test(last)) return last;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the terminal never showed ${String(text)}; it shows:\n${last}`);
    },
    resize: (width, height) => void t('resize-window', '-t', opts.name, '-x', String(width), '-y', String(height)),
    pid() {
      // Down the chain of only children (the status-recording shell, any wrapper shell) to the
      // program: the first process that is not a shell (the console's own children, such as its
      // embedded sandbox, are below it).
      let pid = s.display('#{pane_pid}');
      for (;;) {
        const comm = spawnSync('ps', ['-o', 'comm=', '-p', pid], { encoding: 'utf8' }).stdout.trim();
        if (!/^(ba|da|z)?sh$/.test(comm)) return Number(pid);
        const children = spawnSync('pgrep', ['-P', pid], { encoding: 'utf8' }).stdout.trim();
        if (!children || children.includes('\n')) return Number(pid);
        pid = children;
      }
    },
    exitStatus() {
      if (!existsSync(statusFile)) return null;
      const text = readFileSync(statusFile, 'utf8').trim();
      if (text === '') return null; // being written
      const status = Number(text);
      if (status > 128) throw new Error(`the program was killed by signal ${status - 128}; the terminal shows:\n${s.screen()}`);
      return status;
    },
    async waitForExit() {
      for (const end = Date.now() + GUARD_MS; Date.now() < end;) {
        const st = s.exitStatus();
        if (st !== null) return st;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the program never exited; the terminal shows:\n${s.screen()}`);
    },
    kill() {
      let program: number | undefined;
      try {
        program = s.pid();
      } catch {
        /* the session is gone already */
      }
      spawnSync('tmux', ['-L', socket, 'kill-server']);
      // tmux hangs up the pane, but the program takes a moment to end (longer on a busy machine), and
      // until then its archive sync may still write into the test's home, which then cannot be removed.
      if (program !== undefined) untilGone(program);
      removeTree(dirname(statusFile));
    },
  };
  return s;
}
