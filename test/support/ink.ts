// Render helpers that wait for React (after Shopify cli-kit's testing/ui.ts): yield to the
// scheduler after render and after every key, then assert on the last frame.
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
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

/** Longer than Ink waits after a lone Esc for the rest of an escape sequence. */
const ESC_WAIT_MS = 30;

export async function tick(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 0));
}

export async function renderApp(tree: ReactElement) {
  const app = render(tree);
  await tick();
  return {
    ...app,
    frame: () => app.lastFrame() ?? '',
    /** Writes keys one at a time (Ink parses escape sequences per write), yielding after each. */
    async press(...keys: string[]) {
      for (const k of keys) {
        app.stdin.write(k);
        await tick();
        // Ink holds a lone Esc until no more of an escape sequence follows (Ink 8: 20 ms), so a
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
      for (const end = Date.now() + GUARD_MS; Date.now() < end; ) {
        const f = app.lastFrame() ?? '';
        if (typeof text === 'string' ? f.includes(text) : text.test(f)) return f;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`never saw ${String(text)} in:\n${app.lastFrame()}`);
    },
  };
}
