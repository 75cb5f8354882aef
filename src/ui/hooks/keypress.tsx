// One keypress dispatcher with priorities (after gemini-cli's KeypressContext): Ink delivers every
// key once, here; handlers run highest priority first and the first that returns true consumes it.
// Ctrl-C never reaches a handler: it always quits.
import { createContext, useContext, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useInput, type Key } from 'ink';
import { renderNow } from '../ink-internals.js';

/** Higher runs first. A focused text input beats a form, which beats a screen, which beats global keys. */
export const Priority = {
  Global: 0,
  Screen: 10,
  Overlay: 100, // form, picker, dialog, palette
  TextInput: 200,
} as const;

export type KeyHandler = (input: string, key: Key) => boolean | void;

interface Registration {
  priority: number;
  seq: number;
  handler: { current: KeyHandler };
  /** Read at dispatch time: a render that turns a handler off takes effect before the next key. */
  active: { current: boolean };
}

interface Registry {
  add(r: Registration): () => void;
}

const KeypressContext = createContext<Registry | null>(null);

export function KeypressProvider({ onForceQuit, children }: { onForceQuit: () => void; children: ReactNode }) {
  const regs = useRef<Registration[]>([]);
  const registry = useRef<Registry>({
    add(r) {
      regs.current = [...regs.current, r].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
      return () => {
        regs.current = regs.current.filter((x) => x !== r);
      };
    },
  });
  const dispatch = (input: string, key: Key) => {
    // Snapshot: a handler may register or unregister others (opening a dialog) while we iterate.
    for (const r of [...regs.current]) {
      if (r.active.current && r.handler.current(input, key) === true) {
        // Several keys can come in one read (typed ahead of a slow frame): the next one goes to
        // whatever this one opened or focused, so render before it is dispatched.
        renderNow();
        return;
      }
    }
  };
  useInput((input, key) => {
    if (key.ctrl && input === 'c') return onForceQuit();
    // Ink splits a read at escape sequences and Backspaces but passes a run of Tabs or Enters as
    // one string (it could be pasted text); nothing pastes only those, so they are that many keys.
    if (/^(\t{2,}|\r{2,})$/.test(input)) {
      for (const ch of input) dispatch('', { ...key, tab: ch === '\t', return: ch === '\r' });
    } else dispatch(input, key);
  });
  return <KeypressContext.Provider value={registry.current}>{children}</KeypressContext.Provider>;
}

let seq = 0;

/** Subscribe to keys while `active`; return true from the handler to consume the key. */
export function useKeypress(handler: KeyHandler, opts: { priority: number; active?: boolean }) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useKeypress must be used inside <KeypressProvider>');
  const ref = useRef(handler);
  ref.current = handler;
  const active = useRef(opts.active ?? true);
  active.current = opts.active ?? true;
  // Later registrations at equal priority win: the innermost, newest component is on top.
  // A layout effect: registered at commit, so the very next key already reaches a new screen.
  useLayoutEffect(() => registry.add({ priority: opts.priority, seq: ++seq, handler: ref, active }), [registry, opts.priority]);
}
