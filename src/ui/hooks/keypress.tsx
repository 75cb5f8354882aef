// One keypress dispatcher with priorities (after gemini-cli's KeypressContext). It reads the
// terminal itself — the stdin stream of Ink's useStdin(), split into keys by ../key-parser.ts — so
// Ink never reads keys. Handlers run highest priority first and the first that returns true
// consumes the key. Ctrl-C never reaches a handler: it always quits; nor does Ctrl-Z, which
// suspends (job control). A bracketed paste (terminal.ts turns the mode on) is one event, for the
// highest handler that takes pastes (a focused text input), never keys.
//
// Type-ahead: keys typed after a key that opens another screen wait, in order, until that screen
// is ready for them, and only then go on, whatever lies between (a chat creating its session, a
// form loading what its pickers offer, a screen's code loading): the dispatcher knows a key opened
// a screen when the route on top changed under it, and the screen is ready once it has bound keys
// of its own and nothing in it waits (useWaitKeys). Until then no key reaches the global keys or
// the screen left behind.
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useStdin, type Key } from 'ink';
import { StringDecoder } from 'node:string_decoder';
import { unstable_IdlePriority, unstable_scheduleCallback } from 'scheduler';
import { Command, type Keymap } from '../keymap.js';
import { useKeymap } from './keymap-context.js';
import { createKeyParser, type KeyEvent, type MouseEvent } from '../key-parser.js';

/** Keys wait for a list's first rows at most this long (then they go on to it as it is). */
const HOLD_MAX_MS = 5000;
/**
 * Keys typed ahead wait for the screen they were typed for at most this long: then they go to it
 * as it is (to a text input on it as text, never to a command), and the keys after them as usual.
 */
const OPEN_MAX_MS = 10_000;
/** Keys held at most: past this many, more are dropped (and said so) rather than kept without end. */
const HELD_MAX = 4096;
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
  /** The route of the screen it is in (routeKey), when it is in one: its screen has bound keys. */
  route?: string;
}

interface Registry {
  add(r: Registration): () => void;
  /** Keys wait (in order) until every hold is released; returns the release. */
  hold(): () => void;
  /** Every key but Ctrl-C and Ctrl-Z waits (in order) until every wait is released; returns the release. */
  wait(): () => void;
  /** The screen in front could not load: keys typed ahead for it go to a text input on it as text, never to a command. */
  fail(): () => void;
}

interface Callbacks {
  /** The keys (Ctrl-C, Ctrl-Z and q are read here, before any handler). */
  keymap: Keymap;
  onForceQuit: () => void;
  onSuspend?: () => void;
  onUnwantedPaste?: () => void;
  onKeyDrawn?: () => void;
  /** Keys typed ahead that nothing took (the screen they were for could not load), or more than the queue keeps. */
  onKeysDropped?: (count: number) => void;
  /** The route on top (its routeKey): a key after which it is another one opened a screen. */
  front?: () => string;
}

