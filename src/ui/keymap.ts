// Key bindings are data: one table of commands → keys, the contexts where each is active and a
// hint. The footer, the `?` help screen and the dispatcher all read one `Keymap` (this table, the
// routes' own keys and digits from their specs, ui/screens/routes.ts, and the user's keys file,
// keys-file.ts), which reaches components through React context (hooks/keymap-context.tsx);
// screens and components bind commands to handlers with `useBindings` (hooks/bindings.tsx).
//
// Which command a key means depends on the contexts alone: they are searched in the order given
// (a route's most specific first, routes.ts), and within one context no two commands share a key
// (test/ui/keymap.test.ts checks both). The order of this table is only the order keys are listed in.
import type { Key } from 'ink';

export enum Command {
  Quit = 'quit',
  ForceQuit = 'forceQuit',
  Suspend = 'suspend',
  Back = 'back',
  PreviousView = 'previousView',
  LastMessage = 'lastMessage',
  Palette = 'palette',
  Filter = 'filter',
  Help = 'help',
  Up = 'up',
  Down = 'down',
  Top = 'top',
  Bottom = 'bottom',
  PageUp = 'pageUp',
  PageDown = 'pageDown',
  Open = 'open',
  Refresh = 'refresh',
  RawJson = 'rawJson',
  Sort = 'sort',
  // In a chat conversation (the input line has the printable keys)
  NewLine = 'newLine',
  // In forms, pickers and dialogs
  NextField = 'nextField',
  PrevField = 'prevField',
  Submit = 'submit',
  Cancel = 'cancel',
  Accept = 'accept',
  Toggle = 'toggle',
  OptionPrevious = 'optionPrevious',
  Choose = 'choose',
  ChooseByNumber = 'chooseByNumber',
  PreviousItem = 'previousItem',
  NextItem = 'nextItem',
  Confirm = 'confirm',
  Decline = 'decline',
  Complete = 'complete',
  FieldEnter = 'fieldEnter',
  PreviousChoice = 'previousChoice',
  NextChoice = 'nextChoice',
  // In a single-line text input (it has the printable keys too)
  CursorLeft = 'cursorLeft',
  CursorRight = 'cursorRight',
  LineStart = 'lineStart',
  LineEnd = 'lineEnd',
  DeleteBefore = 'deleteBefore',
  DeleteAt = 'deleteAt',
  WordLeft = 'wordLeft',
  WordRight = 'wordRight',
  KillToLineStart = 'killToLineStart',
  KillToLineEnd = 'killToLineEnd',
  KillWordBefore = 'killWordBefore',
  LineUp = 'lineUp',
  LineDown = 'lineDown',
  LineBreak = 'lineBreak',
}

/**
 * A command: one of the table's, or a key a route's spec declares (its `keys`, or `go…` for its
 * digit), named as the spec names it.
 */
export type CommandId = Command | (string & {});

/** Where a binding is live. Screens declare the contexts they are in; a route may bring its own (any name). */
export type KeyContext = BaseContext | (string & {});

type BaseContext =
  | 'global'
  | 'list'
  | 'detail'
  // Scrolled text with nothing to open or refresh (help, raw JSON, a YAML review)
  | 'scroll'
  | 'help'
  | 'assistants'
  | 'assistant'
  | 'numbers'
  | 'number'
  | 'calls'
  | 'call'
  // A record's raw JSON (`y`)
  | 'json'
  | 'search'
  | 'stats'
  | 'files'
  | 'file'
  | 'sessions'
  | 'chat'
  | 'review'
  | 'tests'
  // The saved profiles (`:profiles`)
  | 'profiles'
  | 'form'
  | 'picker'
  | 'dialog'
  | 'palette'
  // A one-line question under a screen (a session id, a new chat's name, the list filter)
  | 'prompt'
  | 'input';

type KeyName =
  'escape' | 'return' | 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'tab' | 'backspace' | 'delete';

export interface KeyDescriptor {
  /** A printable character, matched exactly (case-sensitive). */
  char?: string;
  /** A named key. */
  key?: KeyName;
  ctrl?: boolean;
  /** Alt (Meta): ESC before the key. */
  alt?: boolean;
  shift?: boolean;
}

export interface Binding {
  keys: KeyDescriptor[];
  /** The user's keys for some of its contexts (keys.yaml, ui/keys-file.ts), in place of `keys` there. */
  keysIn?: Partial<Record<KeyContext, KeyDescriptor[]>>;
  /** How help and the footer write the keys, when not each key joined by / (1-9). */
  label?: string;
  contexts: KeyContext[];
  /** Short label for the footer and help. */
  hint: string;
  /**
   * Shown in the footer (not only in help), with a priority: when the hints don't fit the width
   * the lowest go first. `Footer.Always` hints (help, command) are kept at any width.
   */
  footer?: number;
  /** Changes something (the service, or a local file): refused in a read-only console, and left out of its footer. */
  write?: true;
}

