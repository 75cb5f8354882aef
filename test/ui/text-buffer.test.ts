// The one editing model behind every input: pure functions over { text, cursor }.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorAt, edit, insertText, verticalMove, wrapRows, type EditOp, type TextBuffer } from '../../src/ui/text-buffer.js';

/** `|` marks the cursor. */
const b = (s: string): TextBuffer => ({ text: s.replace('|', ''), cursor: s.indexOf('|') });
const show = (x: TextBuffer) => x.text.slice(0, x.cursor) + '|' + x.text.slice(x.cursor);
const run = (s: string, ...ops: EditOp[]) => show(ops.reduce((x, op) => edit(x, op), b(s)));

test('text buffer: moves by glyph, by word and to the ends of the line', () => {
  assert.equal(run('ab|c', 'left', 'left', 'left'), '|abc');
  assert.equal(run('a|bc', 'right', 'right', 'right'), 'abc|');
  // An emoji ZWJ sequence, a flag and a letter with a combining mark are one step each.
  assert.equal(run('x👩‍👩‍👧|', 'left'), 'x|👩‍👩‍👧');
  assert.equal(run('|🇯🇵e\u0301', 'right'), '🇯🇵|e\u0301');
  assert.equal(run('🇯🇵|e\u0301', 'right'), '🇯🇵e\u0301|');
  assert.equal(run('hello, big world|', 'wordLeft'), 'hello, big |world');
  assert.equal(run('hello, big world|', 'wordLeft', 'wordLeft'), 'hello, |big world');
  assert.equal(run('|hello, big world', 'wordRight'), 'hello|, big world');
  assert.equal(run('hello|, big world', 'wordRight'), 'hello, big| world');
  assert.equal(run('one\ntw|o\nthree', 'lineStart'), 'one\n|two\nthree');
  assert.equal(run('one\ntw|o\nthree', 'lineEnd'), 'one\ntwo|\nthree');
});

test('text buffer: deletes a glyph, a word, to the start and to the end of the line', () => {
  assert.equal(run('ab👍🏽|c', 'deleteBefore'), 'ab|c');
  assert.equal(run('ab|👍🏽c', 'deleteAt'), 'ab|c');
  assert.equal(run('|abc', 'deleteBefore'), '|abc');
  assert.equal(run('abc|', 'deleteAt'), 'abc|');
  assert.equal(run('git commit -m  |x', 'killWordBefore'), 'git commit |x');
  assert.equal(run('say hello|', 'killWordBefore', 'killWordBefore'), '|');
  assert.equal(run('one\ntw|o', 'killToLineStart'), 'one\n|o');
  assert.equal(run('one\n|two', 'killToLineStart'), 'one|two');
  assert.equal(run('o|ne\ntwo', 'killToLineEnd'), 'o|\ntwo');
  assert.equal(run('one|\ntwo', 'killToLineEnd'), 'one|two');
  assert.equal(show(insertText(b('a|c'), 'b\nB')), 'ab\nB|c');
});

test('text buffer: rows wrap at word breaks in cells; the cursor has a row and a cell column', () => {
  const text = 'the quick brown fox';
  const rows = wrapRows(text, 10);
  assert.deepEqual(
    rows.map((r) => text.slice(r.start, r.end)),
    ['the quick ', 'brown fox'],
  );
  // Wide glyphs count two cells and are never split.
  const wide = '日本語のテキスト';
  assert.deepEqual(
    wrapRows(wide, 5).map((r) => [wide.slice(r.start, r.end), r.width]),
    [
      ['日本', 4],
      ['語の', 4],
      ['テキ', 4],
      ['スト', 4],
    ],
  );
  assert.deepEqual(cursorAt(wide, wrapRows(wide, 5), 3), { row: 1, col: 2 });
  // Blank lines are rows; a cursor at a wrap point is at the start of the next row.
  const lines = 'a\n\nbcd efg';
  const lr = wrapRows(lines, 4);
  assert.deepEqual(
    lr.map((r) => lines.slice(r.start, r.end)),
    ['a', '', 'bcd ', 'efg'],
  );
  assert.deepEqual(cursorAt(lines, lr, 7), { row: 3, col: 0 });
  assert.equal(verticalMove(lines, lr, 8, -1), 4);
  assert.equal(verticalMove(lines, lr, 0, -1), null);
  assert.equal(verticalMove(lines, lr, 9, 1), null);
});

test('text buffer: wrapping a 100,000-character unbroken line is linear', () => {
  const long = 'x'.repeat(100_000);
  const t = performance.now();
  assert.equal(wrapRows(long, 80).length, 1250);
  assert.ok(performance.now() - t < 1000);
});
