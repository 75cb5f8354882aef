// The console's stdin parser (src/ui/key-parser.ts): byte strings as the terminal sends them →
// the keys and pastes the dispatcher gets, each key written as its input and the Key flags set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKeyParser, type KeyEvent } from '../../src/ui/key-parser.js';

/** A key as `input` plus its true flags (`'j'`, `'|upArrow'`, `'b|meta'`), or a paste as `{ paste }`. */
type Shown = string | { paste: string } | { mouse: string };

function show(events: KeyEvent[]): Shown[] {
  return events.map((e) => {
    if ('paste' in e) return { paste: e.paste };
    if ('mouse' in e) return { mouse: `${e.mouse.action} ${e.mouse.button} ${e.mouse.x},${e.mouse.y}` };
    const flags = Object.entries(e.key)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
    return flags.length ? `${e.input}|${flags.join(',')}` : e.input;
  });
}

/** Every read in `reads` pushed in turn, then a flush (the caller's timeout after the last read). */
function parse(...reads: string[]): Shown[] {
  const p = createKeyParser();
  const events = reads.flatMap((r) => p.push(r));
  return show([...events, ...p.flush()]);
}

const TABLE: [name: string, bytes: string, keys: Shown[]][] = [
  ['an SGR click is one mouse event, never keys', 'a\x1b[<0;12;5Mb', ['a', { mouse: 'press 0 12,5' }, 'b']],
  ['its release', '\x1b[<0;12;5m', [{ mouse: 'release 0 12,5' }]],
  ['the wheel', '\x1b[<64;3;4M\x1b[<65;3;4M', [{ mouse: 'wheelUp 0 3,4' }, { mouse: 'wheelDown 1 3,4' }]],
  ['a letter', 'j', ['j']],
  ['a capital is shifted', 'G', ['G|shift']],
  ['a run of plain characters is that many keys', 'jjjj', ['j', 'j', 'j', 'j']],
  ['type-ahead of a count and a move', '3j', ['3', 'j']],
  ['a command typed in one read, Enter included', ':calls\r', [':', 'c', 'a', 'l', 'l', 's', '\r|return']],
  ['wide and astral characters are one key each', 'é€😀', ['é', '€', '😀']],
  ['space', ' ', [' ']],
  ['Enter', '\r', ['\r|return']],
  ['a line feed is Ctrl-J (neither Enter nor Ctrl, as under Ink)', '\n', ['\n']],
  ['Tab', '\t', ['|tab']],
  ['Shift-Tab', '\x1b[Z', ['|shift,tab']],
  ['Backspace (DEL)', '\x7f', ['|backspace']],
  ['Backspace (BS)', '\b', ['|backspace']],
  ['a held Backspace', '\x7f\x7f\x7f', ['|backspace', '|backspace', '|backspace']],
  ['Ctrl-C', '\x03', ['c|ctrl']],
  ['Ctrl-Z', '\x1a', ['z|ctrl']],
  ['Ctrl-S between letters', 'a\x13b', ['a', 's|ctrl', 'b']],
  ['Ctrl-space', '\x00', [' |ctrl']],
  ['Ctrl-\\', '\x1c', ['\\|ctrl']],
  ['Esc alone (after the timeout)', '\x1b', ['|escape']],
  ['Esc twice', '\x1b\x1b', ['|escape', '|escape']],
  ['up, down, right, left', '\x1b[A\x1b[B\x1b[C\x1b[D', ['|upArrow', '|downArrow', '|rightArrow', '|leftArrow']],
  ['arrows in application mode (SS3)', '\x1bOA\x1bOD', ['|upArrow', '|leftArrow']],
  ['Home and End, three ways', '\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF', ['|home', '|end', '|home', '|end', '|home', '|end']],
  ['PgUp, PgDn', '\x1b[5~\x1b[6~', ['|pageUp', '|pageDown']],
  ['Delete', '\x1b[3~', ['|delete']],
  ['Insert and F-keys set no flag', '\x1b[2~\x1bOP\x1b[15~\x1b[24~', ['', '', '', '']],
  ['Alt-letter', '\x1bb', ['b|meta']],
  ['Alt-capital', '\x1bB', ['B|shift,meta']],
  ['Alt-Enter', '\x1b\r', ['\r|return,meta']],
  ['Alt-Backspace', '\x1b\x7f', ['|backspace,meta']],
  ['Alt-Ctrl-A', '\x1b\x01', ['a|ctrl,meta']],
  ['Alt-← (xterm)', '\x1b[1;3D', ['|leftArrow,meta']],
  ['Alt-← (rxvt: ESC before the sequence)', '\x1b\x1b[D', ['|leftArrow,meta']],
  ['Ctrl-→', '\x1b[1;5C', ['|rightArrow,ctrl']],
  ['Shift-↑', '\x1b[1;2A', ['|upArrow,shift']],
  ['Ctrl-Delete', '\x1b[3;5~', ['|ctrl,delete']],
  ['rxvt Shift-↑ and Ctrl-↑', '\x1b[a\x1bOa', ['|upArrow,shift', '|upArrow,ctrl']],
  ['keys and sequences mixed in one read', 'k\x1b[Bj\r', ['k', '|downArrow', 'j', '\r|return']],
  ['a terminal report is no key', '\x1b[I\x1b[O\x1b[12;40R\x1b[?62;c', []],
  ['a bracketed paste is one paste', '\x1b[200~hello world\x1b[201~', [{ paste: 'hello world' }]],
  ['a paste keeps its lines and escape bytes', '\x1b[200~a\r\nb\x1b[Ac\x1b[201~', [{ paste: 'a\r\nb\x1b[Ac' }]],
  ['keys around a paste', 'x\x1b[200~p\x1b[201~y', ['x', { paste: 'p' }, 'y']],
  ['an empty paste', '\x1b[200~\x1b[201~', [{ paste: '' }]],
];

