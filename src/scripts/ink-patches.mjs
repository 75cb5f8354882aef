// Patches applied to Ink (and yoga's loader) as esbuild bundles them: each names the file, the
// exact code it replaces (a dependency that changed keeps its own code, with a warning) and code
// appended to the module. Same output, less work per frame; test/ui/ink-patches.test.ts checks
// the patched frame output against Ink's own.
import { readFile } from 'node:fs/promises';

// Ink measures and slices every line on screen again for each frame: a new Output (with empty
// width / ANSI-token caches) per frame, an uncached widestLine per text node, and sliceAnsi on
// every line inside an overflow-clipped box. These are pure functions of the text, so the bundle
// memoizes them across frames (each memo dropped wholesale when large, bounding its memory while
// scrolling through many distinct rows). Same output; about 35-40% less CPU per frame.
const memo = (name, fn, key) => `
const ${name}Memo = new Map();
function ${name}(...args) {
  const key = ${key};
  let hit = ${name}Memo.get(key);
  if (hit === undefined) {
    if (${name}Memo.size > 2000) ${name}Memo.clear();
    hit = ${fn}(...args);
    ${name}Memo.set(key, hit);
  }
  return hit;
}
`;
export const INK_PATCHES = [
  {
    file: /[\\/]ink[\\/]build[\\/]output\.js$/,
    edits: [
      ['caches = new OutputCaches();', 'caches = sharedOutputCaches();'],
      ['return sliceAnsi(line, from, to);', 'return slicedLine(line, from, to);'],
    ],
    append: `
// Each frame Ink builds a grid of cell objects for the whole screen and turns every row back
// into a string (an ANSI diff per cell), although a cursor move changes two rows. Here the
// writes that land on each row are collected first (same clipping, same transformers, in the
// same order); a row is rebuilt cell by cell only when its writes differ from an earlier
// frame's, else its string comes from the memo. Same output.
const frameRowMemo = new Map();
const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
function frameRow(output, writes) {
  // Plain text from the row's first column (an unselected table row): its cells, unstyled, join
  // back into the text itself.
  if (writes.length === 1 && writes[0].x === 0 && !writes[0].line.includes('\\u001B')) return writes[0].line.trimEnd();
  const row = new Array(output.width).fill(BLANK_CELL);
  for (const { x, line } of writes) {
    let offsetX = x;
    for (const character of output.caches.getStyledChars(line)) {
      row[offsetX] = character;
      const characterWidth = Math.max(1, output.caches.getStringWidth(character.value));
      for (let i = 1; i < characterWidth; i++) row[offsetX + i] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
      offsetX += characterWidth;
    }
  }
  return styledCharsToString(row.filter((item) => item !== undefined)).trimEnd();
}
Output.prototype.get = function get() {
  const rows = Array.from({ length: this.height }, () => []);
  const clips = [];
  for (const operation of this.operations) {
    if (operation.type === 'clip') clips.push(operation.clip);
    if (operation.type === 'unclip') clips.pop();
    if (operation.type !== 'write') continue;
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split('\\n');
    const clip = clips.at(-1);
    if (clip) {
      const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
      const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
      if (clipHorizontally) {
        const width = this.caches.getWidestLine(text);
        if (x + width < clip.x1 || x > clip.x2) continue;
      }
      if (clipVertically) {
        if (y + lines.length < clip.y1 || y > clip.y2) continue;
      }
      if (clipHorizontally) {
        lines = lines.map((line) => {
          const from = x < clip.x1 ? clip.x1 - x : 0;
          const width = this.caches.getStringWidth(line);
          const to = x + width > clip.x2 ? clip.x2 - x : width;
          return slicedLine(line, from, to);
        });
        if (x < clip.x1) x = clip.x1;
      }
      if (clipVertically) {
        const from = y < clip.y1 ? clip.y1 - y : 0;
        const height = lines.length;
        const to = y + height > clip.y2 ? clip.y2 - y : height;
        lines = lines.slice(from, to);
        if (y < clip.y1) y = clip.y1;
      }
    }
    let offsetY = 0;
    for (let [index, line] of lines.entries()) {
      const writes = rows[y + offsetY];
      // As in Ink: a line past the grid is dropped, and so are the ones after it.
      if (!writes) continue;
      for (const transformer of transformers) line = transformer(line, index);
      writes.push({ x, line });
      offsetY++;
    }
  }
  const output = rows.map((writes) => {
    if (writes.length === 0) return '';
    let key = String(this.width);
    for (const { x, line } of writes) key += ';' + x + ',' + line.length + ',' + line;
    let hit = frameRowMemo.get(key);
    if (hit === undefined) {
      if (frameRowMemo.size > 2000) frameRowMemo.clear();
      hit = frameRow(this, writes);
      frameRowMemo.set(key, hit);
    }
    return hit;
  });
  return { output: output.join('\\n'), height: output.length };
};
let sharedCaches;
function sharedOutputCaches() {
  if (!sharedCaches || sharedCaches.styledChars.size > 400 || sharedCaches.widths.size > 4000 || sharedCaches.blockWidths.size > 400) {
    sharedCaches = new OutputCaches();
  }
  return sharedCaches;
}
${memo('slicedLine', 'sliceAnsi', "args[1] + ',' + args[2] + ',' + args[0]")}`,
  },
  {
    file: /[\\/]widest-line[\\/]index\.js$/,
    edits: [['export default function widestLine(string) {', 'function widestLineOf(string) {']],
    append: `export default widestLine;\n${memo('widestLine', 'widestLineOf', 'args[0]')}`,
  },
];
// Ink clears the terminal and writes the whole frame again on every render once a frame is as
// tall as the terminal, incrementalRendering or not; the console's frame always is (header to
// footer, in the alternate screen), so every keypress rewrote all 40 rows (~4.3 kB). Here a
// frame goes through Ink's own incremental path instead (only changed rows are rewritten; Ink 7
// does the same) when it and the last frame both exactly fill the terminal and the last one is
// known to be on screen whole: drawn by that full redraw or by such a diff, with nothing written
// or cleared since (so the top row is rows-1 above the cursor). Any other frame is drawn as Ink
// draws it, so a frame after a resize or console output is still redrawn whole. Windows consoles
// scroll when the bottom-right cell is written, so there it stays as it was.
// Also in ink.js: a frame was three writes (begin synchronized update, the frame, end), three
// system calls to the terminal; corked, they leave as one.
INK_PATCHES.push({
  file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
  edits: [
    [
      'const sync = shouldSynchronize(this.options.stdout);\n                if (sync && shouldWrite) {\n                    this.options.stdout.write(bsu);\n                }\n                this.log(output);\n                if (sync && shouldWrite) {\n                    this.options.stdout.write(esu);\n                }',
      'const sync = shouldSynchronize(this.options.stdout);\n                this.options.stdout.cork?.();\n                if (sync && shouldWrite) {\n                    this.options.stdout.write(bsu);\n                }\n                this.log(output);\n                if (sync && shouldWrite) {\n                    this.options.stdout.write(esu);\n                }\n                this.options.stdout.uncork?.();',
    ],
    ['const isFullscreen = this.options.stdout.isTTY && outputHeight >= this.options.stdout.rows;', 'const isFullscreen = this.options.stdout.isTTY && outputHeight >= this.options.stdout.rows;\n        const diffFullscreen = diffsFullscreen(this, outputHeight);'],
    ['if (this.lastOutputHeight >= this.options.stdout.rows) {', 'if (this.lastOutputHeight >= this.options.stdout.rows && !diffFullscreen) {'],
    ['this.log.clear();', 'this.log.clear();\n        this.fullscreenShown = false;', 'all'],
  ],
  append: `
function diffsFullscreen(ink, outputHeight) {
  const rows = ink.options.stdout.rows;
  const shown = ink.fullscreenShown === true;
  // Either Ink redraws this frame whole (the last one filled the terminal) or it is diffed
  // from a frame that was: then, if it fills the terminal exactly, it is on screen whole.
  ink.fullscreenShown = ink.lastOutputHeight >= rows && outputHeight === rows && ink.fullStaticOutput === '';
  return shown && ink.options.incrementalRendering === true && process.platform !== 'win32' && ink.lastOutputHeight === rows && outputHeight === rows;
}
`,
});
// The incremental path writes a changed row and then erases to its end; after a row as wide as
// the terminal the cursor sits on its last cell, which xterm's erase takes with it (the
// selected row's inverse bar would lose its last column). Erasing first, then writing, shows the
// same row without that.
// Also in log-update.js: when a diffed frame exactly fills the terminal (so its first row is the
// terminal's first) and a block of rows moved by one (the table scrolled one row), the terminal
// scrolls that block itself (a scroll region, one line up or down) and only the rows that really
// differ are written: ~0.4 instead of ~3.2 kB a keypress while scrolling through the call log.
INK_PATCHES.push({
  file: /[\\/]ink[\\/]build[\\/]log-update\.js$/,
  edits: [
    ['ansiEscapes.cursorTo(0) +\n                nextLines[i] +\n                ansiEscapes.eraseEndLine +', 'ansiEscapes.cursorTo(0) +\n                ansiEscapes.eraseEndLine +\n                nextLines[i] +'],
    [
      'else {\n            buffer.push(ansiEscapes.cursorUp(previousVisible - 1));\n        }',
      'else {\n            const scroll = scrolledBlock(stream, previousLines, previousOutput, nextLines, str, cursorWasShown || activeCursor !== undefined);\n            if (scroll) {\n                buffer.push(scroll.escapes);\n                previousLines = scroll.lines;\n            }\n            else {\n                buffer.push(ansiEscapes.cursorUp(previousVisible - 1));\n            }\n        }',
    ],
  ],
  append: `
// The longest run of rows that are now the row one below (shift 1) or above (shift -1) them in
// the last frame, and changed; null unless both frames fill the terminal exactly, no cursor is
// shown and the run is worth a scroll. Else the escapes that scroll it into place and leave the
// cursor on the first row, and the last frame's rows as the screen then holds them.
function scrolledBlock(stream, previousLines, previousOutput, nextLines, str, cursorShown) {
  const rows = stream.rows;
  if (cursorShown || !rows || nextLines.length !== rows || previousLines.length !== rows || str.endsWith('\\n') || previousOutput.endsWith('\\n')) return null;
  let best = { length: 0 };
  for (const shift of [1, -1]) {
    let start = -1;
    for (let i = 0; i <= rows; i++) {
      const from = i + shift;
      const moved = i < rows && from >= 0 && from < rows && nextLines[i] !== previousLines[i] && nextLines[i] === previousLines[from];
      if (moved && start < 0) start = i;
      if (!moved && start >= 0) {
        if (i - start > best.length) best = { shift, start, length: i - start };
        start = -1;
      }
    }
  }
  if (best.length < 3) return null;
  const lines = [...previousLines];
  let escapes;
  if (best.shift === 1) {
    // Rows start..end take the rows below them: scroll the region start..end+1 up by one.
    const end = best.start + best.length - 1;
    escapes = '\\u001B[' + (best.start + 1) + ';' + (end + 2) + 'r\\u001B[S';
    lines.splice(best.start, best.length + 1, ...previousLines.slice(best.start + 1, end + 2), '');
  } else {
    // Rows start..end take the rows above them: scroll the region start-1..end down by one.
    const end = best.start + best.length - 1;
    escapes = '\\u001B[' + best.start + ';' + (end + 1) + 'r\\u001B[T';
    lines.splice(best.start - 1, best.length + 1, '', ...previousLines.slice(best.start - 1, end));
  }
  // Resetting the region puts the cursor home: the frame's first row.
  return { escapes: escapes + '\\u001B[r\\u001B[H', lines };
}
`,
});
// yoga's WASM is inlined as a base64 data: URL, and its loader fetches that URL with the global
// fetch when one exists: on Node that loads and runs undici's whole fetch stack (≈50-60 ms of the
// console's start) to decode a string. Telling the loader there is no fetch makes it take its own
// synchronous base64 path. Same bytes, same module.
INK_PATCHES.push({
  file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
  edits: [['typeof fetch', '"undefined"', 'all']],
  append: '',
});

/** The esbuild plugin that applies INK_PATCHES as the files load. */
export const inkPatches = {
  name: 'ink-patches',
  setup(b) {
    for (const patch of INK_PATCHES) {
      b.onLoad({ filter: patch.file }, async (args) => {
        let src = await readFile(args.path, 'utf8');
        for (const [from, to, all] of patch.edits) {
          // A changed dependency keeps its own code, unpatched, rather than breaking the build.
          if (!src.includes(from)) return { contents: await readFile(args.path, 'utf8'), loader: 'js', warnings: [{ text: `${args.path} changed: left unmemoized` }] };
          src = all ? src.split(from).join(to) : src.replace(from, to);
        }
        return { contents: src + patch.append, loader: 'js' };
      });
    }
  },
};
