// Key bindings are data: one table of commands → keys, the contexts where each is active and a
// hint. The footer, the `?` help screen and the dispatcher all read this table; screens and
// components bind commands to handlers with `useBindings` (hooks/bindings.tsx).
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
  GoAssistants = 'goAssistants',
  GoNumbers = 'goNumbers',
  GoCalls = 'goCalls',
  GoChat = 'goChat',
  GoFiles = 'goFiles',
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
  RunTestsAgain = 'runTestsAgain',
  Refresh = 'refresh',
  Retry = 'retry',
  RawJson = 'rawJson',
  Pager = 'pager',
  New = 'new',
  Edit = 'edit',
  EditAsCode = 'editAsCode',
  KnowledgeBase = 'knowledgeBase',
  Chat = 'chat',
  Outbound = 'outbound',
  Link = 'link',
  CallFilters = 'callFilters',
  ToggleLive = 'toggleLive',
  Search = 'search',
  Stats = 'stats',
  OpenAssistant = 'openAssistant',
  AssistantCalls = 'assistantCalls',
  AssistantNumbers = 'assistantNumbers',
  FileAssistants = 'fileAssistants',
  ChartMetric = 'chartMetric',
  Upload = 'upload',
  Delete = 'delete',
  Clone = 'clone',
  OpenSessionId = 'openSessionId',
  CopyId = 'copyId',
  CopyNumber = 'copyNumber',
  Sort = 'sort',
  UseProfile = 'useProfile',
  // In a chat conversation (the input line has the printable keys)
  Send = 'send',
  RecallEarlier = 'recallEarlier',
  RecallLater = 'recallLater',
  NewLine = 'newLine',
  Variables = 'variables',
  LeaveChat = 'leaveChat',
  // Reviewing an edit made in $EDITOR
  ApplyEdit = 'applyEdit',
  DiscardEdit = 'discardEdit',
  SaveAsTest = 'saveAsTest',
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

/** Where a binding is live. Screens declare the contexts they are in. */
export type KeyContext =
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