for (const [name, bytes, keys] of TABLE) {
  test(`${name}: ${JSON.stringify(bytes)}`, () => assert.deepEqual(parse(bytes), keys));
}

test('a mouse report split across reads is one event', () => {
  assert.deepEqual(parse('\x1b[<0;1', ';2M'), [{ mouse: 'press 0 1,2' }]);
});

test('a sequence split across reads is one key', () => {
  assert.deepEqual(parse('\x1b', '[A'), ['|upArrow']);
  assert.deepEqual(parse('\x1b[', 'A'), ['|upArrow']);
  assert.deepEqual(parse('\x1b[1;', '5C'), ['|rightArrow,ctrl']);
  assert.deepEqual(parse('j\x1b[', '3~k'), ['j', '|delete', 'k']);
  assert.deepEqual(parse('\x1b\x1b', '[D'), ['|leftArrow,meta']);
});

test('ESC then a key in the next read (before the timeout) is Alt and that key', () => {
  assert.deepEqual(parse('\x1b', 'j'), ['j|meta']);
});

test('a key waits for the timeout only while it may still be a sequence', () => {
  const p = createKeyParser();
  assert.deepEqual(show(p.push('j\x1b')), ['j']);
  assert.equal(p.pending(), 'escape');
  assert.deepEqual(show(p.flush()), ['|escape']);
  assert.equal(p.pending(), undefined);
  assert.deepEqual(show(p.push('k')), ['k'], 'after the flush, a key is a key again');
  assert.deepEqual(show(p.push('\x1b[')), []);
  assert.equal(p.pending(), 'escape');
  assert.deepEqual(show(p.push('B')), ['|downArrow']);
  assert.equal(p.pending(), undefined);
});

test('an unfinished sequence flushed by the timeout: ESC [ alone is Alt-[, a longer one is dropped', () => {
  assert.deepEqual(parse('\x1b['), ['[|meta']);
  assert.deepEqual(parse('\x1b[1;5'), []);
  assert.deepEqual(parse('a\x1b[1;5'), ['a']);
});

test('a paste split across reads, its markers split too, is one paste', () => {
  assert.deepEqual(parse('\x1b[200~hel', 'lo\x1b[201~'), [{ paste: 'hello' }]);
  assert.deepEqual(parse('\x1b[20', '0~hello\x1b[2', '01~j'), [{ paste: 'hello' }, 'j']);
  const p = createKeyParser();
  assert.deepEqual(show(p.push('\x1b[200~one')), []);
  assert.equal(p.pending(), 'paste');
  for (const part of [' two', ' three\x1b', '[20']) assert.deepEqual(show(p.push(part)), []);
  assert.deepEqual(show(p.push('1~')), [{ paste: 'one two three' }]);
  assert.equal(p.pending(), undefined);
});

test('a long paste in many reads is found without rescanning it (and whole)', () => {
  const p = createKeyParser();
  const part = 'x'.repeat(1000);
  p.push('\x1b[200~');
  for (let i = 0; i < 200; i++) assert.deepEqual(p.push(part), []);
  const [paste] = p.push('\x1b[201~');
  assert.deepEqual(paste, { paste: part.repeat(200) });
});

test('a paste whose end never comes is pasted as far as it came when flushed', () => {
  assert.deepEqual(parse('\x1b[200~half a pa'), [{ paste: 'half a pa' }]);
});

test('every key has the whole Key shape, as Ink gives it', () => {
  const [e] = createKeyParser().push('j');
  assert.ok(e && 'key' in e);
  assert.deepEqual(Object.keys(e.key).sort(), [
    'backspace',
    'capsLock',
    'ctrl',
    'delete',
    'downArrow',
    'end',
    'escape',
    'home',
    'hyper',
    'leftArrow',
    'meta',
    'numLock',
    'pageDown',
    'pageUp',
    'return',
    'rightArrow',
    'shift',
    'super',
    'tab',
    'upArrow',
  ]);
});

test('told which Alt keys are bound: ESC then another printable key read at once is Esc, then that key', () => {
  const isAltChar = (ch: string) => ch === 'b' || ch === 'f';
  const parseWith = (...reads: string[]) => {
    const p = createKeyParser({ isAltChar });
    return show([...reads.flatMap((r) => p.push(r)), ...p.flush()]);
  };
  // A fast Esc (back) and 3 (the call log), read together on a busy console.
  assert.deepEqual(parseWith('\x1b3'), ['|escape', '3']);
  assert.deepEqual(parseWith('\x1b\x1b3'), ['|escape', '|escape', '3']);
  assert.deepEqual(parseWith('\x1b', 'q'), ['|escape', 'q']);
  assert.deepEqual(parseWith('\x1bb\x1bf'), ['b|meta', 'f|meta'], 'the bound Alt keys stay Alt');
  assert.deepEqual(parseWith('\x1b\r\x1b\x7f\x1b[A'), ['\r|return,meta', '|backspace,meta', '|upArrow'], 'Alt-Enter, Alt-Backspace and sequences too');
});
