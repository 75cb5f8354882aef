// Bindings with their handlers (after lazygit's GetKeybindings and k9s's KeyActions): a screen or
// component says which commands it handles, in which key contexts, and whether each is enabled
// now. The dispatcher (keypress.tsx) runs the handler of the command a key means there; the
// footer shows what the bindings in front bind and enable; help and the README list the table.
//
//   useBindings(['calls', 'list', 'global'], {
//     [Command.Refresh]: () => actions.loadCalls({ force: true }),
//     [Command.Open]: selected && (() => actions.push({ name: 'call', id: selected.id })),  // off without a row
//     [Command.RawJson]: { disabled: 'no call here' },  // off, and says why: footer, help, and a flash when pressed
//   }, { priority: Priority.Screen });
import { createContext, useContext, useLayoutEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { Key } from 'ink';
import { typedText, type CommandId, type KeyContext } from '../keymap.js';
import { useKeymap } from './keymap-context.js';
import { ScreenRouteContext, useKeypress, type MouseHandler, type PasteHandler } from './keypress.js';

/** Runs the command; returning false passes the key on (to the handlers below) as if unbound. */
type BindingHandler = (input: string, key: Key) => boolean | void;
/**
 * Each command's handler; a falsy value: bound but off for now (the footer leaves it out, the key
 * goes on); `{ disabled }`: off, and why (lazygit's DisabledReason): the footer shows the key with
 * the reason, and pressing it flashes the reason.
 */
export type Bindings = Partial<Record<CommandId, BindingHandler | { disabled: string } | false | null | undefined>>;

export interface BindingOptions {
  priority: number;
  active?: boolean;
  /** Takes every key, bound or not, and hides the bindings below it from the footer (a dialog, a picker, a busy form). */
  modal?: boolean;
  /** Printable text that no binding here takes (keymap.ts `typedText`): the one input that is not a command. */
  onText?: (text: string) => boolean | void;
  onPaste?: PasteHandler;
  onMouse?: MouseHandler;
}

interface Layer {
  priority: number;
  seq: number;
  commands: readonly CommandId[];
  /** Commands of `commands` that are off, with why. */
  disabled: ReadonlyMap<string, string>;
  modal: boolean;
  /** The route of the screen it is in (routeKey), when it is in one. */
  route?: string;
}

/** What the footer reads: the commands in front (those off with why), and the routes whose screens have bound keys. */
interface Shown {
  commands: readonly CommandId[];
  disabled: ReadonlyMap<string, string>;
  routes: readonly (string | undefined)[];
  /** The commands end at a modal layer of no screen (a dialog drawn over any): they are right whatever screen is under it. */
  overlay: boolean;
}

/** The bindings of the mounted, active handlers: what the footer shows. */
class LiveBindings {
  private layers = new Map<object, Layer>();
  private listeners = new Set<() => void>();
  private seq = 0;
  private shown: Shown | null = null;

  nextSeq = () => ++this.seq;
  set(id: object, layer: Layer | null) {
    if (layer) this.layers.set(id, layer);
    else this.layers.delete(id);
    // From the front: the newest of the highest priority first, down to the first modal layer.
    const front = [...this.layers.values()].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    const commands: CommandId[] = [];
    const disabled = new Map<string, string>();
    let overlay = false;
    for (const l of front) {
      for (const c of l.commands) {
        if (commands.includes(c)) continue;
        commands.push(c);
        if (l.disabled.has(c)) disabled.set(c, l.disabled.get(c)!);
      }
      if (l.modal) {
        overlay = l.route === undefined;
        break;
      }
    }
    const routes = [...new Set(front.map((l) => l.route))];
    const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    const sameOff = this.shown && this.shown.disabled.size === disabled.size && [...disabled].every(([c, r]) => this.shown!.disabled.get(c) === r);
    if (this.shown && sameOff && same(commands, this.shown.commands) && same(routes, this.shown.routes) && overlay === this.shown.overlay) return;
    this.shown = { commands, disabled, routes, overlay };
    for (const fn of this.listeners) fn();
  }
  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };
  footer = () => this.shown;
}

const LiveBindingsContext = createContext<LiveBindings | null>(null);

