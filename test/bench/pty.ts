// A program on a pseudo-terminal without native modules: util-linux `script` allocates the
// pty and relays our pipes to it (a C relay: cheaper than python3's pty module or tmux).
// Every output chunk is timestamped as it arrives, so frames can be timed against keypresses.
import type { ChildProcess } from 'node:child_process';
import xterm from '@xterm/headless';
import { descendants, killTree, spawnTracked } from './procs.js';
import { msSince } from './stats.js';

export const COLS = 120;
// Begin / end synchronized update (DEC mode 2026): terminals show what is between as one frame.
const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
export const ROWS = 40;

interface Chunk {
  /** ms since spawn */
  at: number;
  text: string;
}

// CSI, OSC and two-byte escape sequences, so what is left is what a person would read.
const ANSI = /\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_=>78]/g;

function visibleText(s: string): string {
  return s.replace(ANSI, '');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class PtySession {
  readonly child: ChildProcess;
  private readonly start = process.hrtime.bigint();
  private readonly chunks: Chunk[] = [];
  private waiters: Array<() => void> = [];
  private exited = false;
  // What a terminal shows: the output run through a terminal emulator. A frame diffed row by row
  // rewrites only the changed part of a row, so the output stream alone does not say what a
  // row now reads.
  private readonly screen = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });

  /** Runs argv (exec'd by /bin/sh, so no extra process stays between the pty and the program). */
  constructor(argv: string[], env: NodeJS.ProcessEnv) {
    const inner = `stty cols ${COLS} rows ${ROWS}; exec ${argv.map(shellQuote).join(' ')}`;
    this.child = spawnTracked('script', ['-qfc', inner, '/dev/null'], {
      env: { ...env, SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      this.chunks.push({ at: this.now(), text });
      this.screen.write(text, () => this.wake());
      this.wake();
    });
    this.child.stderr!.resume();
    this.child.stdin!.on('error', () => undefined); // the program may quit while we type
    this.child.on('exit', () => {
      this.exited = true;
      this.wake();
    });
  }

  /** ms since spawn */
  now(): number {
    return msSince(this.start);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Everything printed so far, escape sequences removed. */
  screenText(fromChunk = 0): string {
    return visibleText(
      this.chunks
        .slice(fromChunk)
        .map((c) => c.text)
        .join(''),
    );
  }

  /** The rows the terminal shows now (output the emulator has parsed so far). */
  screenLines(): string[] {
    const b = this.screen.buffer.active;
    return Array.from({ length: ROWS }, (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
  }

  /** Resolves with the time the terminal's rows first satisfy `test`. */
  async waitForScreen(test: (lines: string[]) => boolean, timeoutMs: number, what = 'the expected screen'): Promise<number> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      if (test(this.screenLines())) return this.now();
      if (this.exited) throw new Error(`the program exited before ${what} appeared; the screen showed: ${tail(this.screenLines().join(' '))}`);
      const left = deadline - this.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; the screen showed: ${tail(this.screenLines().join(' '))}`);
      await new Promise<void>((done) => {
        const t = setTimeout(done, left);
        this.waiters.push(() => {
          clearTimeout(t);
          done();
        });
      });
    }
  }

  get chunkCount(): number {
    return this.chunks.length;
  }

  /**
   * Resolves with the arrival time (ms since spawn) of the first chunk at index ≥ `fromChunk`
   * for which `test(all visible text from fromChunk up to and including it)` holds.
   */
  async waitFor(test: (text: string) => boolean, timeoutMs: number, fromChunk = 0, what = 'the expected output'): Promise<number> {
    const deadline = this.now() + timeoutMs;
    let checked = fromChunk;
    let text = '';
    for (;;) {
      while (checked < this.chunks.length) {
        const c = this.chunks[checked++];
        text += visibleText(c.text);
        if (test(text)) return c.at;
      }
      if (this.exited) throw new Error(`the program exited before ${what} appeared; it printed: ${tail(this.screenText(fromChunk))}`);
      const left = deadline - this.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; the screen showed: ${tail(this.screenText(fromChunk))}`);
      await new Promise<void>((done) => {
        const t = setTimeout(done, left);
        this.waiters.push(() => {
          clearTimeout(t);
          done();
        });
      });
    }
  }

  /**
   * Resolves with the arrival time of the first frame Ink draws. Ink wraps each frame in a
   * synchronized update (ESC[?2026h); the frame the console draws before Ink has loaded
   * (src/ui/start.ts: header, footer, a list's cached rows) is plain output, so this is the app's
   * own first frame, taking keys.
   */
  async waitForInkFrame(timeoutMs: number): Promise<number> {
    const deadline = this.now() + timeoutMs;
    let checked = 0;
    let raw = '';
    for (;;) {
      while (checked < this.chunks.length) {
        const c = this.chunks[checked++];
        raw += c.text;
        if (raw.includes(BSU)) return c.at;
      }
      if (this.exited) throw new Error(`the program exited before Ink drew a frame; it printed: ${tail(this.screenText())}`);
      const left = deadline - this.now();
      if (left <= 0) throw new Error(`no frame from Ink within ${timeoutMs} ms; the screen showed: ${tail(this.screenText())}`);
      await new Promise<void>((done) => {
        const t = setTimeout(done, left);
        this.waiters.push(() => {
          clearTimeout(t);
          done();
        });
      });
    }
  }

  /**
   * Writes keys; resolves with the write time and the time the first frame after it began that
   * satisfies `test` (on the raw frame, escapes included). A frame is what the program wrapped in
   * a synchronized update (ESC[?2026h … ESC[?2026l, as Ink does), else one output chunk. Leftover
   * chunks of the previous frame and frames that fail the test (a spinner tick) are skipped.
   */
  async press(keys: string, timeoutMs = 5000, test: (frame: string) => boolean = () => true): Promise<{ sentAt: number; frameAt: number }> {
    const from = this.chunks.length;
    const sentAt = this.now();
    this.child.stdin!.write(keys);
    const deadline = sentAt + timeoutMs;
    const synced = this.usesSyncUpdates;
    // The output since the write as one string (escape sequences may be split across chunks),
    // with where each chunk starts in it, to date a frame by the chunk that completed its BSU.
    let raw = '';
    const starts: number[] = [];
    let taken = from;
    let scan = 0;
    const arrivalOf = (offset: number) => {
      let i = starts.length - 1;
      while (i > 0 && starts[i] > offset) i--;
      return this.chunks[from + i].at;
    };
    for (;;) {
      for (; taken < this.chunks.length; taken++) {
        const c = this.chunks[taken];
        if (!synced && test(c.text)) return { sentAt, frameAt: c.at };
        starts.push(raw.length);
        raw += c.text;
      }
      while (synced) {
        const b = raw.indexOf(BSU, scan);
        if (b < 0) {
          scan = Math.max(scan, raw.length - BSU.length + 1);
          break;
        }
        const e = raw.indexOf(ESU, b + BSU.length);
        if (e < 0) break; // the frame is still arriving
        if (test(raw.slice(b + BSU.length, e))) return { sentAt, frameAt: arrivalOf(b + BSU.length - 1) };
        scan = e + ESU.length;
      }
      if (this.exited) throw new Error(`the program exited before a frame after ${JSON.stringify(keys)}`);
      const left = deadline - this.now();
      if (left <= 0) throw new Error(`no frame after ${JSON.stringify(keys)} within ${timeoutMs} ms`);
      await new Promise<void>((done) => {
        const t = setTimeout(done, left);
        this.waiters.push(() => {
          clearTimeout(t);
          done();
        });
      });
    }
  }

  /** Whether the program draws its frames as synchronized updates (seen at least once so far). */
  private get usesSyncUpdates(): boolean {
    return this.chunks.some((c) => c.text.includes(BSU));
  }

  /** Writes keys without waiting for anything. */
  type(keys: string): void {
    this.child.stdin!.write(keys);
  }

  /** Waits until nothing has been printed for `quietMs` (or `timeoutMs` passed); returns the last output time. */
  async settle(quietMs: number, timeoutMs: number): Promise<number> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      const last = this.chunks.at(-1)?.at ?? 0;
      const idle = this.now() - last;
      if (idle >= quietMs || this.now() >= deadline || this.exited) return last;
      await new Promise((done) => setTimeout(done, Math.min(quietMs - idle, deadline - this.now()) + 1));
    }
  }

  /** The program's own pid (the process `script` runs on the pty). */
  programPid(): number | undefined {
    return this.child.pid === undefined ? undefined : descendants(this.child.pid)[0];
  }

  async close(): Promise<void> {
    await killTree(this.child);
  }
}

function tail(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return JSON.stringify(t.length > 300 ? `…${t.slice(-300)}` : t);
}