export const KEYMAP: Record<Command, Binding> = {
  [Command.ForceQuit]: { keys: [{ char: 'c', ctrl: true }], contexts: ['global'], hint: 'quit (always)' },
  [Command.Suspend]: { keys: [{ char: 'z', ctrl: true }], contexts: ['global'], hint: 'suspend (fg resumes)' },
  [Command.Quit]: { keys: [{ char: 'q' }], contexts: ['global'], hint: 'quit', footer: Footer.Low },
  [Command.Back]: { keys: [{ key: 'escape' }], contexts: ['global'], hint: 'back', footer: Footer.High },
  [Command.PreviousView]: { keys: [{ char: '-' }], contexts: ['global'], hint: 'previous view' },
  [Command.LastMessage]: { keys: [{ char: '!' }], contexts: ['global'], hint: 'the last message, whole' },
  [Command.GoAssistants]: { keys: [{ char: '1' }], contexts: ['global'], hint: 'assistants' },
  [Command.GoNumbers]: { keys: [{ char: '2' }], contexts: ['global'], hint: 'numbers' },
  [Command.GoCalls]: { keys: [{ char: '3' }], contexts: ['global'], hint: 'calls' },
  [Command.GoChat]: { keys: [{ char: '4' }], contexts: ['global'], hint: 'chat' },
  [Command.GoFiles]: { keys: [{ char: '5' }], contexts: ['global'], hint: 'files' },
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
  [Command.RunTestsAgain]: { keys: [{ char: 'r' }], contexts: ['tests'], hint: 'run again', footer: Footer.Normal },
  [Command.Refresh]: { keys: [{ char: 'r' }], contexts: ['list', 'detail'], hint: 'refresh', footer: Footer.Low },
  [Command.Retry]: { keys: [{ char: 'r' }], contexts: ['chat'], hint: 'load the session again', footer: Footer.High },
  [Command.RawJson]: { keys: [{ char: 'y' }], contexts: ['list', 'detail'], hint: 'raw JSON' },
  [Command.Pager]: { keys: [{ char: 'v' }], contexts: ['call', 'json'], hint: 'view in $PAGER', footer: Footer.Low },
  [Command.New]: { keys: [{ char: 'n' }], contexts: ['assistants', 'sessions', 'profiles'], hint: 'new', footer: Footer.Normal, write: true },
  [Command.Edit]: { keys: [{ char: 'e' }], contexts: ['assistants', 'assistant'], hint: 'edit', footer: Footer.Normal, write: true },
  [Command.EditAsCode]: { keys: [{ char: 'E' }], contexts: ['assistants', 'assistant'], hint: 'edit as YAML in $EDITOR', footer: Footer.Normal, write: true },
  [Command.KnowledgeBase]: {
    keys: [{ char: 'k', ctrl: true }, { char: 'K' }],
    contexts: ['assistants', 'assistant'],
    hint: 'KB files',
    footer: Footer.Normal,
    write: true,
  },
  [Command.Chat]: { keys: [{ char: 'c' }], contexts: ['assistants', 'assistant'], hint: 'chat', footer: Footer.Normal, write: true },
  [Command.Outbound]: { keys: [{ char: 'o' }], contexts: ['assistants', 'assistant', 'calls'], hint: 'call out', footer: Footer.Normal, write: true },
  [Command.Link]: { keys: [{ char: 'l' }], contexts: ['numbers', 'number'], hint: 'link assistant', footer: Footer.Normal, write: true },
  [Command.CallFilters]: { keys: [{ char: 'f' }], contexts: ['calls'], hint: 'filters', footer: Footer.Normal },
  [Command.ToggleLive]: { keys: [{ char: 'L' }], contexts: ['calls'], hint: 'live on/off', footer: Footer.Normal },
  [Command.Search]: { keys: [{ char: 's' }], contexts: ['calls', 'search'], hint: 'search transcripts (:search text)', footer: Footer.Normal },
  [Command.Stats]: { keys: [{ char: 'S' }], contexts: ['calls'], hint: 'stats', footer: Footer.Normal },
  [Command.OpenAssistant]: { keys: [{ char: 'a' }], contexts: ['calls', 'call', 'search', 'numbers', 'number'], hint: 'its assistant', footer: Footer.Normal },
  [Command.AssistantCalls]: { keys: [{ char: 'C' }], contexts: ['assistants', 'assistant', 'numbers', 'number'], hint: 'its calls', footer: Footer.Normal },
  [Command.AssistantNumbers]: { keys: [{ char: 'N' }], contexts: ['assistants', 'assistant'], hint: 'its numbers', footer: Footer.Normal },
  [Command.FileAssistants]: { keys: [{ char: 'a' }], contexts: ['files', 'file'], hint: 'assistants using it', footer: Footer.Normal },
  [Command.ChartMetric]: { keys: [{ char: 'm' }, { key: 'tab' }], contexts: ['stats'], hint: 'chart calls/minutes/cost', footer: Footer.Normal },
  [Command.Upload]: { keys: [{ char: 'u' }], contexts: ['files'], hint: 'upload', footer: Footer.Normal, write: true },
  [Command.Delete]: { keys: [{ char: 'd' }], contexts: ['files', 'file', 'profiles'], hint: 'delete', footer: Footer.Normal, write: true },
  [Command.Clone]: { keys: [{ char: 'D' }], contexts: ['assistants', 'assistant'], hint: 'duplicate (new, pre-filled)', write: true },
  [Command.OpenSessionId]: { keys: [{ char: 'o' }], contexts: ['sessions'], hint: 'open a session id', footer: Footer.Normal },
  [Command.CopyId]: {
    keys: [{ char: 'Y' }],
    contexts: ['assistants', 'assistant', 'numbers', 'calls', 'call', 'search', 'files', 'file', 'sessions'],
    hint: 'copy the id',
    footer: Footer.Low,
  },
  [Command.CopyNumber]: { keys: [{ char: '#' }], contexts: ['numbers', 'calls', 'call'], hint: 'copy the DID / customer number' },
  [Command.Sort]: {
    keys: [{ char: 'O' }],
    contexts: ['assistants', 'numbers', 'calls', 'search', 'files', 'sessions', 'profiles', 'tests'],
    hint: 'sort: next column / direction',
    footer: Footer.Low,
  },
  [Command.UseProfile]: { keys: [{ key: 'return' }], contexts: ['profiles'], hint: 'switch the console to it', footer: Footer.High },
  [Command.Send]: { keys: [{ key: 'return' }], contexts: ['chat'], hint: 'send', footer: Footer.High, write: true },
  [Command.RecallEarlier]: { keys: [{ key: 'upArrow' }], contexts: ['chat'], hint: 'earlier input', footer: Footer.Low },
  [Command.RecallLater]: { keys: [{ key: 'downArrow' }], contexts: ['chat'], hint: 'later input' },
  [Command.NewLine]: {
    keys: [
      { key: 'return', alt: true },
      { char: 'j', ctrl: true },
    ],
    contexts: ['chat', 'input'],
    hint: 'new line in the message',
    footer: Footer.Low,
  },
  [Command.Variables]: { keys: [{ char: 'v', ctrl: true }], contexts: ['chat'], hint: 'variables', footer: Footer.Normal },
  [Command.LeaveChat]: { keys: [{ key: 'escape' }], contexts: ['chat'], hint: 'cancel send / back (the draft is kept)', footer: Footer.High },
  [Command.SaveAsTest]: { keys: [{ char: 't', ctrl: true }], contexts: ['chat'], hint: 'save as test', footer: Footer.Low, write: true },
  [Command.ApplyEdit]: { keys: [{ key: 'return' }], contexts: ['review'], hint: 'apply the changes', footer: Footer.High, write: true },
  [Command.DiscardEdit]: { keys: [{ key: 'escape' }], contexts: ['review'], hint: 'discard them', footer: Footer.High },
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

/**
 * Makes `table` the one every reader uses (dispatcher, footer, help): the console calls it once at
 * start with the table the user's keys file made. Replaced in place, so every importer sees it.
 */
export function installKeymap(table: Record<Command, Binding>): void {
  if (table === KEYMAP) return; // emptied first, it would be copied from itself
  for (const c of Object.keys(KEYMAP) as Command[]) delete KEYMAP[c];
  Object.assign(KEYMAP, table);
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

/**
 * The command a keypress means in these contexts: the first context, in the order given, with a
 * binding for the key (within one context a key has one binding at most, so the table's order never matters).
 */
export function commandFor(input: string, key: Key, contexts: readonly KeyContext[]): Command | undefined {
  for (const context of contexts) {
    for (const [cmd, b] of Object.entries(KEYMAP) as [Command, Binding][]) {
      if (b.contexts.includes(context) && keysAt(b, context).some((d) => matchesDescriptor(d, input, key))) return cmd;
    }
  }
  return undefined;
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

/**
 * Bindings live in these contexts, listed in table order. `reachable`: only those a key can reach
 * there (`commandFor`'s view: a binding whose keys all belong to one in an earlier context is left
 * out), as for one screen's footer and help; without it, every binding of every context, as in a
 * help section that spans several screens.
 */
export function bindingsFor(
  contexts: readonly KeyContext[],
  opts: { reachable?: boolean; footerOnly?: boolean } = {},
): { command: Command; keys: string; hint: string; footer: number }[] {
  const entries = Object.entries(KEYMAP) as [Command, Binding][];
  const live = new Map<Command, KeyContext>();
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

/** Help lists these in this order, one section each. */
export const HELP_SECTIONS: { title: string; contexts: KeyContext[] }[] = [
  { title: 'Everywhere', contexts: ['global'] },
  { title: 'Lists and details', contexts: ['list', 'detail', 'scroll', 'help', 'json'] },
  { title: 'Assistants', contexts: ['assistants', 'assistant'] },
  { title: 'Numbers', contexts: ['numbers', 'number'] },
  { title: 'Calls', contexts: ['calls', 'call', 'search', 'stats'] },
  { title: 'Files', contexts: ['files', 'file'] },
  { title: 'Chat', contexts: ['sessions', 'chat'] },
  { title: 'Reviewing a YAML edit', contexts: ['review'] },
  { title: 'Tests', contexts: ['tests'] },
  { title: 'Profiles', contexts: ['profiles'] },
  { title: 'Forms, pickers, dialogs', contexts: ['form', 'picker', 'dialog', 'palette', 'prompt'] },
  { title: 'Text inputs', contexts: ['input'] },
];
