// Key bindings are data: one table of commands → keys, the contexts where each is active and a
// hint. The footer, the `?` help screen and the dispatcher all read this table.
import type { Key } from 'ink';

export enum Command {
  Quit = 'quit',
  ForceQuit = 'forceQuit',
  Suspend = 'suspend',
  Back = 'back',
  PreviousView = 'previousView',
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
  RawJson = 'rawJson',
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
  ChartMetric = 'chartMetric',
  Upload = 'upload',
  Delete = 'delete',
  Clone = 'clone',
  OpenSessionId = 'openSessionId',
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
  Toggle = 'toggle',
  Choose = 'choose',
  Confirm = 'confirm',
  Decline = 'decline',
  Complete = 'complete',
  ShowChoices = 'showChoices',
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
}

/** Where a binding is live. Screens declare the contexts they are in. */
export type KeyContext =
  | 'global'
  | 'list'
  | 'detail'
  | 'assistants'
  | 'assistant'
  | 'numbers'
  | 'calls'
  | 'call'
  | 'search'
  | 'stats'
  | 'files'
  | 'file'
  | 'sessions'
  | 'chat'
  | 'review'
  | 'tests'
  | 'form'
  | 'picker'
  | 'dialog'
  | 'palette'
  | 'input';

type KeyName =
  | 'escape'
  | 'return'
  | 'upArrow'
  | 'downArrow'
  | 'leftArrow'
  | 'rightArrow'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'tab'
  | 'backspace'
  | 'delete';

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
  contexts: KeyContext[];
  /** Short label for the footer and help. */
  hint: string;
  /**
   * Shown in the footer (not only in help), with a priority: when the hints don't fit the width
   * the lowest go first. `Footer.Always` hints (help, command) are kept at any width.
   */
  footer?: number;
}

/** Footer priorities: higher stays longer on a narrow terminal. */
export const Footer = { Low: 1, Normal: 2, High: 3, Always: 9 } as const;

