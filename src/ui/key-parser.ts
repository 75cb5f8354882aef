// The terminal's input as keys: what the console reads from stdin, split into one event per key
// (after gemini-cli's KeypressContext, which reads stdin itself rather than through Ink). A run
// of plain characters in one read (`jjjj`, `:calls⏎` typed ahead of a slow frame) is that many
// keys; an escape sequence is one key (arrows, Home/End, PgUp/PgDn, Delete, Insert, Shift-Tab,
// F-keys; with Shift/Alt/Ctrl); ESC before a key is Alt (only an Alt key a binding wants, when
// the caller says which: else Esc, then the key); a bracketed paste (ESC[200~ … ESC[201~)
// is one paste event. A read may end inside a sequence or a paste: the rest waits for the next
// read. A lone ESC can't be told from the start of a sequence until time passes, so the caller
// calls `flush()` when no more input came for a short while (keypress.tsx owns that timer).
//
// Pure (no stream, no timer, no React). Each key is Ink's `Key` with the `input` Ink's useInput
// would give for it, so the keymap and the components read keys exactly as they did under Ink.
import type { Key } from 'ink';

/** A mouse report (SGR 1006, only with --mouse): never a key, so never text in an input. x and y count from 1. */
export interface MouseEvent {
  action: 'press' | 'release' | 'wheelUp' | 'wheelDown' | 'move';
  /** 0 left, 1 middle, 2 right. */
  button: number;
  x: number;
  y: number;
}

export type KeyEvent = { input: string; key: Key } | { paste: string } | { mouse: MouseEvent };

/** ESC[<b;x;yM (press, wheel, motion) or …m (release), `body` after the ESC; undefined when it is not one. */
function mouseEvent(body: string): MouseEvent | undefined {
  const m = /^\[<(\d+);(\d+);(\d+)([Mm])$/.exec(body);
  if (!m) return undefined;
  const b = Number(m[1]);
  const at = { button: b & 3, x: Number(m[2]), y: Number(m[3]) };
  if (b & 64) return { ...at, action: (b & 1) === 0 ? 'wheelUp' : 'wheelDown' };
  if (b & 32) return { ...at, action: 'move' };
  return { ...at, action: m[4] === 'M' ? 'press' : 'release' };
}

export interface KeyParser {
  /** The keys and pastes complete in what has been read so far, in order. */
  push(chunk: string): KeyEvent[];
  /** What waits for more input: a possible escape sequence, or an unfinished paste. */
  pending(): 'escape' | 'paste' | undefined;
  /** No more input came: a lone ESC is Esc, an unfinished paste is pasted as far as it came. */
  flush(): KeyEvent[];
}

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Escape sequences by their code (after ESC, without the modifier parameter), as Ink names them. */
const NAMES: Record<string, string> = {
  OP: 'f1',
  OQ: 'f2',
  OR: 'f3',
  OS: 'f4',
  '[P': 'f1',
  '[Q': 'f2',
  '[R': 'f3',
  '[S': 'f4',
  '[11~': 'f1',
  '[12~': 'f2',
  '[13~': 'f3',
  '[14~': 'f4',
  '[[A': 'f1',
  '[[B': 'f2',
  '[[C': 'f3',
  '[[D': 'f4',
  '[[E': 'f5',
  '[15~': 'f5',
  '[17~': 'f6',
  '[18~': 'f7',
  '[19~': 'f8',
  '[20~': 'f9',
  '[21~': 'f10',
  '[23~': 'f11',
  '[24~': 'f12',
  '[A': 'up',
  '[B': 'down',
  '[C': 'right',
  '[D': 'left',
  '[E': 'clear',
  '[F': 'end',
  '[H': 'home',
  OA: 'up',
  OB: 'down',
  OC: 'right',
  OD: 'left',
  OE: 'clear',
  OF: 'end',
  OH: 'home',
  '[1~': 'home',
  '[2~': 'insert',
  '[3~': 'delete',
  '[4~': 'end',
  '[5~': 'pageup',
  '[6~': 'pagedown',
  '[[5~': 'pageup',
  '[[6~': 'pagedown',
  '[7~': 'home',
  '[8~': 'end',
  // rxvt: shifted (lower case, $) and ctrl (O + lower case, ^) forms
  '[a': 'up',
  '[b': 'down',
  '[c': 'right',
  '[d': 'left',
  '[e': 'clear',
  '[2$': 'insert',
  '[3$': 'delete',
  '[5$': 'pageup',
  '[6$': 'pagedown',
  '[7$': 'home',
  '[8$': 'end',
  Oa: 'up',
  Ob: 'down',
  Oc: 'right',
  Od: 'left',
  Oe: 'clear',
  '[2^': 'insert',
  '[3^': 'delete',
  '[5^': 'pageup',
  '[6^': 'pagedown',
  '[7^': 'home',
  '[8^': 'end',
  '[Z': 'tab', // Shift-Tab
};
const SHIFTED = new Set(['[a', '[b', '[c', '[d', '[e', '[2$', '[3$', '[5$', '[6$', '[7$', '[8$', '[Z']);
const CTRLED = new Set(['Oa', 'Ob', 'Oc', 'Od', 'Oe', '[2^', '[3^', '[5^', '[6^', '[7^', '[8^']);

/** The Key field each named key sets (the others — Insert, F-keys, Clear — set none, as under Ink). */
const FIELDS: Record<string, keyof Key> = {
  up: 'upArrow',
  down: 'downArrow',
  left: 'leftArrow',
  right: 'rightArrow',
  pageup: 'pageUp',
  pagedown: 'pageDown',
  home: 'home',
  end: 'end',
  delete: 'delete',
  tab: 'tab',
};

/** A Key with only `flags` set: every other field false. */
export function keyWith(flags: Partial<Key> = {}): Key {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
    ...flags,
  };
}