/** A key or paste read; `ahead`: held for a screen that was not ready, `expired`: that screen never got ready in time. */
type Queued = KeyEvent & { ahead?: boolean; expired?: boolean };

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
  /** Lists loading their first rows: keys but `q` wait. */
  private holds = 0;
  /** Screens not ready for keys (useWaitKeys): every key waits. */
  private waits = 0;
  /** Screens in front that could not load (useWaitKeys' failed). */
  private failures = 0;
  /** Set from a key that opened another screen until the screen in front has bound keys of its own (and cleared after OPEN_MAX_MS). */
  private opening: ReturnType<typeof setTimeout> | undefined;
  /** Read, in order, not yet dispatched. */
  private queue: Queued[] = [];
  /** Read while keys were held: they go first once nothing holds them. */
  private held: Queued[] = [];
  /** Keys typed ahead that a screen that could not load did not take, to be said once the queue is through. */
  private dropped = 0;
  private running = false;

  constructor(private readonly callbacks: { current: Callbacks }) {}

  add(r: Registration) {
    this.regs = [...this.regs, r].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    // The screen a key opened has bound its keys: what waited for it goes on.
    if (this.opening !== undefined && r.route !== undefined && r.route === this.callbacks.current.front?.()) this.unhold();
    return () => {
      this.regs = this.regs.filter((x) => x !== r);
    };
  }

  hold() {
    this.holds++;
    return this.counted(HOLD_MAX_MS, () => this.holds--);
  }

  wait() {
    this.waits++;
    return this.counted(OPEN_MAX_MS, () => this.waits--, true);
  }

  fail() {
    this.failures++;
    return this.counted(undefined, () => this.failures--);
  }

  /** A release for something counted (undone once), and after `maxMs` by itself; either lets held keys go. */
  private counted(maxMs: number | undefined, undo: () => void, expires = false) {
    let released = false;
    const release = (expired = false) => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      undo();
      if (expired) for (const e of this.held) if (e.ahead) e.expired = true;
      this.unhold();
    };
    // A service that never answers must not keep the keys forever: they go on as they are.
    const timer = maxMs === undefined ? undefined : setTimeout(() => release(expires), maxMs);
    timer?.unref?.();
    return () => release();
  }

  /** Puts the held keys back in front of the queue, to be held again if something still holds them. */
  private unhold() {
    if (this.held.length === 0) return;
    // Released in a commit: dispatch after it, where a key may render (and where a screen that
    // failed has said so in the same commit).
    queueMicrotask(() => {
      if (this.held.length === 0) return;
      this.queue.unshift(...this.held.splice(0));
      void this.pump();
    });
  }

  /** A key opened another screen: keys wait until the screen in front (it, or the one that took its place) has bound its own. */
  private open() {
    clearTimeout(this.opening);
    const timer = setTimeout(() => {
      if (this.opening !== timer) return;
      this.opening = undefined;
      for (const e of this.held) if (e.ahead) e.expired = true;
      this.unhold();
    }, OPEN_MAX_MS);
    timer.unref?.();
    this.opening = timer;
  }

  /** Not ready for keys: the screen a key opened has bound none yet, or something in it waits. */
  private notReady(): boolean {
    if (this.opening !== undefined) {
      const front = this.callbacks.current.front?.();
      if (!this.regs.some((r) => r.route === front && r.active.current)) return true;
      clearTimeout(this.opening);
      this.opening = undefined;
    }
    return this.waits > 0;
  }

  /** Keeps a key for later; past HELD_MAX it is dropped. */
  private keep(e: Queued) {
    if (this.held.length >= HELD_MAX) this.dropped++;
    else this.held.push(e);
  }

  /** Keys and pastes as read from the terminal, in order. */
  take(events: KeyEvent[]) {
    for (const e of events) {
      // Ctrl-C quits at once, ahead of keys still queued.
      if ('key' in e && this.callbacks.current.keymap.commandFor(e.input, e.key, ['global']) === Command.ForceQuit) return this.callbacks.current.onForceQuit();
      if (this.queue.length + this.held.length >= HELD_MAX) this.dropped++;
      else this.queue.push(e);
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
        // Typed for a screen that is not ready yet: it waits (a paste and a click too).
        if (this.notReady() && !this.suspends(e)) {
          this.keep({ ...e, ahead: true });
          continue;
        }
        const asText = !!e.ahead && (this.failures > 0 || !!e.expired);
        const before = this.callbacks.current.front?.();
        const outcome = 'paste' in e ? this.paste(e.paste, asText) : 'mouse' in e ? this.mouse(e.mouse) : this.key(e, asText);
        if (outcome === 'held' || outcome === 'suspended') continue;
        if (outcome === 'taken') await afterRender();
        else if (asText) this.dropped++;
        // Drawn: background work may use the gap before the next key.
        if ('key' in e) this.callbacks.current.onKeyDrawn?.();
        // The key opened another screen: the keys after it are for that one.
        const after = this.callbacks.current.front?.();
        if (outcome === 'taken' && after !== before) this.open();
      }
      if (this.dropped > 0) {
        const n = this.dropped;
        this.dropped = 0;
        this.callbacks.current.onKeysDropped?.(n);
      }
    } finally {
      this.running = false;
    }
  }

  /** Ctrl-Z suspends even while keys wait. */
  private suspends(e: KeyEvent): boolean {
    return 'key' in e && !!this.callbacks.current.onSuspend && this.callbacks.current.keymap.commandFor(e.input, e.key, ['global']) === Command.Suspend;
  }

  /**
   * 'taken' when a handler consumed the key (so it may have changed what the next key meets).
   * `asText`: typed ahead for a screen that could not load (or not in time): a text input on
   * it may take it as text; no command runs from it, neither the global keys (a `q` meant for a
   * chat's input does not quit) nor the screen's own (its `r` does not retry).
   */
  private key(e: Queued & { input: string; key: Key }, asText: boolean): 'taken' | 'not taken' | 'held' | 'suspended' {
    const { input, key } = e;
    const { onSuspend } = this.callbacks.current;
    if (onSuspend && this.callbacks.current.keymap.commandFor(input, key, ['global']) === Command.Suspend) {
      onSuspend();
      return 'suspended';
    }
    // q never waits for rows: quitting needs no data (a screen that holds keys has no text input
    // focused). Typed ahead for a screen, it was text for it as much as a command: it waits.
    if (this.holds > 0 && (e.ahead || this.callbacks.current.keymap.commandFor(input, key, ['global']) !== Command.Quit)) {
      this.keep(e);
      return 'held';
    }
    // Snapshot: a handler may register or unregister others (opening a dialog) while we iterate.
    for (const r of [...this.regs]) {
      if (asText && r.priority < Priority.TextInput) continue;
      if (r.active.current && r.handler.current(input, key) === true) return 'taken';
    }
    return 'not taken';
  }

  /** To the screen in front only: a dialog, form or focused input above it takes no clicks, and lets none through. */
  private mouse(e: MouseEvent): 'taken' | 'not taken' {
    for (const r of [...this.regs]) {
      if (!r.active.current) continue;
      if (r.mouse?.current && r.mouse.current(e) === true) return 'taken';
      if (r.priority > Priority.Screen) return 'not taken';
    }
    return 'not taken';
  }

  private paste(text: string, asText: boolean): 'taken' | 'not taken' {
    for (const r of [...this.regs]) if (r.active.current && r.paste.current && r.paste.current(text) === true) return 'taken';
    if (!asText) this.callbacks.current.onUnwantedPaste?.();
    return 'not taken';
  }
}

