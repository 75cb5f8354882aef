// One keypress dispatcher with priorities (after gemini-cli's KeypressContext). It reads the
// terminal itself — the stdin stream of Ink's useStdin(), split into keys by ../key-parser.ts — so
// Ink never reads keys. Handlers run highest priority first and the first that returns true
// consumes the key. Ctrl-C never reaches a handler: it always quits; nor does Ctrl-Z, which
// suspends (job control). A bracketed paste (terminal.ts turns the mode on) is one event, for the
// highest handler that takes pastes (a focused text input), never keys.
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useStdin, type Key } from 'ink';
import { StringDecoder } from 'node:string_decoder';
import { unstable_IdlePriority, unstable_scheduleCallback } from 'scheduler';
import { Command, commandFor } from '../keymap.js';
import { createKeyParser, type KeyEvent, type MouseEvent } from '../key-parser.js';

/** Keys wait for a loading screen at most this long (then they go on to it as it is). */
const HOLD_MAX_MS = 5000;
/** A lone ESC is Esc once nothing has followed it for this long (else it starts a sequence, or is Alt). */
const ESC_WAIT_MS = 20;
/** A bracketed paste whose end never comes is taken as it is after this long without input. */
const PASTE_WAIT_MS = 30_000;

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
/** A click or the wheel (--mouse); return true when taken. */
export type MouseHandler = (e: MouseEvent) => boolean | void;

interface Registration {
  priority: number;
  seq: number;
  handler: { current: KeyHandler };
  paste: { current: PasteHandler | undefined };
  mouse?: { current: MouseHandler | undefined };
  /** Read at dispatch time: a render that turns a handler off takes effect before the next key. */
  active: { current: boolean };
}

interface Registry {
  add(r: Registration): () => void;
  /** Keys wait (in order) until every hold is released; returns the release. */
  hold(): () => void;
}

interface Callbacks {
  onForceQuit: () => void;
  onSuspend?: () => void;
  onUnwantedPaste?: () => void;
  onKeyDrawn?: () => void;
}

/**
 * Resolves once React has done what a handler set off, so the next key meets it. A store update
 * (useSyncExternalStore) renders in a microtask; a component's own state set outside a React
 * event, and the effects of what it renders, are tasks in React's scheduler. A task at idle
 * priority in that same scheduler runs after every task of higher priority, those queued while
 * it waits too.
 */
const afterRender = () => new Promise<void>((resolve) => void unstable_scheduleCallback(unstable_IdlePriority, resolve));

/** The keys read and not yet dispatched, the held ones, and the handlers: one per provider. */
class Dispatcher implements Registry {
  private regs: Registration[] = [];
  private holds = 0;
  /** Read, in order, not yet dispatched. */
  private queue: KeyEvent[] = [];
  /** Read while a screen held keys: they go first once it lets go. */
  private held: KeyEvent[] = [];
  private running = false;

  constructor(private readonly callbacks: { current: Callbacks }) {}

  add(r: Registration) {
    this.regs = [...this.regs, r].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    return () => {
      this.regs = this.regs.filter((x) => x !== r);
    };
  }

