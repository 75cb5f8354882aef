// One keypress dispatcher with priorities (after gemini-cli's KeypressContext): Ink delivers every
// key once, here; handlers run highest priority first and the first that returns true consumes it.
// Ctrl-C never reaches a handler: it always quits.
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useInput, type Key } from 'ink';

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
  useInput((input, key) => {
    if (key.ctrl && input === 'c') return onForceQuit();
    // Snapshot: a handler may register or unregister others (opening a dialog) while we iterate.
    for (const r of [...regs.current]) {
      if (r.handler.current(input, key) === true) return;
    }
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
  const active = opts.active ?? true;
  useEffect(() => {
    if (!active) return;
    // Later registrations at equal priority win: the innermost, newest component is on top.
    return registry.add({ priority: opts.priority, seq: ++seq, handler: ref });
  }, [registry, opts.priority, active]);
}
