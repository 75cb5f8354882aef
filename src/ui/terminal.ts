// The one owner of the terminal while the console runs: it takes it (alternate screen, raw mode,
// bracketed paste, the quit signals), decides colour and glyphs (its `capabilities`, capabilities.ts), and puts it back however the console ends:
// a normal quit, a signal, process.exit, or a crash the console could not show. Nothing else in the console
// writes these modes or listens for these signals. Small and free of React/Ink: start.ts takes
// the terminal before they load.
import { setCrashCleanup, setCrashReporter } from '../crash.js';
import { asciiText, isUtf8Locale, type Capabilities } from './capabilities.js';

export interface Terminal {
  /** What it can show: colour (flags and environment decided, and the terminal has it), a UTF-8 locale. */
  readonly capabilities: Capabilities;
  readonly columns: number;
  readonly rows: number;
  /** Writes to the screen (the first frame, drawn before Ink is up). */
  write(text: string): void;
  /** The stream Ink renders to: stdout, or stdout writing ASCII when the locale is not UTF-8. */
  readonly output: NodeJS.WriteStream;
  /** Who handles SIGINT/SIGTERM/SIGHUP from now on; until set (or once unset) they restore and exit. */
  onQuitSignal(handler: (() => void) | undefined): void;
  /**
   * Unexpected errors while the console runs go to `show` (a flash) instead of ending it. If
   * showing fails, the terminal is given back first, so the line printed on the way out is seen.
   */
  reportCrashesTo(show: ((line: string) => void) | undefined): void;
  /** Leaves the alternate screen and raw mode, shows the cursor; safe to call twice (also runs on exit). */
  restore(): void;
  /**
   * Job control (Ctrl-Z): gives the terminal back as restore does, stops the console's whole
   * process group (SIGTSTP, as a shell expects), and once continued (`fg`) takes the terminal again
   * exactly as before. False when nothing stopped: no shell with job control started the console.
   */
  stop(): Promise<boolean>;
  /**
   * Gives the terminal to another program (the `$EDITOR` of `E`) for as long as `run` takes, as
   * stop does but without stopping the process, then takes it back exactly as before.
   */
  handOver<T>(run: () => Promise<T>): Promise<T>;
  /**
   * Puts `text` on the system clipboard with OSC 52, the one OSC the console writes and only for the
   * copy keys. Refuses (false) anything but a short id-like text: it comes from the service.
   */
  copy(text: string): boolean;
}