/** In a read-only console: says why a write command's key did nothing (the keymap's `write` bindings). */
type RefuseWrite = (hint: string) => void;
const RefuseWriteContext = createContext<RefuseWrite | null>(null);
/** Says why a key that is off did nothing (its `{ disabled }` binding). */
type SayDisabled = (hint: string, reason: string) => void;
const SayDisabledContext = createContext<SayDisabled | null>(null);

/** Says why a write did nothing in a read-only console; null when writes are allowed (the palette's writes). */
export function useRefuseWrite(): RefuseWrite | null {
  return useContext(RefuseWriteContext);
}

export function BindingsProvider({ children, refuseWrite, sayDisabled }: { children: ReactNode; refuseWrite?: RefuseWrite; sayDisabled?: SayDisabled }) {
  const live = useRef<LiveBindings>(null);
  live.current ??= new LiveBindings();
  return (
    <LiveBindingsContext.Provider value={live.current}>
      <RefuseWriteContext.Provider value={refuseWrite ?? null}>
        <SayDisabledContext.Provider value={sayDisabled ?? null}>{children}</SayDisabledContext.Provider>
      </RefuseWriteContext.Provider>
    </LiveBindingsContext.Provider>
  );
}

/**
 * The commands bound and enabled in front, once the screen of `route` (its routeKey) has bound its
 * keys, or when a dialog over any screen takes every key (the screen's own keys may all be off
 * while it asks); before that (the first commit of a screen, whose layout effects have not run
 * yet) null, and the caller shows the route's table entries rather than the screen that is leaving.
 */
export function useLiveCommands(route: string): Pick<Shown, 'commands' | 'disabled'> | null {
  const live = useContext(LiveBindingsContext);
  const none = () => null;
  const shown = useSyncExternalStore(live?.subscribe ?? (() => () => {}), live?.footer ?? none, live?.footer ?? none);
  return shown && (shown.overlay || shown.routes.includes(route)) ? shown : null;
}

/**
 * Binds commands to handlers in these contexts (a route's, or a component's own), most specific
 * first. A key runs the handler of the command it means there (`commandFor`); a command not bound
 * here, or bound but off, lets the key go on to the handlers below.
 */
export function useBindings(contexts: readonly KeyContext[], bindings: Bindings, opts: BindingOptions) {
  const active = opts.active ?? true;
  const modal = opts.modal ?? false;
  const refuseWrite = useContext(RefuseWriteContext);
  const sayDisabled = useContext(SayDisabledContext);
  const keymap = useKeymap();
  useKeypress(
    (input, key) => {
      const cmd = keymap.commandFor(input, key, contexts);
      const run = cmd && bindings[cmd];
      // Read-only: a write's key is refused here, the one place every key passes, before its handler opens anything.
      if (run && refuseWrite && keymap.writes(cmd)) {
        refuseWrite(keymap.binding(cmd)!.hint);
        return true;
      }
      if (run && typeof run === 'object') {
        sayDisabled?.(keymap.binding(cmd)!.hint, run.disabled);
        return true;
      }
      if (run && run(input, key) !== false) return true;
      if (!run && opts.onText) {
        const text = typedText(input, key);
        if (text && opts.onText(text) !== false) return true;
      }
      return modal;
    },
    { priority: opts.priority, active, onPaste: opts.onPaste, onMouse: opts.onMouse },
  );

  const live = useContext(LiveBindingsContext);
  const route = useContext(ScreenRouteContext);
  const commands = Object.keys(bindings).filter(
    (c) => bindings[c] && keymap.binding(c)?.contexts.some((x) => contexts.includes(x)) && !(refuseWrite && keymap.writes(c)),
  );
  const off = commands.flatMap((c) => {
    const b = bindings[c];
    return b && typeof b === 'object' ? [[c, b.disabled] as const] : [];
  });
  const id = useRef<{ seq: number } | null>(null);
  // What the footer shows, as one string: the layout effect runs again only when it changes.
  const shape = JSON.stringify([active, modal, commands, off]);
  useLayoutEffect(() => {
    if (!live) return;
    id.current ??= { seq: live.nextSeq() };
    const [on, isModal, list, reasons] = JSON.parse(shape) as [boolean, boolean, string[], [string, string][]];
    if (!on) return live.set(id.current, null);
    live.set(id.current, { priority: opts.priority, seq: id.current.seq, commands: list, disabled: new Map(reasons), modal: isModal, route });
  }, [live, shape, route, opts.priority]);
  useLayoutEffect(() => () => void (live && id.current && live.set(id.current, null)), [live]);
}
