// Bindings with their handlers (after lazygit's GetKeybindings and k9s's KeyActions): a screen or
// component says which commands it handles, in which key contexts, and whether each is enabled
// now. The dispatcher (keypress.tsx) runs the handler of the command a key means there; the
// footer shows what the bindings in front bind and enable; help and the README list the table.
//
//   useBindings(['calls', 'list', 'global'], {
//     [Command.Refresh]: () => actions.loadCalls({ force: true }),
//     [Command.Open]: selected && (() => actions.push({ name: 'call', id: selected.id })),  // off without a row
//   }, { priority: Priority.Screen });
import { createContext, useContext, useLayoutEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { Key } from 'ink';
import { KEYMAP, commandFor, typedText, type Command, type KeyContext } from '../keymap.js';
import { useKeypress, type PasteHandler } from './keypress.js';

/** Runs the command; returning false passes the key on (to the handlers below) as if unbound. */
type BindingHandler = (input: string, key: Key) => boolean | void;
/** Each command's handler, or a falsy value: bound but off for now (the footer leaves it out, the key goes on). */
export type Bindings = Partial<Record<Command, BindingHandler | false | null | undefined>>;

export interface BindingOptions {
  priority: number;
  active?: boolean;
  /** Takes every key, bound or not, and hides the bindings below it from the footer (a dialog, a picker, a busy form). */
  modal?: boolean;
  /** Printable text that no binding here takes (keymap.ts `typedText`): the one input that is not a command. */
  onText?: (text: string) => boolean | void;
  onPaste?: PasteHandler;
}

interface Layer {
  priority: number;
  seq: number;
  commands: readonly Command[];
  modal: boolean;
}

/** The bindings of the mounted, active handlers: what the footer shows. */
class LiveBindings {
  private layers = new Map<object, Layer>();
  private listeners = new Set<() => void>();
  private seq = 0;
  private shown: readonly Command[] | null = null;

  nextSeq = () => ++this.seq;
  set(id: object, layer: Layer | null) {
    if (layer) this.layers.set(id, layer);
    else this.layers.delete(id);
    // From the front: the newest of the highest priority first, down to the first modal layer.
    const front = [...this.layers.values()].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    const shown: Command[] = [];
    for (const l of front) {
      for (const c of l.commands) if (!shown.includes(c)) shown.push(c);
      if (l.modal) break;
    }
    if (this.shown && shown.length === this.shown.length && shown.every((c, i) => c === this.shown![i])) return;
    this.shown = shown;
    for (const fn of this.listeners) fn();
  }
  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };
  /** null until a binding has registered (the first commit): the route's table entries stand in. */
  footer = () => this.shown;
}

const LiveBindingsContext = createContext<LiveBindings | null>(null);

export function BindingsProvider({ children }: { children: ReactNode }) {
  const live = useRef<LiveBindings>(null);
  live.current ??= new LiveBindings();
  return <LiveBindingsContext.Provider value={live.current}>{children}</LiveBindingsContext.Provider>;
}

/** The commands bound and enabled in front (null before the first commit); outside a provider, null. */
export function useLiveCommands(): readonly Command[] | null {
  const live = useContext(LiveBindingsContext);
  const none = () => null;
  return useSyncExternalStore(live?.subscribe ?? (() => () => {}), live?.footer ?? none, live?.footer ?? none);
}

/**
 * Binds commands to handlers in these contexts (a route's, or a component's own), most specific
 * first. A key runs the handler of the command it means there (`commandFor`); a command not bound
 * here, or bound but off, lets the key go on to the handlers below.
 */
export function useBindings(contexts: readonly KeyContext[], bindings: Bindings, opts: BindingOptions) {
  const active = opts.active ?? true;
  const modal = opts.modal ?? false;
  useKeypress(
    (input, key) => {
      const cmd = commandFor(input, key, contexts);
      const run = cmd && bindings[cmd];
      if (run && run(input, key) !== false) return true;
      if (!run && opts.onText) {
        const text = typedText(input, key);
        if (text && opts.onText(text) !== false) return true;
      }
      return modal;
    },
    { priority: opts.priority, active, onPaste: opts.onPaste },
  );

  const live = useContext(LiveBindingsContext);
  const commands = (Object.keys(bindings) as Command[]).filter((c) => bindings[c] && KEYMAP[c].contexts.some((x) => contexts.includes(x)));
  const id = useRef<{ seq: number } | null>(null);
  const shape = `${active}|${modal}|${commands.join()}`;
  useLayoutEffect(() => {
    if (!live) return;
    id.current ??= { seq: live.nextSeq() };
    const [on, isModal, list] = shape.split('|');
    if (on !== 'true') return live.set(id.current, null);
    live.set(id.current, { priority: opts.priority, seq: id.current.seq, commands: (list ? list.split(',') : []) as Command[], modal: isModal === 'true' });
  }, [live, shape, opts.priority]);
  useLayoutEffect(() => () => void (live && id.current && live.set(id.current, null)), [live]);
}