/** One character (a code point), typed alone or after ESC (`meta`: Alt). */
function charKey(ch: string, meta: boolean): { input: string; key: Key } {
  if (ch === '\r') return { input: '\r', key: keyWith({ return: true, meta }) };
  if (ch === '\t') return { input: '', key: keyWith({ tab: true, meta }) };
  if (ch === '\b' || ch === '\x7f') return { input: '', key: keyWith({ backspace: true, meta }) };
  if (ch === ESC) return { input: '', key: keyWith({ escape: true, meta }) };
  // A bare line feed is Ctrl-J, which Ink names neither Enter nor Ctrl (keymap.ts reads it so).
  if (ch === '\n' && !meta) return { input: '\n', key: keyWith({}) };
  if (ch === ' ') return { input: ' ', key: keyWith({ meta }) };
  if (ch === '\x00') return { input: ' ', key: keyWith({ ctrl: true, meta }) };
  const code = ch.charCodeAt(0);
  // Ctrl-letter (and Ctrl-\ ] ^ _): the letter, with ctrl.
  if (code < 0x20) return { input: String.fromCharCode(code + (code <= 26 ? 96 : 64)), key: keyWith({ ctrl: true, meta }) };
  return { input: ch, key: keyWith({ meta, shift: ch.length === 1 && ch >= 'A' && ch <= 'Z' }) };
}

const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;
const isParameter = (c: number) => c >= 0x30 && c <= 0x3f;
const isIntermediate = (c: number) => c >= 0x20 && c <= 0x2f;

/**
 * The end (exclusive) of the CSI or SS3 sequence whose introducer (`[` or `O`) is at `at`:
 * 'pending' when the text ends first, -1 when what follows is no such sequence.
 */
function sequenceEnd(text: string, at: number): number | 'pending' {
  const csi = text[at] === '[';
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (csi) {
      if (c === 0x5b && i === at + 1) continue; // ESC [ [ A: the Linux console's F-keys
      if (c === 0x24 && i === at + 2 && '235678'.includes(text[at + 1]!)) return i + 1; // rxvt's ESC [ 2 $
      if (isFinal(c)) return i + 1;
      if (isParameter(c) || isIntermediate(c)) continue;
      return -1;
    }
    if (isFinal(c)) return i + 1;
    if (c !== 0x3b && (c < 0x30 || c > 0x39)) return -1;
  }
  return 'pending';
}

