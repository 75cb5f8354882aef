// One keypress dispatcher with priorities (after gemini-cli's KeypressContext): Ink delivers every
// key once, here; handlers run highest priority first and the first that returns true consumes it.
// Ctrl-C never reaches a handler: it always quits; nor does Ctrl-Z, which suspends (job control). A bracketed paste (terminal.ts turns the mode on)
// is one event, for the highest handler that takes pastes (a focused text input), never keys.
import { createContext, useContext, useLayoutEffect, useRef, type ContextType, type ReactNode } from 'react';
import { useInput, useStdin, type Key } from 'ink';
import { StdinContext, renderNow } from '../ink-internals.js';
import { Command, commandFor } from '../keymap.js';

/** Keys wait for a loading screen at most this long (then they go on to it as it is). */
const HOLD_MAX_MS = 5000;

/** Higher runs first. A focused text input beats a form, which beats a screen, which beats global keys. */
export const Priority = {
  Global: 0,
  Screen: 10,
  Overlay: 100, // form, picker, dialog, palette
  TextInput: 200,
} as const;

export type KeyHandler = (input: string, key: Key) => boolean | void;
/** Takes pasted text whole; return true when taken. */
export type PasteHandler = (text: string) => boolean | void;

interface Registration {
  priority: number;
  seq: number;
  handler: { current: KeyHandler };
  paste: { current: PasteHandler | undefined };
  /** Read at dispatch time: a render that turns a handler off takes effect before the next key. */
  active: { current: boolean };
}

interface Registry {
  add(r: Registration): () => void;
  /** Keys wait (in order) until every hold is released; returns the release. */
  hold(): () => void;
}

const KeypressContext = createContext<Registry | null>(null);

export function KeypressProvider({
  onForceQuit,
  onSuspend,
  onUnwantedPaste,
  onKeyDrawn,
  children,
}: {
  onForceQuit: () => void;
  /** Ctrl-Z: hand the terminal back and stop until `fg` (without it, Ctrl-Z is a key like any). */
  onSuspend?: () => void;
  /** A paste that no focused input takes (a list has focus): its letters are not commands. */
  onUnwantedPaste?: () => void;
  /** After each key is dispatched and its frame rendered: background work may use the gap before the next. */
  onKeyDrawn?: () => void;
  children: ReactNode;
}) {
  const regs = useRef<Registration[]>([]);
  // Keys typed while a screen loads its first rows (type-ahead at start-up: `3j` lands on the
  // second call) wait for it, then go in order. Ctrl-C never waits.
  const holds = useRef(0);
  const waiting = useRef<[string, Key][]>([]);
  const registry = useRef<Registry>({
    add(r) {
      regs.current = [...regs.current, r].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
      return () => {
        regs.current = regs.current.filter((x) => x !== r);
      };
    },
    hold() {
      holds.current++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        holds.current--;
        // Released in a commit: dispatch after it, where a key may render.
        if (holds.current === 0 && waiting.current.length > 0) queueMicrotask(() => drain.current());
      };
      // A service that never answers must not keep the keys forever: they go on as they are.
      const timer = setTimeout(release, HOLD_MAX_MS);
      timer.unref?.();
      return release;
    },
  });
  const dispatch = (input: string, key: Key) => {
    // q never waits: quitting needs no data (a screen that holds keys has no text input focused).
    if (holds.current > 0 && commandFor(input, key, ['global']) !== Command.Quit) {
      waiting.current.push([input, key]);
      return;
    }
    // Snapshot: a handler may register or unregister others (opening a dialog) while we iterate.
    for (const r of [...regs.current]) {
      if (r.active.current && r.handler.current(input, key) === true) {
        // Several keys can come in one read (typed ahead of a slow frame): the next one goes to
        // whatever this one opened or focused, so render before it is dispatched.
        renderNow();
        break;
      }
    }
    onKeyDrawn?.();
  };
  const drain = useRef(() => {});
  drain.current = () => {
    while (holds.current === 0 && waiting.current.length > 0) {
      const [input, key] = waiting.current.shift()!;
      dispatch(input, key);
    }
  };
  const dispatchPaste = (text: string) => {
    for (const r of [...regs.current]) {
      if (r.active.current && r.paste.current && r.paste.current(text) === true) {
        renderNow();
        return;
      }
    }
    onUnwantedPaste?.();
  };
  const paste = useRef(dispatchPaste);
  paste.current = dispatchPaste;

  // Ink splits a read at escape sequences, Backspaces and Ctrl-C, but passes a run of plain
  // characters (`jjjjj`, `:calls⏎`) as one string, taking it for pasted text. Pastes come
  // bracketed, on their own channel; so such a run is that many keys, each parsed by Ink and
  // dispatched in order. Listening before useInput's listener (a layout effect runs before its
  // passive one), this sends each character through Ink again and has useInput skip the run.
  const { internal_eventEmitter: inkInput } = useStdin() as ContextType<typeof StdinContext>;
  const skipRun = useRef(false);
  useLayoutEffect(() => {
    const onRaw = (raw: string) => {
      if (raw.startsWith('\x1b')) return;
      const chars = [...raw];
      if (chars.length < 2) return;
      for (const ch of chars) inkInput.emit('input', ch);
      skipRun.current = true;
    };
    // Listening for pastes also tells Ink to keep them off the key channel.
    const onPaste = (text: string) => paste.current(text);
    inkInput.on('input', onRaw);
    inkInput.on('paste', onPaste);
    return () => {
      inkInput.off('input', onRaw);
      inkInput.off('paste', onPaste);
    };
  }, [inkInput]);
  useInput((input, key) => {
    if (skipRun.current) {
      skipRun.current = false;
      return;
    }
    if (commandFor(input, key, ['global']) === Command.ForceQuit) return onForceQuit();
    if (onSuspend && commandFor(input, key, ['global']) === Command.Suspend) return onSuspend();
    dispatch(input, key);
  });
  return <KeypressContext.Provider value={registry.current}>{children}</KeypressContext.Provider>;
}

let seq = 0;

/** Subscribe to keys while `active`; return true from the handler to consume the key. `onPaste` takes pasted text. */
export function useKeypress(handler: KeyHandler, opts: { priority: number; active?: boolean; onPaste?: PasteHandler }) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useKeypress must be used inside <KeypressProvider>');
  const ref = useRef(handler);
  ref.current = handler;
  const paste = useRef(opts.onPaste);
  paste.current = opts.onPaste;
  const active = useRef(opts.active ?? true);
  active.current = opts.active ?? true;
  // Later registrations at equal priority win: the innermost, newest component is on top.
  // A layout effect: registered at commit, so the very next key already reaches a new screen.
  useLayoutEffect(() => registry.add({ priority: opts.priority, seq: ++seq, handler: ref, paste, active }), [registry, opts.priority]);
}

/** While `holding` (a screen loading its first rows), keys wait and then go in order. */
export function useHoldKeys(holding: boolean) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useHoldKeys must be used inside <KeypressProvider>');
  useLayoutEffect(() => (holding ? registry.hold() : undefined), [registry, holding]);
}