const KeypressContext = createContext<Registry | null>(null);

/** Given by the app around the screen in view: its route's key, so the footer and the dispatcher know whose keys are bound. */
export const ScreenRouteContext = createContext<string | undefined>(undefined);

export function KeypressProvider({
  onForceQuit,
  onSuspend,
  onUnwantedPaste,
  onKeyDrawn,
  onKeysDropped,
  front,
  children,
}: {
  onForceQuit: () => void;
  /** Ctrl-Z: hand the terminal back and stop until `fg` (without it, Ctrl-Z is a key like any). */
  onSuspend?: () => void;
  /** A paste that no focused input takes (a list has focus): its letters are not commands. */
  onUnwantedPaste?: () => void;
  /** After each key is dispatched and its frame rendered: background work may use the gap before the next. */
  onKeyDrawn?: () => void;
  /** Keys typed ahead that were dropped: nothing took them on a screen that could not load, or the queue was full. */
  onKeysDropped?: (count: number) => void;
  /** The route on top (its routeKey): keys typed after a key that changed it wait until its screen is ready. */
  front?: () => string;
  children: ReactNode;
}) {
  const keymap = useKeymap();
  const callbacks = useRef<Callbacks>({ keymap, onForceQuit, onSuspend, onUnwantedPaste, onKeyDrawn, onKeysDropped, front });
  callbacks.current = { keymap, onForceQuit, onSuspend, onUnwantedPaste, onKeyDrawn, onKeysDropped, front };
  const [dispatcher] = useState(() => new Dispatcher(callbacks));

  // Ink's stdin, read here rather than through Ink (no useInput anywhere): raw mode is terminal.ts's
  // from before Ink starts to the end, and around a suspend or an editor it pauses this stream.
  // Asking Ink for raw mode (setRawMode) would have Ink read and parse the same input as well.
  const { stdin } = useStdin();
  useEffect(() => {
    // The keymap of the moment: the user's keys file may bind an Alt key the parser must keep whole.
    const parser = createKeyParser({ isAltChar: (ch) => callbacks.current.keymap.isAltChar(ch) });
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
  const route = useContext(ScreenRouteContext);
  // Later registrations at equal priority win: the innermost, newest component is on top.
  // A layout effect: registered at commit, so the very next key already reaches a new screen.
  useLayoutEffect(() => registry.add({ priority: opts.priority, seq: ++seq, handler: ref, paste, mouse, active, route }), [registry, opts.priority, route]);
}

/**
 * A screen not ready for keys (a chat creating its session, a form loading what its pickers offer):
 * while 'waiting', every key but Ctrl-C and Ctrl-Z waits, in order, then goes to it. 'failed' (it
 * could not load, and says so): the keys that waited for it go to a text input on it as text,
 * never to a command (global or its own), and those no input takes are dropped, and said so. The first frame of a
 * screen a key opened waits by itself until the screen has bound keys; this is for what comes after.
 */
export function useWaitKeys(state: 'waiting' | 'failed' | 'ready') {
  // Outside the dispatcher (a component rendered alone) there are no keys to keep.
  const registry = useContext(KeypressContext);
  useLayoutEffect(() => {
    if (!registry || state === 'ready') return undefined;
    return state === 'waiting' ? registry.wait() : registry.fail();
  }, [registry, state]);
}

/** While `holding` (a screen loading its first rows), keys wait and then go in order; `q` does not. */
export function useHoldKeys(holding: boolean) {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useHoldKeys must be used inside <KeypressProvider>');
  useLayoutEffect(() => (holding ? registry.hold() : undefined), [registry, holding]);
}