/** The key a complete CSI/SS3 sequence (`body`: after ESC) is, or undefined for one that is no key (a terminal's report). */
function sequenceKey(body: string, meta: boolean): { input: string; key: Key } | undefined {
  let code: string;
  let modifier: number;
  let m: RegExpExecArray | null;
  if ((m = /^(O|\[\[?)(\d+)(?:;(\d+))?([~^$])$/.exec(body))) {
    code = m[1]! + m[2]! + m[4]!;
    modifier = Number(m[3] ?? 1) - 1;
  } else if ((m = /^(O|\[\[?)(?:1;)?(\d+)?([a-zA-Z])$/.exec(body))) {
    code = m[1]! + m[3]!;
    modifier = Number(m[2] ?? 1) - 1;
  } else return undefined;
  const name = NAMES[code];
  if (!name) return undefined;
  const field = FIELDS[name];
  return {
    input: '',
    key: keyWith({
      ...(field ? { [field]: true } : {}),
      ctrl: CTRLED.has(code) || (modifier & 4) !== 0,
      meta: meta || (modifier & 10) !== 0,
      shift: SHIFTED.has(code) || (modifier & 1) !== 0,
    }),
  };
}

export interface KeyParserOptions {
  /**
   * Whether ESC then this printable character is the Alt key a binding wants. When it is not, it is
   * Esc and then that character: the two read at once are a fast Esc and a key (read together on a
   * busy console), not an Alt key that nothing takes and that would lose both. Unset: every one is Alt.
   */
  isAltChar?: (ch: string) => boolean;
}

export function createKeyParser(opts: KeyParserOptions = {}): KeyParser {
  let buffer = '';
  /** In a paste: where to look for its end next (the text before cannot hold it). */
  let pasteFrom = -1;

  const parse = (events: KeyEvent[]) => {
    let i = 0;
    for (;;) {
      if (pasteFrom >= 0) {
        const end = buffer.indexOf(PASTE_END, pasteFrom);
        if (end < 0) {
          // Keep the paste; next time look only where its end could start.
          buffer = buffer.slice(i);
          pasteFrom = Math.max(PASTE_START.length, buffer.length - PASTE_END.length + 1);
          return;
        }
        events.push({ paste: buffer.slice(i + PASTE_START.length, end) });
        i = end + PASTE_END.length;
        pasteFrom = -1;
        continue;
      }
      if (i >= buffer.length) break;
      const cp = buffer.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (ch !== ESC) {
        events.push(charKey(ch, false));
        i += ch.length;
        continue;
      }
      // ESC: Esc itself, Alt with the next key, or the start of a sequence.
      const meta = buffer[i + 1] === ESC;
      const intro = i + (meta ? 2 : 1);
      if (intro >= buffer.length) break; // wait: more may come, else flush() decides
      if (buffer[intro] === '[' || buffer[intro] === 'O') {
        const end = sequenceEnd(buffer, intro);
        if (end === 'pending') break;
        if (end > 0) {
          const body = buffer.slice(intro, end);
          if (!meta && body === '[200~') {
            buffer = buffer.slice(i);
            pasteFrom = PASTE_START.length;
            i = 0;
            continue;
          }
          const mouse = meta ? undefined : mouseEvent(body);
          const key = mouse ? undefined : sequenceKey(body, meta);
          if (mouse) events.push({ mouse });
          else if (key) events.push(key);
          i = end;
          continue;
        }
      }
      if (meta) {
        // ESC ESC then no sequence: Esc, and the second ESC starts over.
        events.push(charKey(ESC, false));
        i += 1;
        continue;
      }
      const next = String.fromCodePoint(buffer.codePointAt(intro)!);
      if (opts.isAltChar && next >= ' ' && next !== '\x7f' && !opts.isAltChar(next)) {
        events.push(charKey(ESC, false));
        i = intro;
        continue;
      }
      events.push(charKey(next, true));
      i = intro + next.length;
    }
    buffer = buffer.slice(i);
  };

  return {
    push(chunk) {
      const events: KeyEvent[] = [];
      buffer += chunk;
      parse(events);
      return events;
    },
    pending() {
      if (pasteFrom >= 0) return 'paste';
      return buffer.length > 0 ? 'escape' : undefined;
    },
    flush() {
      const events: KeyEvent[] = [];
      if (pasteFrom >= 0) {
        events.push({ paste: buffer.slice(PASTE_START.length) });
      } else if (buffer === ESC) {
        events.push(charKey(ESC, false));
      } else if (buffer === ESC + ESC) {
        events.push(charKey(ESC, false), charKey(ESC, false));
      } else if (buffer.length === 2) {
        events.push(charKey(buffer[1]!, true)); // ESC [ or ESC O and nothing after: Alt-[ / Alt-O
      }
      // A longer unfinished sequence is no key anyone typed: dropped.
      buffer = '';
      pasteFrom = -1;
      return events;
    },
  };
}