/** Footer priorities: higher stays longer on a narrow terminal. */
export const Footer = { Low: 1, Normal: 2, High: 3, Always: 9 } as const;

/** The keys the console has whatever its routes: a route's own keys and digit come from its spec. */
const BASE_BINDINGS: Readonly<Record<Command, Binding>> = {
  [Command.ForceQuit]: { keys: [{ char: 'c', ctrl: true }], contexts: ['global'], hint: 'quit (always)' },
  [Command.Suspend]: { keys: [{ char: 'z', ctrl: true }], contexts: ['global'], hint: 'suspend (fg resumes)' },
  [Command.Quit]: { keys: [{ char: 'q' }], contexts: ['global'], hint: 'quit', footer: Footer.Low },
  [Command.Back]: { keys: [{ key: 'escape' }], contexts: ['global'], hint: 'back', footer: Footer.High },
  [Command.PreviousView]: { keys: [{ char: '-' }], contexts: ['global'], hint: 'previous view' },
  [Command.LastMessage]: { keys: [{ char: '!' }], contexts: ['global'], hint: 'the last message, whole' },
  [Command.Palette]: { keys: [{ char: ':' }], contexts: ['global'], hint: 'command', footer: Footer.Always },
  [Command.Filter]: { keys: [{ char: '/' }], contexts: ['list', 'help', 'picker'], hint: 'filter', footer: Footer.Normal },
  [Command.Help]: { keys: [{ char: '?' }], contexts: ['global'], hint: 'help', footer: Footer.Always },
  [Command.Up]: { keys: [{ char: 'k' }, { key: 'upArrow' }], contexts: ['list', 'detail', 'scroll'], hint: 'up' },
  [Command.Down]: { keys: [{ char: 'j' }, { key: 'downArrow' }], contexts: ['list', 'detail', 'scroll'], hint: 'down' },
  [Command.Top]: { keys: [{ char: 'g' }, { key: 'home' }], contexts: ['list', 'detail', 'scroll'], hint: 'top' },
  [Command.Bottom]: { keys: [{ char: 'G' }, { key: 'end' }], contexts: ['list', 'detail', 'scroll'], hint: 'bottom' },
  [Command.PageUp]: { keys: [{ key: 'pageUp' }, { char: 'b', ctrl: true }], contexts: ['list', 'detail', 'scroll', 'chat', 'picker'], hint: 'page up' },
  [Command.PageDown]: { keys: [{ key: 'pageDown' }, { char: 'f', ctrl: true }], contexts: ['list', 'detail', 'scroll', 'chat', 'picker'], hint: 'page down' },
  [Command.Open]: { keys: [{ key: 'return' }], contexts: ['list'], hint: 'open', footer: Footer.High },
  [Command.Refresh]: { keys: [{ char: 'r' }], contexts: ['list', 'detail'], hint: 'refresh', footer: Footer.Low },
  [Command.RawJson]: { keys: [{ char: 'y' }], contexts: ['list', 'detail'], hint: 'raw JSON' },

  // Live in each list route's own context (PER_LIST), not in `list`: keys.yaml remaps it per list.
  [Command.Sort]: { keys: [{ char: 'O' }], contexts: [], hint: 'sort: next column / direction', footer: Footer.Low },
  [Command.NewLine]: {
    keys: [
      { key: 'return', alt: true },
      { char: 'j', ctrl: true },
    ],
    contexts: ['chat', 'input'],
    hint: 'new line in the message',
    footer: Footer.Low,
  },
  [Command.NextField]: { keys: [{ key: 'tab', shift: false }, { key: 'downArrow' }], contexts: ['form'], hint: 'next field', footer: Footer.Normal },
  [Command.PrevField]: { keys: [{ key: 'tab', shift: true }, { key: 'upArrow' }], contexts: ['form'], hint: 'previous field' },
  [Command.OptionPrevious]: { keys: [{ key: 'leftArrow' }], contexts: ['form'], hint: 'previous option' },
  [Command.Toggle]: { keys: [{ key: 'rightArrow' }, { char: ' ' }], contexts: ['form', 'picker'], hint: 'next option / toggle', footer: Footer.Normal },
  [Command.Submit]: { keys: [{ char: 's', ctrl: true }], contexts: ['form', 'picker'], hint: 'save', footer: Footer.High },
  [Command.FieldEnter]: { keys: [{ key: 'return' }], contexts: ['form'], hint: 'next field (a choice: its options; the last row: save)' },
  [Command.PreviousItem]: { keys: [{ char: 'k' }, { key: 'upArrow' }], contexts: ['picker'], hint: 'previous item (k types while filtering)' },
  [Command.NextItem]: { keys: [{ char: 'j' }, { key: 'downArrow' }], contexts: ['picker'], hint: 'next item (j types while filtering)' },
  [Command.PreviousChoice]: { keys: [{ char: 'k' }, { key: 'upArrow' }], contexts: ['dialog'], hint: 'previous choice' },
  [Command.NextChoice]: { keys: [{ char: 'j' }, { key: 'downArrow' }], contexts: ['dialog'], hint: 'next choice' },
  [Command.Choose]: { keys: [{ key: 'return' }], contexts: ['picker', 'dialog'], hint: 'choose', footer: Footer.High },
  [Command.ChooseByNumber]: {
    keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((char) => ({ char })),
    label: '1-9',
    contexts: ['dialog'],
    hint: 'choose by its number',
  },
  [Command.Accept]: { keys: [{ key: 'return' }], contexts: ['palette', 'prompt'], hint: 'accept', footer: Footer.High },
  [Command.Cancel]: { keys: [{ key: 'escape' }], contexts: ['form', 'picker', 'dialog', 'palette', 'prompt'], hint: 'cancel', footer: Footer.High },
  [Command.Confirm]: { keys: [{ char: 'y' }], contexts: ['dialog'], hint: 'yes', footer: Footer.High },
  [Command.Decline]: { keys: [{ char: 'n' }], contexts: ['dialog'], hint: 'no', footer: Footer.High },
  [Command.Complete]: { keys: [{ key: 'tab' }], contexts: ['palette', 'input'], hint: 'complete', footer: Footer.Normal },
  [Command.CursorLeft]: { keys: [{ key: 'leftArrow' }], contexts: ['input'], hint: 'cursor left' },
  [Command.CursorRight]: { keys: [{ key: 'rightArrow' }], contexts: ['input'], hint: 'cursor right' },
  [Command.LineStart]: { keys: [{ key: 'home' }, { char: 'a', ctrl: true }], contexts: ['input'], hint: 'start of the line' },
  [Command.LineEnd]: { keys: [{ key: 'end' }, { char: 'e', ctrl: true }], contexts: ['input'], hint: 'end of the line' },
  [Command.DeleteBefore]: { keys: [{ key: 'backspace' }], contexts: ['input', 'picker'], hint: 'delete before the cursor' },
  [Command.DeleteAt]: { keys: [{ key: 'delete' }], contexts: ['input', 'picker'], hint: 'delete at the cursor' },
  [Command.WordLeft]: {
    keys: [
      { key: 'leftArrow', alt: true },
      { char: 'b', alt: true },
    ],
    contexts: ['input'],
    hint: 'word left',
  },
  [Command.WordRight]: {
    keys: [
      { key: 'rightArrow', alt: true },
      { char: 'f', alt: true },
    ],
    contexts: ['input'],
    hint: 'word right',
  },
  [Command.KillToLineStart]: { keys: [{ char: 'u', ctrl: true }], contexts: ['input'], hint: 'delete to the start of the line' },
  [Command.KillToLineEnd]: { keys: [{ char: 'k', ctrl: true }], contexts: ['input'], hint: 'delete to the end of the line' },
  [Command.KillWordBefore]: {
    keys: [
      { char: 'w', ctrl: true },
      { key: 'backspace', alt: true },
    ],
    contexts: ['input'],
    hint: 'delete the word before the cursor',
  },
  [Command.LineUp]: { keys: [{ key: 'upArrow' }], contexts: ['input'], hint: 'row up (several lines)' },
  [Command.LineDown]: { keys: [{ key: 'downArrow' }], contexts: ['input'], hint: 'row down (several lines)' },
  [Command.LineBreak]: { keys: [{ key: 'return' }], contexts: ['input'], hint: 'new line (a prompt field)' },
};