export const KEYMAP: Record<Command, Binding> = {
  [Command.ForceQuit]: { keys: [{ char: 'c', ctrl: true }], contexts: ['global'], hint: 'quit (always)' },
  [Command.Suspend]: { keys: [{ char: 'z', ctrl: true }], contexts: ['global'], hint: 'suspend (fg resumes)' },
  [Command.Quit]: { keys: [{ char: 'q' }], contexts: ['global'], hint: 'quit', footer: Footer.Low },
  [Command.Back]: { keys: [{ key: 'escape' }], contexts: ['global'], hint: 'back', footer: Footer.High },
  [Command.PreviousView]: { keys: [{ char: '-' }], contexts: ['global'], hint: 'previous view' },
  [Command.GoAssistants]: { keys: [{ char: '1' }], contexts: ['global'], hint: 'assistants' },
  [Command.GoNumbers]: { keys: [{ char: '2' }], contexts: ['global'], hint: 'numbers' },
  [Command.GoCalls]: { keys: [{ char: '3' }], contexts: ['global'], hint: 'calls' },
  [Command.GoChat]: { keys: [{ char: '4' }], contexts: ['global'], hint: 'chat' },
  [Command.GoFiles]: { keys: [{ char: '5' }], contexts: ['global'], hint: 'files' },
  [Command.Palette]: { keys: [{ char: ':' }], contexts: ['global'], hint: 'command', footer: Footer.Always },
  [Command.Filter]: { keys: [{ char: '/' }], contexts: ['list'], hint: 'filter', footer: Footer.Normal },
  [Command.Help]: { keys: [{ char: '?' }], contexts: ['global'], hint: 'help', footer: Footer.Always },
  [Command.Up]: { keys: [{ char: 'k' }, { key: 'upArrow' }], contexts: ['list', 'detail'], hint: 'up' },
  [Command.Down]: { keys: [{ char: 'j' }, { key: 'downArrow' }], contexts: ['list', 'detail'], hint: 'down' },
  [Command.Top]: { keys: [{ char: 'g' }, { key: 'home' }], contexts: ['list', 'detail'], hint: 'top' },
  [Command.Bottom]: { keys: [{ char: 'G' }, { key: 'end' }], contexts: ['list', 'detail'], hint: 'bottom' },
  [Command.PageUp]: { keys: [{ key: 'pageUp' }, { char: 'b', ctrl: true }], contexts: ['list', 'detail', 'chat'], hint: 'page up' },
  [Command.PageDown]: { keys: [{ key: 'pageDown' }, { char: 'f', ctrl: true }], contexts: ['list', 'detail', 'chat'], hint: 'page down' },
  [Command.Open]: { keys: [{ key: 'return' }], contexts: ['list'], hint: 'open', footer: Footer.High },
  // Before Refresh: on the test results, r runs the scenarios again (first match wins).
  [Command.RunTestsAgain]: { keys: [{ char: 'r' }], contexts: ['tests'], hint: 'run again', footer: Footer.Normal },
  [Command.Refresh]: { keys: [{ char: 'r' }], contexts: ['list', 'detail'], hint: 'refresh', footer: Footer.Low },
  [Command.RawJson]: { keys: [{ char: 'y' }], contexts: ['list', 'detail'], hint: 'raw JSON' },
  [Command.New]: { keys: [{ char: 'n' }], contexts: ['assistants', 'sessions'], hint: 'new', footer: Footer.Normal },
  [Command.Edit]: { keys: [{ char: 'e' }], contexts: ['assistants', 'assistant'], hint: 'edit', footer: Footer.Normal },
  [Command.EditAsCode]: { keys: [{ char: 'E' }], contexts: ['assistants', 'assistant'], hint: 'edit as YAML in $EDITOR', footer: Footer.Normal },
  [Command.KnowledgeBase]: { keys: [{ char: 'k', ctrl: true }, { char: 'K' }], contexts: ['assistants', 'assistant'], hint: 'KB files', footer: Footer.Normal },
  [Command.Chat]: { keys: [{ char: 'c' }], contexts: ['assistants', 'assistant'], hint: 'chat', footer: Footer.Normal },
  [Command.Outbound]: { keys: [{ char: 'o' }], contexts: ['assistants', 'assistant', 'calls'], hint: 'call out', footer: Footer.Normal },
  [Command.Link]: { keys: [{ char: 'l' }], contexts: ['numbers'], hint: 'link assistant', footer: Footer.Normal },
  [Command.CallFilters]: { keys: [{ char: 'f' }], contexts: ['calls'], hint: 'filters', footer: Footer.Normal },
  [Command.ToggleLive]: { keys: [{ char: 'L' }], contexts: ['calls'], hint: 'live on/off', footer: Footer.Normal },
  [Command.Search]: { keys: [{ char: 's' }], contexts: ['calls', 'search'], hint: 'search transcripts (:search text)', footer: Footer.Normal },
  [Command.Stats]: { keys: [{ char: 'S' }], contexts: ['calls'], hint: 'stats', footer: Footer.Normal },
  [Command.OpenAssistant]: { keys: [{ char: 'a' }], contexts: ['calls', 'call', 'search'], hint: 'its assistant', footer: Footer.Normal },
  [Command.AssistantCalls]: { keys: [{ char: 'C' }], contexts: ['assistant'], hint: 'its calls', footer: Footer.Normal },
  [Command.ChartMetric]: { keys: [{ char: 'm' }, { key: 'tab' }], contexts: ['stats'], hint: 'chart calls/minutes/cost', footer: Footer.Normal },
  [Command.Upload]: { keys: [{ char: 'u' }], contexts: ['files'], hint: 'upload', footer: Footer.Normal },
  [Command.Delete]: { keys: [{ char: 'd' }], contexts: ['files', 'file'], hint: 'delete', footer: Footer.Normal },
  [Command.Clone]: { keys: [{ char: 'D' }], contexts: ['assistants', 'assistant'], hint: 'duplicate (new, pre-filled)' },
  [Command.OpenSessionId]: { keys: [{ char: 'o' }], contexts: ['sessions'], hint: 'open a session id', footer: Footer.Normal },
  [Command.Send]: { keys: [{ key: 'return' }], contexts: ['chat'], hint: 'send', footer: Footer.High },
  [Command.RecallEarlier]: { keys: [{ key: 'upArrow' }], contexts: ['chat'], hint: 'earlier input', footer: Footer.Low },
  [Command.RecallLater]: { keys: [{ key: 'downArrow' }], contexts: ['chat'], hint: 'later input' },
  [Command.NewLine]: {
    keys: [{ key: 'return', alt: true }, { char: 'j', ctrl: true }],
    contexts: ['chat'],
    hint: 'new line in the message',
    footer: Footer.Low,
  },
  [Command.Variables]: { keys: [{ char: 'v', ctrl: true }], contexts: ['chat'], hint: 'variables', footer: Footer.Normal },
  [Command.LeaveChat]: { keys: [{ key: 'escape' }], contexts: ['chat'], hint: 'cancel send / back (the draft is kept)', footer: Footer.High },
  [Command.SaveAsTest]: { keys: [{ char: 't', ctrl: true }], contexts: ['chat'], hint: 'save as test', footer: Footer.Low },
  [Command.ApplyEdit]: { keys: [{ key: 'return' }], contexts: ['review'], hint: 'apply the changes', footer: Footer.High },
  [Command.DiscardEdit]: { keys: [{ key: 'escape' }], contexts: ['review'], hint: 'discard them', footer: Footer.High },
  [Command.NextField]: { keys: [{ key: 'tab', shift: false }, { key: 'downArrow' }], contexts: ['form'], hint: 'next field', footer: Footer.Normal },
  [Command.PrevField]: { keys: [{ key: 'tab', shift: true }, { key: 'upArrow' }], contexts: ['form'], hint: 'previous field' },
  [Command.Toggle]: {
    keys: [{ key: 'leftArrow' }, { key: 'rightArrow' }, { char: ' ' }],
    contexts: ['form', 'picker'],
    hint: 'change / toggle',
    footer: Footer.Normal,
  },
  [Command.Submit]: { keys: [{ char: 's', ctrl: true }], contexts: ['form', 'picker'], hint: 'save', footer: Footer.High },
  [Command.ShowChoices]: { keys: [{ key: 'return' }], contexts: ['form'], hint: 'list a choice field\'s options' },
  [Command.PreviousChoice]: { keys: [{ char: 'k' }, { key: 'upArrow' }], contexts: ['dialog'], hint: 'previous choice' },
  [Command.NextChoice]: { keys: [{ char: 'j' }, { key: 'downArrow' }], contexts: ['dialog'], hint: 'next choice' },
  [Command.Choose]: { keys: [{ key: 'return' }], contexts: ['picker', 'dialog'], hint: 'choose', footer: Footer.High },
  [Command.Cancel]: { keys: [{ key: 'escape' }], contexts: ['form', 'picker', 'dialog', 'palette'], hint: 'cancel', footer: Footer.High },
  [Command.Confirm]: { keys: [{ char: 'y' }], contexts: ['dialog'], hint: 'yes', footer: Footer.High },
  [Command.Decline]: { keys: [{ char: 'n' }], contexts: ['dialog'], hint: 'no', footer: Footer.High },
  [Command.Complete]: { keys: [{ key: 'tab' }], contexts: ['palette'], hint: 'complete', footer: Footer.Normal },
  [Command.CursorLeft]: { keys: [{ key: 'leftArrow' }], contexts: ['input'], hint: 'cursor left' },
  [Command.CursorRight]: { keys: [{ key: 'rightArrow' }], contexts: ['input'], hint: 'cursor right' },
  [Command.LineStart]: { keys: [{ key: 'home' }, { char: 'a', ctrl: true }], contexts: ['input'], hint: 'start of the line' },
  [Command.LineEnd]: { keys: [{ key: 'end' }, { char: 'e', ctrl: true }], contexts: ['input'], hint: 'end of the line' },
  [Command.DeleteBefore]: { keys: [{ key: 'backspace' }], contexts: ['input'], hint: 'delete before the cursor' },
  [Command.DeleteAt]: { keys: [{ key: 'delete' }], contexts: ['input'], hint: 'delete at the cursor' },
  [Command.WordLeft]: { keys: [{ key: 'leftArrow', alt: true }, { char: 'b', alt: true }], contexts: ['input'], hint: 'word left' },
  [Command.WordRight]: { keys: [{ key: 'rightArrow', alt: true }, { char: 'f', alt: true }], contexts: ['input'], hint: 'word right' },
  [Command.KillToLineStart]: { keys: [{ char: 'u', ctrl: true }], contexts: ['input'], hint: 'delete to the start of the line' },
  [Command.KillToLineEnd]: { keys: [{ char: 'k', ctrl: true }], contexts: ['input'], hint: 'delete to the end of the line' },
  [Command.KillWordBefore]: {
    keys: [{ char: 'w', ctrl: true }, { key: 'backspace', alt: true }],
    contexts: ['input'],
    hint: 'delete the word before the cursor',
  },
};

