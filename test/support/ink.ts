// Render helpers that wait for React (after Shopify cli-kit's testing/ui.ts): yield to the
// scheduler after render and after every key, then assert on the last frame.
import { render } from 'ink-testing-library';
import { createElement, type ReactElement } from 'react';
import { ThemeProvider } from '../../src/ui/hooks/theme-context.js';
import { FULL_CAPABILITIES, type Capabilities } from '../../src/ui/capabilities.js';
import { THEMES, type Palette } from '../../src/ui/theme.js';
import { GUARD_MS } from './wait.js';

export const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  enter: '\r',
  escape: '\x1b',
  tab: '\t',
  backspace: '\x7f',
  ctrlS: '\x13',
  ctrlC: '\x03',
} as const;

/** Longer than the console waits after a lone Esc for the rest of an escape sequence (keypress.tsx). */
const ESC_WAIT_MS = 30;

/** Turns of the event loop `tick` yields at most (a burst of keys takes one turn per key). */
const MAX_TURNS = 1000;

/**
 * Yields until nothing waits in an immediate, then to the timers: React's scheduler renders in
 * immediates, and the key dispatcher sends each key of a burst in the turn after the one before
 * it has rendered (src/ui/hooks/keypress.tsx).
 */
export async function tick(): Promise<void> {
  for (let i = 0; i < MAX_TURNS; i++) {
    const more = await new Promise<boolean>((r) => setImmediate(() => r(process.getActiveResourcesInfo().includes('Immediate'))));
    if (!more) break;
  }
  await new Promise((r) => setTimeout(r, 0));
}

/** The height ink-testing-library's stdout reports (the console's own default when a terminal says none). */
const ROWS = 24;

/**
 * ink-testing-library's stdout has columns but no rows. Ink then asks terminal-size on every
 * commit, which, with the test's own stdout a pipe, spawns `tput` twice each time: most of a UI
 * test's time went there. Its stdout class is not exported, so the rows go on its prototype.
 */
function giveRows(stdout: object) {
  const proto = Object.getPrototypeOf(stdout) as object;
  if (!Object.hasOwn(proto, 'rows')) Object.defineProperty(proto, 'rows', { get: () => ROWS, configurable: true });
}

export interface LookOptions {
  /** The colours the tree draws in (the console's come from its theme, ui/start.ts); dark when not given. */
  palette?: Palette;
  /** What the terminal can show (the console's from terminal.ts); a colour UTF-8 terminal's when not given. */
  capabilities?: Partial<Capabilities>;
}

/** `look`: the palette and capabilities handed down to the tree, as run.tsx hands the console's. */
export async function renderApp(tree: ReactElement, look: LookOptions = {}) {
  const app = render(
    createElement(ThemeProvider, { palette: look.palette ?? THEMES.dark, capabilities: { ...FULL_CAPABILITIES, ...look.capabilities }, children: tree }),
  );
  giveRows(app.stdout);
  await tick();
  return {
    ...app,
    frame: () => app.lastFrame() ?? '',
    /** Writes keys one at a time (one read each), yielding after each. */
    async press(...keys: string[]) {
      for (const k of keys) {
        app.stdin.write(k);
        await tick();
        // A lone Esc is held until no more of an escape sequence follows (20 ms), so a
        // key written sooner would arrive with it as Alt-<key>; a person's next key comes later.
        if (k === KEYS.escape) await new Promise((r) => setTimeout(r, ESC_WAIT_MS));
      }
    },
    /** Types text (one write per character, like a person). */
    async type(text: string) {
      for (const ch of text) {
        app.stdin.write(ch);
        await tick();
      }
    },
    /** Waits until the frame contains `text` (bounded against a hang, not by a clock: see wait.ts). */
    async waitFor(text: string | RegExp): Promise<string> {
      for (const end = Date.now() + GUARD_MS; Date.now() < end;) {
        const f = app.lastFrame() ?? '';
        if (typeof text === 'string' ? f.includes(text) : text.test(f)) return f;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`never saw ${String(text)} in:\n${app.lastFrame()}`);
    },
  };
}