/** The keys of a binding in one context: the user's there, else its own. */
export function keysAt(b: Binding, context: KeyContext | undefined): KeyDescriptor[] {
  return (context && b.keysIn?.[context]) || b.keys;
}

/** A help section: its title and the contexts whose keys it lists. */
export interface HelpSection {
  title: string;
  contexts: KeyContext[];
}

/** Help's first sections, before the routes' own (their specs' `help`). */
const HELP_HEAD: HelpSection[] = [
  { title: 'Everywhere', contexts: ['global'] },
  { title: 'Lists and details', contexts: ['list', 'detail', 'scroll', 'help', 'json'] },
];
/** Help's last sections, after the routes' own. */
const HELP_TAIL: HelpSection[] = [
  { title: 'Forms, pickers, dialogs', contexts: ['form', 'picker', 'dialog', 'palette', 'prompt'] },
  { title: 'Text inputs', contexts: ['input'] },
];

/** What a route's spec says about its keys (ui/screens/route-spec.ts): read to make the keymap. */
export interface RouteKeys {
  name: string;
  /** Its contexts, its own first: its keys live in that one. */
  contexts: readonly KeyContext[];
  /** Its digit (or other global key): opens it in place of the screen on top. */
  jump?: string;
  /** Its own keys, by command name. */
  keys?: Readonly<Record<string, Omit<Binding, 'contexts' | 'keysIn'>>>;
  /** The help section its own context is listed in (routes with the same title share one). */
  help?: string;
}