function matchesDescriptor(d: KeyDescriptor, input: string, key: Key): boolean {
  if (d.key) return key[d.key] === true && !!d.ctrl === key.ctrl && !!d.alt === key.meta && (d.shift === undefined || d.shift === key.shift);
  if (d.char === undefined) return false;
  // Ctrl-J arrives as a bare line feed (Ink names it neither Enter nor Ctrl).
  if (d.ctrl)
    return (key.ctrl && input.toLowerCase() === d.char) || (!key.meta && d.char.length === 1 && input === String.fromCharCode(d.char.charCodeAt(0) - 96));
  if (d.alt) return key.meta && !key.ctrl && input === d.char;
  return !key.ctrl && !key.meta && input === d.char;
}

/** The command a keypress means in the given contexts (first match in table order). */
export function commandFor(input: string, key: Key, contexts: readonly KeyContext[]): Command | undefined {
  for (const [cmd, b] of Object.entries(KEYMAP) as [Command, Binding][]) {
    if (!b.contexts.some((c) => contexts.includes(c))) continue;
    if (b.keys.some((d) => matchesDescriptor(d, input, key))) return cmd;
  }
  return undefined;
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

/**
 * Bindings active in these contexts, in table order: for the footer and help. In the footer (one
 * screen's contexts) a binding whose keys all belong to an earlier one is left out: the
 * dispatcher would never reach it there.
 */
export function bindingsFor(
  contexts: readonly KeyContext[],
  opts: { footerOnly?: boolean } = {},
): { command: Command; keys: string; hint: string; footer: number }[] {
  const live = (Object.entries(KEYMAP) as [Command, Binding][]).filter(([, b]) => b.contexts.some((c) => contexts.includes(c)));
  const taken = new Set<string>();
  const reachable = live.filter(([, b]) => {
    const ids = b.keys.map((d) => JSON.stringify([d.char, d.key, !!d.ctrl, !!d.alt, d.shift]));
    const shadowed = opts.footerOnly === true && ids.every((id) => taken.has(id));
    ids.forEach((id) => taken.add(id));
    return !shadowed;
  });
  return reachable
    .filter(([, b]) => !opts.footerOnly || b.footer)
    .map(([command, b]) => ({ command, keys: b.keys.map(describeKey).join('/'), hint: b.hint, footer: b.footer ?? 0 }));
}

/** Help lists these in this order, one section each. */
export const HELP_SECTIONS: { title: string; contexts: KeyContext[] }[] = [
  { title: 'Everywhere', contexts: ['global'] },
  { title: 'Lists and details', contexts: ['list', 'detail'] },
  { title: 'Assistants', contexts: ['assistants', 'assistant'] },
  { title: 'Numbers', contexts: ['numbers'] },
  { title: 'Calls', contexts: ['calls', 'call', 'search', 'stats'] },
  { title: 'Files', contexts: ['files', 'file'] },
  { title: 'Chat', contexts: ['sessions', 'chat'] },
  { title: 'Reviewing a YAML edit', contexts: ['review'] },
  { title: 'Tests', contexts: ['tests'] },
  { title: 'Forms, pickers, dialogs', contexts: ['form', 'picker', 'dialog', 'palette'] },
  { title: 'Text inputs', contexts: ['input'] },
];