/** Text the copy keys may put on the clipboard: an id, a DID or a phone number, never control bytes. */
export function copyable(text: string): boolean {
  return /^[A-Za-z0-9._:+@#-]{1,256}$/.test(text);
}

/** The OSC 52 sequence that sets the clipboard ('c') to `text`. */
function clipboardSequence(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

export interface TakeOptions {
  /** Colour wanted by the flags and environment (`--no-color`, NO_COLOR, FORCE_COLOR). */
  color: boolean;
  /** --mouse: clicks and the wheel come to the console (SGR 1006); otherwise the terminal keeps its own selection. */
  mouse?: boolean;
}

// Not Ink's alternateScreen option: Ink enters the alternate screen in render(), after React and
// Ink have loaded, and the chrome is drawn before that; asked to as well, Ink would send ?1049h
// again on a screen already switched (which xterm defines as save the cursor, then clear).
const ENTER_ALT = '\x1b[?1049h\x1b[H';
const LEAVE_ALT = '\x1b[?25h\x1b[?1049l'; // show the cursor, leave the alternate screen
// Bracketed paste: the terminal wraps a paste in ESC[200~ … ESC[201~, so a paste reaches the
// console as text for an input (keypress.tsx), never as keys. On from the take, so a paste
// during start-up is bracketed too; off on every way out, or the shell would get the brackets.
const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';
// Ink's colorize (Text colours, backgrounds, borders: every colour Ink draws, ours and the
// libraries') returns its text uncoloured while this is set; see src/patches (no-color).
const NO_COLOR = Symbol.for('switchboard.noColor');
const QUIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long a stop that did not happen is waited for (the SIGCONT of one that did follows at once). */
const NO_STOP_MS = 500;
// Mouse reports (button presses and the wheel, 1000) in SGR form (1006: ESC[<b;x;yM, any column),
// only with --mouse; off on every way out like the paste brackets, or the shell would get them.
const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';

export function takeTerminal(opts: TakeOptions): Terminal {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const color = opts.color && (stdout.hasColors?.() ?? false);
  // Without colour the console still draws text styles (inverse, bold, dim), not chalk's level 0,
  // which drops both: its own colours are blank (the palette handed down with these capabilities,
  // hooks/theme-context.tsx), and the flag has Ink drop a library component's colours too (the
  // no-color Ink patch) on this process's one terminal.
  const unicode = isUtf8Locale();
  (globalThis as Record<symbol, unknown>)[NO_COLOR] = !color;
  // Not UTF-8: every write (the first frame, then Ink's) in ASCII through the one glyph table.
  const out = unicode ? (text: string) => stdout.write(text) : (text: string) => stdout.write(asciiText(text));
  const on = ENTER_ALT + PASTE_ON + (opts.mouse ? MOUSE_ON : '');
  const off = (opts.mouse ? MOUSE_OFF : '') + PASTE_OFF + LEAVE_ALT;

  let restored = false;
  let quitHandler: (() => void) | undefined;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const s of QUIT_SIGNALS) process.off(s, onSignal);
    process.off('exit', restore);
    setCrashReporter(undefined);
    setCrashCleanup(undefined);
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      /* stdin already closed */
    }
    stdout.write(off);
  };
  // Cooked mode on the main screen, and back: around a stop (Ctrl-Z) and a hand-over (an editor).
  // The console's key reader (ui/hooks/keypress.tsx) keeps its listener on stdin; paused, the
  // stream gives it nothing, so what is typed meanwhile is the other program's.
  const leave = () => {
    stdin.pause();
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      /* stdin already closed */
    }
    stdout.write(off);
  };
  const enter = () => {
    stdout.write(on);
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.resume();
  };
  // While another program has the terminal, Ctrl-C is its key (the terminal sends SIGINT to the
  // whole foreground group): the console must not quit under an open editor, as git and kubectl don't.
  let handedOver = false;
  const handOver = async <T>(run: () => Promise<T>): Promise<T> => {
    if (restored || handedOver) return run();
    leave();
    handedOver = true;
    try {
      return await run();
    } finally {
      handedOver = false;
      if (!restored) enter();
    }
  };
  const stop = async (): Promise<boolean> => {
    if (restored) return true;
    leave();
    // A signal listener does not keep Node running, and stdin is paused: without a timer,
    // the loop would be empty on SIGCONT and Ink would unmount on 'beforeExit'.
    const alive = setInterval(() => undefined, 1 << 30);
    let notStopped = () => {};
    const continued = new Promise<boolean>((resolve) => {
      const onContinue = () => resolve(true);
      process.once('SIGCONT', onContinue);
      notStopped = () => {
        process.off('SIGCONT', onContinue);
        resolve(false);
      };
    });
    // The whole process group, as vim does, not this process alone: the shell's job is the group,
    // and under `npm start` or `npx` its leader is npm (then `sh -c`), which the shell waits on. Only
    // once they stop too does the shell print `Stopped` and take the terminal back; `fg` continues
    // the group. The embedded sandbox, in the group too, stops with the console (commands never
    // use the console's sandbox). SIGTSTP, not SIGSTOP: a process of the group that handles it decides for itself.
    process.kill(0, 'SIGTSTP');
    // Stopped, this process gets here only once continued, and the SIGCONT event is already on its
    // way. A group no shell controls (the console as a terminal's or tmux's only program) has the
    // stop discarded by the kernel: no SIGCONT will come, so (as vim) wait briefly, then carry on.
    const noStop = setTimeout(() => notStopped(), NO_STOP_MS);
    const stopped = await continued;
    clearTimeout(noStop);
    clearInterval(alive);
    if (!restored) enter();
    return stopped;
  };
  function onSignal(signal: NodeJS.Signals) {
    if (handedOver && signal === 'SIGINT') return;
    if (quitHandler) return quitHandler();
    restore();
    process.exit(0);
  }
  // The terminal is gone (its window closed, the connection dropped): a write or read of it fails
  // with EIO (or EPIPE, ENXIO). That is a hang-up, not a crash: nothing more is drawn, and the
  // console quits as on SIGHUP, which usually comes with it.
  let hungUp = false;
  const onTerminalError = (err: NodeJS.ErrnoException) => {
    if (!['EIO', 'EPIPE', 'ENXIO'].includes(err.code ?? '')) throw err;
    if (hungUp) return;
    hungUp = true;
    restored = true; // nothing to restore on a terminal that is not there
    onSignal('SIGHUP');
  };
  stdout.on('error', onTerminalError);
  stdin.on('error', onTerminalError);
  stdout.write(on);
  // Raw now, so keys typed before the app is up are neither echoed nor lost (they wait in stdin).
  if (stdin.isTTY) stdin.setRawMode(true);
  process.on('exit', restore);
  for (const s of QUIT_SIGNALS) process.on(s, onSignal);
  setCrashCleanup(restore); // a crash that ends the process prints its line on the main screen

  return {
    capabilities: { color, unicode },
    get columns() {
      return stdout.columns || 80;
    },
    get rows() {
      return stdout.rows || 24;
    },
    write: (text) => void out(text),
    output: unicode ? stdout : asciiOutput(stdout),
    onQuitSignal: (h) => void (quitHandler = h),
    reportCrashesTo(show) {
      setCrashReporter(
        show &&
          ((line) => {
            try {
              show(line);
            } catch (err) {
              restore(); // the crash handler prints the line and exits: on the main screen, where it stays
              throw err;
            }
          }),
      );
    },
    restore,
    stop,
    handOver,
    copy(text) {
      if (restored || !copyable(text)) return false;
      stdout.write(clipboardSequence(text));
      return true;
    },
  };
}

/** stdout with every write passed through the glyph table (sizes, resize events and the rest are stdout's own). */
function asciiOutput(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = (chunk: unknown, ...rest: unknown[]) =>
    (stdout.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? asciiText(chunk) : chunk, ...rest);
  return new Proxy(stdout, {
    get(target, key) {
      if (key === 'write') return write;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