/**
 * Keys every list has (its component binds them), live in each route's own context when the route
 * is a list, as the route's own keys are: so keys.yaml remaps them for one list (`calls: { sort: S }`)
 * and help lists them in the route's section.
 */
const PER_LIST: readonly string[] = [Command.Sort];

/** The command a route's digit is bound to: `goCalls` for `calls`. */
export function jumpCommand(route: string): string {
  return `go${route.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase())}`;
}

/** What routes sharing a command must agree on: its keys, label, hint, footer place and whether it writes. */
const bindingShape = (b: Omit<Binding, 'contexts' | 'keysIn'>) => JSON.stringify([b.keys, b.label, b.hint, b.footer, b.write]);

/** The bindings and help sections of these routes over the base table, in the routes' order. */
export function routeBindings(
  routes: readonly RouteKeys[],
  base: Readonly<Record<string, Binding>> = BASE_BINDINGS,
): { table: Record<string, Binding>; sections: HelpSection[] } {
  const table: Record<string, Binding> = { ...base };
  /** The routes' own commands, each with what its routes must agree on. */
  const shared: Record<string, string> = {};
  const own: HelpSection[] = [];
  for (const r of routes) {
    if (r.jump) table[jumpCommand(r.name)] = { keys: [{ char: r.jump }], contexts: ['global'], hint: r.name };
    const context = r.contexts[0];
    for (const command of r.contexts.includes('list') && context ? PER_LIST : []) {
      const b = table[command];
      if (b && !b.contexts.includes(context)) table[command] = { ...b, contexts: [...b.contexts, context] };
    }
    for (const [command, b] of Object.entries(r.keys ?? {})) {
      const had = table[command];
      // Routes may share a command (a list and its record's page, `e` on both): one binding, live in
      // each one's context, so keys.yaml remaps it by one name; they must agree on what it is.
      if (had && !(command in shared)) throw new Error(`route ${r.name}: its key "${command}" is a command already`);
      if (had && shared[command] !== bindingShape(b)) throw new Error(`route ${r.name}: its key "${command}" is another route's, with other keys or hint`);
      if (had) table[command] = { ...had, contexts: had.contexts.includes(context) ? had.contexts : [...had.contexts, context] };
      else table[command] = { ...b, contexts: [context] };
      shared[command] = bindingShape(b);
    }
    if (r.help && context) {
      const section = own.find((s) => s.title === r.help);
      if (!section) own.push({ title: r.help, contexts: [context] });
      else if (!section.contexts.includes(context)) section.contexts.push(context);
    }
  }
  return { table, sections: [...HELP_HEAD, ...own, ...HELP_TAIL] };
}

/**
 * The keys the console reads: every command's binding and help's sections. Made once at start
 * (the routes' keys, then the user's keys file) and handed down, never changed in place.
 */
export class Keymap {
  constructor(
    readonly table: Readonly<Record<string, Binding>>,
    readonly sections: readonly HelpSection[],
  ) {}

  binding(command: CommandId): Binding | undefined {
    return this.table[command];
  }

  /** Whether some binding, in any context (the user's keys too), is Alt and this character. */
  isAltChar(ch: string): boolean {
    return Object.values(this.table).some((b) => [b.keys, ...Object.values(b.keysIn ?? {})].some((ks) => ks?.some((d) => d.alt && d.char === ch)));
  }

  /** Whether the command changes something (refused in a read-only console). */
  writes(command: CommandId): boolean {
    return this.table[command]?.write === true;
  }

