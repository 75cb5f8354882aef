// The one owner of the terminal while the console runs: it takes it (alternate screen, raw mode,
// bracketed paste, the quit signals), decides colour and glyphs (capabilities.ts), and puts it back however the console ends:
// a normal quit, a signal, process.exit, or a crash the console could not show. Nothing else in the console
// writes these modes or listens for these signals. Small and free of React/Ink: start.ts takes
// the terminal before they load.
import { setCrashCleanup, setCrashReporter } from '../crash.js';
import { asciiText, isUtf8Locale, setCapabilities } from './capabilities.js';

export interface Terminal {
  /** Colour is on for this console (flags and environment decided, and the terminal has it). */
  readonly color: boolean;
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
   * Job control (Ctrl-Z): gives the terminal back as restore does, stops the process (SIGTSTP, as
   * a shell expects), and once continued (`fg`) takes the terminal again exactly as before.
   */
  stop(): Promise<void>;
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
const QUIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
// Mouse reports (button presses and the wheel, 1000) in SGR form (1006: ESC[<b;x;yM, any column),
// only with --mouse; off on every way out like the paste brackets, or the shell would get them.
const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';

export function takeTerminal(opts: TakeOptions): Terminal {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const color = opts.color && (stdout.hasColors?.() ?? false);
  // Without colour the console still draws text styles (inverse, bold, dim): Ink's colours are
  // dropped by the capabilities (the no-color Ink patch), not by chalk's level 0, which drops both.
  const unicode = isUtf8Locale();
  setCapabilities({ color, unicode });
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
  const stop = async () => {
    if (restored) return;
    leave();
    // A signal listener does not keep Node running, and stdin is paused: without a timer,
    // the loop would be empty on SIGCONT and Ink would unmount on 'beforeExit'.
    const alive = setInterval(() => undefined, 1 << 30);
    const continued = new Promise<void>((resolve) => process.once('SIGCONT', () => resolve()));
    process.kill(process.pid, 'SIGTSTP');
    await continued;
    clearInterval(alive);
    if (restored) return;
    enter();
  };
  function onSignal(signal: NodeJS.Signals) {
    if (handedOver && signal === 'SIGINT') return;
    if (quitHandler) return quitHandler();
    restore();
    process.exit(0);
  }
  stdout.write(on);
  // Raw now, so keys typed before the app is up are neither echoed nor lost (they wait in stdin).
  if (stdin.isTTY) stdin.setRawMode(true);
  process.on('exit', restore);
  for (const s of QUIT_SIGNALS) process.on(s, onSignal);
  setCrashCleanup(restore); // a crash that ends the process prints its line on the main screen

  return {
    color,
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