  hold() {
    this.holds++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.holds--;
      if (this.holds === 0 && this.held.length > 0) {
        this.queue.unshift(...this.held.splice(0));
        // Released in a commit: dispatch after it, where a key may render.
        queueMicrotask(() => void this.pump());
      }
    };
    // A service that never answers must not keep the keys forever: they go on as they are.
    const timer = setTimeout(release, HOLD_MAX_MS);
    timer.unref?.();
    return release;
  }

  /** Keys and pastes as read from the terminal, in order. */
  take(events: KeyEvent[]) {
    for (const e of events) {
      // Ctrl-C quits at once, ahead of keys still queued.
      if ('key' in e && commandFor(e.input, e.key, ['global']) === Command.ForceQuit) return this.callbacks.current.onForceQuit();
      this.queue.push(e);
    }
    void this.pump();
  }

  /** Dispatches the queue in order, each consumed key rendered before the next is dispatched. */
  private async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const e = this.queue.shift()!;
        if ('paste' in e) {
          if (this.paste(e.paste)) await afterRender();
          continue;
        }
        if ('mouse' in e) {
          if (this.mouse(e.mouse)) await afterRender();
          continue;
        }
        const outcome = this.key(e);
        if (outcome === 'taken') await afterRender();
        // Drawn: background work may use the gap before the next key.
        if (outcome === 'taken' || outcome === 'not taken') this.callbacks.current.onKeyDrawn?.();
      }
    } finally {
      this.running = false;
    }
  }

  /** 'taken' when a handler consumed the key (so it may have changed what the next key meets). */
  private key({ input, key }: { input: string; key: Key }): 'taken' | 'not taken' | 'held' | 'suspended' {
    const { onSuspend } = this.callbacks.current;
    if (onSuspend && commandFor(input, key, ['global']) === Command.Suspend) {
      onSuspend();
      return 'suspended';
    }
    // q never waits: quitting needs no data (a screen that holds keys has no text input focused).
    if (this.holds > 0 && commandFor(input, key, ['global']) !== Command.Quit) {
      this.held.push({ input, key });
      return 'held';
    }
    // Snapshot: a handler may register or unregister others (opening a dialog) while we iterate.
    for (const r of [...this.regs]) if (r.active.current && r.handler.current(input, key) === true) return 'taken';
    return 'not taken';
  }

  /** To the screen in front only: a dialog, form or focused input above it takes no clicks, and lets none through. */
  private mouse(e: MouseEvent): boolean {
    for (const r of [...this.regs]) {
      if (!r.active.current) continue;
      if (r.mouse?.current && r.mouse.current(e) === true) return true;
      if (r.priority > Priority.Screen) return false;
    }
    return false;
  }

  private paste(text: string): boolean {
    for (const r of [...this.regs]) if (r.active.current && r.paste.current && r.paste.current(text) === true) return true;
    this.callbacks.current.onUnwantedPaste?.();
    return false;
  }
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
  const callbacks = useRef<Callbacks>({ onForceQuit, onSuspend, onUnwantedPaste, onKeyDrawn });
  callbacks.current = { onForceQuit, onSuspend, onUnwantedPaste, onKeyDrawn };
  const [dispatcher] = useState(() => new Dispatcher(callbacks));

  // Ink's stdin, read here rather than through Ink (no useInput anywhere): raw mode is terminal.ts's
  // from before Ink starts to the end, and around a suspend or an editor it pauses this stream.
  // Asking Ink for raw mode (setRawMode) would have Ink read and parse the same input as well.
  const { stdin } = useStdin();
  useEffect(() => {
    const parser = createKeyParser();
    const decoder = new StringDecoder('utf8');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onData = (chunk: string | Buffer) => {
      clearTimeout(timer);
      dispatcher.take(parser.push(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
      const pending = parser.pending();
      // Nothing more came: a lone ESC is Esc, an unfinished paste is pasted.
      if (pending) timer = setTimeout(() => dispatcher.take(parser.flush()), pending === 'escape' ? ESC_WAIT_MS : PASTE_WAIT_MS);
    };
    stdin.on('data', onData);
    stdin.resume();
    return () => {
      clearTimeout(timer);
      stdin.off('data', onData);
      // Unread, stdin keeps the process alive.
      stdin.pause();
    };
  }, [stdin, dispatcher]);
  return <KeypressContext.Provider value={dispatcher}>{children}</KeypressContext.Provider>;
}

let seq = 0;

/** Subscribe to keys while `active`; return true from the handler to consume the key. `onPaste` takes pasted text. */
export function useKeypress(handler: KeyHandler, opts: { priority: number; active?: boolean; onPaste?: PasteHandler; onMouse?: MouseHandler }) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useKeypress must be used inside <KeypressProvider>');
  const ref = useRef(handler);
  ref.current = handler;
  const paste = useRef(opts.onPaste);
  paste.current = opts.onPaste;
  const mouse = useRef(opts.onMouse);
  mouse.current = opts.onMouse;
  const active = useRef(opts.active ?? true);
  active.current = opts.active ?? true;
  // Later registrations at equal priority win: the innermost, newest component is on top.
  // A layout effect: registered at commit, so the very next key already reaches a new screen.
  useLayoutEffect(() => registry.add({ priority: opts.priority, seq: ++seq, handler: ref, paste, mouse, active }), [registry, opts.priority]);
}

/** While `holding` (a screen loading its first rows), keys wait and then go in order. */
export function useHoldKeys(holding: boolean) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useHoldKeys must be used inside <KeypressProvider>');
  useLayoutEffect(() => (holding ? registry.hold() : undefined), [registry, holding]);
}