  /**
   * The command a keypress means in these contexts: the first context, in the order given, with a
   * binding for the key (within one context a key has one binding at most, so the table's order never matters).
   */
  commandFor(input: string, key: Key, contexts: readonly KeyContext[]): CommandId | undefined {
    for (const context of contexts) {
      for (const [cmd, b] of Object.entries(this.table)) {
        if (b.contexts.includes(context) && keysAt(b, context).some((d) => matchesDescriptor(d, input, key))) return cmd;
      }
    }
    return undefined;
  }

  /**
   * Bindings live in these contexts, listed in table order. `reachable`: only those a key can reach
   * there (`commandFor`'s view: a binding whose keys all belong to one in an earlier context is left
   * out), as for one screen's footer and help; without it, every binding of every context, as in a
   * help section that spans several screens.
   */
  bindingsFor(
    contexts: readonly KeyContext[],
    opts: { reachable?: boolean; footerOnly?: boolean } = {},
  ): { command: CommandId; keys: string; hint: string; footer: number }[] {
    const entries = Object.entries(this.table);
    const live = new Map<string, KeyContext>();
    const taken = new Set<string>();
    for (const context of contexts) {
      const here = entries.filter(([cmd, b]) => b.contexts.includes(context) && !live.has(cmd));
      for (const [cmd, b] of here) if (!opts.reachable || !keysAt(b, context).every((d) => taken.has(descriptorId(d)))) live.set(cmd, context);
      for (const [, b] of here) for (const d of keysAt(b, context)) taken.add(descriptorId(d));
    }
    return entries
      .filter(([cmd, b]) => live.has(cmd) && (!opts.footerOnly || b.footer))
      .map(([command, b]) => ({ command, keys: keysOf(b, [live.get(command)!]), hint: b.hint, footer: b.footer ?? 0 }));
  }
}

function matchesDescriptor(d: KeyDescriptor, input: string, key: Key): boolean {
  if (d.key) return key[d.key] === true && !!d.ctrl === key.ctrl && !!d.alt === key.meta && (d.shift === undefined || d.shift === key.shift);
  if (d.char === undefined) return false;
  // Ctrl-J arrives as a bare line feed (Ink names it neither Enter nor Ctrl).
  if (d.ctrl)
    return (key.ctrl && input.toLowerCase() === d.char) || (!key.meta && d.char.length === 1 && input === String.fromCharCode(d.char.charCodeAt(0) - 96));
  if (d.alt) return key.meta && !key.ctrl && input === d.char;
  return !key.ctrl && !key.meta && input === d.char;
}

const NAMED_KEYS: readonly KeyName[] = [
  'escape',
  'return',
  'upArrow',
  'downArrow',
  'leftArrow',
  'rightArrow',
  'pageUp',
  'pageDown',
  'home',
  'end',
  'tab',
  'backspace',
  'delete',
];

/**
 * The text a keypress types, or '' for none: printable characters without Ctrl or Alt and not a
 * named key. The one input that is not a command: text inputs and type-to-filter take it (useBindings' onText).
 */
export function typedText(input: string, key: Key): string {
  if (!input || key.ctrl || key.meta || NAMED_KEYS.some((k) => key[k])) return '';
  return input.replace(/[\x00-\x1f\x7f-\x9f]/g, '');
}

const KEY_LABELS: Record<KeyName, string> = {
  escape: 'Esc',
  return: 'Enter',
  upArrow: '↑',
  downArrow: '↓',
  leftArrow: '←',
  rightArrow: '→',
  pageUp: 'PgUp',
  pageDown: 'PgDn',
  home: 'Home',
  end: 'End',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
};

export function describeKey(d: KeyDescriptor): string {
  const base = d.key ? KEY_LABELS[d.key] : d.char === ' ' ? 'Space' : d.char!;
  return d.ctrl ? `Ctrl-${base.toUpperCase()}` : d.alt ? `Alt-${base}` : d.shift ? `Shift-${base}` : base;
}

/** How a binding's keys are written in a context (the first of `contexts` it lives in): the user's keys when remapped there. */
export function keysOf(b: Binding, contexts: readonly KeyContext[] = []): string {
  const context = contexts.find((c) => b.contexts.includes(c));
  if (context && b.keysIn?.[context]) return b.keysIn[context].map(describeKey).join('/');
  return b.label ?? b.keys.map(describeKey).join('/');
}

const descriptorId = (d: KeyDescriptor) => JSON.stringify([d.char, d.key, !!d.ctrl, !!d.alt, d.shift]);
