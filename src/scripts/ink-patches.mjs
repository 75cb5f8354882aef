// Patches applied to Ink (and yoga's loader, widest-line and string-width) as esbuild bundles
// them: each names the file, the exact code it replaces and code appended to the module. They
// are written against one Ink (package.json pins it exactly); an edit whose code is not in the file fails the build, naming
// the file and the missing code, so an upgraded Ink never ships silently unpatched.
// test/ui/ink-patches.test.ts checks the patched output against Ink's own.
import { readFile } from 'node:fs/promises';

/** A function of its arguments memoized across frames (dropped wholesale when large). */
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

/** @typedef {{ name: string, file: RegExp, edits: [string, string, ('all' | undefined)?][], append: string }} InkPatch */
/** @type {InkPatch[]} */
export const INK_PATCHES = [];

// Each frame Ink builds a new Output with empty caches, so every line on screen is tokenized
// into styled cells and measured again although most rows did not change. One set of caches
// shared across frames (replaced when large, bounding its memory while scrolling through many
// distinct rows) keeps them. The caches are pure functions of the text: same output.
INK_PATCHES.push({
  name: 'output-caches',
  file: /[\\/]ink[\\/]build[\\/]output\.js$/,
  edits: [['caches = new OutputCaches();', 'caches = sharedOutputCaches();']],
  append: `
let sharedCaches;
function sharedOutputCaches() {
  if (!sharedCaches || sharedCaches.styledChars.size > 400 || sharedCaches.widths.size > 4000 || sharedCaches.blockWidths.size > 400) {
    sharedCaches = new OutputCaches();
  }
  return sharedCaches;
}
`,
});
// Each frame Ink paints a grid of cell objects for the whole screen and turns every row back into
// a string, although a cursor move changes two rows. Here Ink's write operations (same clipping,
// same transformers, in the same order) record what lands on each row; a row is painted, by
// Ink's own painting code moved out of applyWriteOperation, only when its writes differ from an
// earlier frame's, else its string comes from a memo. Same output.
const INK_PAINT_LINE = [
  "            let offsetX = x;",
  "            // Wide characters (e.g. CJK) occupy two cells: a leading",
  "            // cell with the character and a trailing placeholder with",
  "            // value ''. When an overlapping write lands in the middle",
  "            // of a wide character, the boundary cells need cleanup so",
  "            // the terminal never renders a half-visible wide character.",
  "            // Preserve the styles of cells outside the overlapping write.",
  "            if (currentLine[offsetX]?.value === '' &&",
  "                offsetX > 0 &&",
  "                this.caches.getStringWidth(currentLine[offsetX - 1]?.value ?? '') > 1) {",
  "                currentLine[offsetX - 1] = blankCell(currentLine[offsetX - 1]);",
  "            }",
  "            for (const character of characters) {",
  "                currentLine[offsetX] = character;",
  "                // Determine printed width using string-width to align with measurement",
  "                const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));",
  "                // For multi-column characters, clear following cells to avoid stray spaces/artifacts",
  "                if (characterWidth > 1) {",
  "                    for (let offset = 1; offset < characterWidth; offset++) {",
  "                        currentLine[offsetX + offset] = {",
  "                            type: 'char',",
  "                            // Preserve visible cells when the leading cell is outside the output.",
  "                            value: offsetX < 0 ? ' ' : '',",
  "                            fullWidth: false,",
  "                            styles: character.styles,",
  "                        };",
  "                    }",
  "                }",
  "                offsetX += characterWidth;",
  "            }",
  "            if (currentLine[offsetX]?.value === '') {",
  "                currentLine[offsetX] = blankCell(currentLine[offsetX]);",
  "            }",
].join('\n');
const INK_GRID = [
  "        const output = [];",
  "        for (let y = 0; y < this.height; y++) {",
  "            const row = [];",
  "            for (let x = 0; x < this.width; x++) {",
  "                row.push({",
  "                    type: 'char',",
  "                    value: ' ',",
  "                    fullWidth: false,",
  "                    styles: [],",
  "                });",
  "            }",
  "            output.push(row);",
  "        }",
].join('\n');
const INK_ROWS_TO_STRING = [
  "        const generatedOutput = output",
  "            .map(line => {",
  "            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742",
  "            const lineWithoutEmptyItems = line.filter(item => item !== undefined);",
  "            return styledCharsToString(lineWithoutEmptyItems).trimEnd();",
  "        })",
  "            .join('\\n');",
].join('\n');
INK_PATCHES.push({
  name: 'output-rows',
  file: /[\\/]ink[\\/]build[\\/]output\.js$/,
  edits: [
    [INK_PAINT_LINE, '            currentLine.push({ x, line, characters });'],
    [INK_GRID, '        const output = Array.from({ length: this.height }, () => []);'],
    [INK_ROWS_TO_STRING, "        const generatedOutput = output.map((writes) => paintedRow(this, writes)).join('\\n');"],
  ],
  append: `
const paintedRowMemo = new Map();
function paintedRow(output, writes) {
  let key = String(output.width);
  for (const { x, line } of writes) key += ';' + x + ',' + line.length + ',' + line;
  let hit = paintedRowMemo.get(key);
  if (hit === undefined) {
    if (paintedRowMemo.size > 2000) paintedRowMemo.clear();
    hit = paintRow(output, writes);
    paintedRowMemo.set(key, hit);
  }
  return hit;
}
function paintRow(output, writes) {
  const currentLine = [];
  for (let x = 0; x < output.width; x++) currentLine.push({ type: 'char', value: ' ', fullWidth: false, styles: [] });
  for (const { x, characters } of writes) {
${INK_PAINT_LINE.replaceAll('this.caches', 'output.caches')}
  }
  // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
  return styledCharsToString(currentLine.filter((item) => item !== undefined)).trimEnd();
}
`,
});
// Ink measures every text node again on each frame with an uncached widestLine (its layout's
// measureText has its own cache; the renderer's width check does not). A pure function of the
// text: memoized.
INK_PATCHES.push({
  name: 'widest-line',
  file: /[\\/]widest-line[\\/]index\.js$/,
  edits: [['export default function widestLine(string) {', 'function widestLineOf(string) {']],
  append: `export default widestLine;\n${memo('widestLine', 'widestLineOf', 'args[0]')}`,
});
// A frame is three writes (begin synchronized update, the frame, end), three system calls to the
// terminal; corked, they leave as one writev.
INK_PATCHES.push({
  name: 'cork',
  file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
  edits: [
    [
      'if (shouldSync && shouldWrite) {\n                    this.options.stdout.write(bsu);\n                }\n                this.log(output);\n' +
        '                if (shouldSync && shouldWrite) {\n                    this.options.stdout.write(esu);\n                }',
      'this.options.stdout.cork?.();\n                if (shouldSync && shouldWrite) {\n                    this.options.stdout.write(bsu);\n' +
        '                }\n                this.log(output);\n                if (shouldSync && shouldWrite) {\n' +
        '                    this.options.stdout.write(esu);\n                }\n                this.options.stdout.uncork?.();',
    ],
  ],
  append: '',
});
// When a diffed frame exactly fills the terminal (so its first row is the terminal's first) and
// a block of rows moved by one (the table scrolled one row), the terminal scrolls that block
// itself (a scroll region, one line up or down) and only the rows that really differ are
// written. Ink rewrites every moved row.
INK_PATCHES.push({
  name: 'scroll',
  file: /[\\/]ink[\\/]build[\\/]log-update\.js$/,
  edits: [
    [
      'else if (previousLines.length > 1) {\n            buffer.push(ansiEscapes.cursorUp(previousLines.length - 1));\n        }',
      'else if (previousLines.length > 1) {\n            const scroll = scrolledBlock(stream, previousLines, previousOutput, nextLines, text, wasCursorShown ' +
        '|| activeCursor !== undefined);\n            if (scroll) {\n                buffer.push(scroll.escapes);\n' +
        '                previousLines = scroll.lines;\n            }\n            else {\n' +
        '                buffer.push(ansiEscapes.cursorUp(previousLines.length - 1));\n            }\n        }',
    ],
  ],
  append: `
// The longest run of rows that are now the row one below (shift 1) or above (shift -1) them in
// the last frame, and changed; null unless both frames fill the terminal exactly, no cursor is
// shown and the run is worth a scroll. Else the escapes that scroll it into place and leave the
// cursor on the first row, and the last frame's rows as the screen then holds them.
function scrolledBlock(stream, previousLines, previousOutput, nextLines, str, cursorShown) {
  const rows = stream.rows;
  if (cursorShown || !rows || process.platform === 'win32' || nextLines.length !== rows || previousLines.length !== rows) return null;
  if (str.endsWith('\\n') || previousOutput.endsWith('\\n')) return null;
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
// fetch when one exists: on Node that loads and runs undici's whole fetch stack to decode a
// string. Telling the loader there is no fetch makes it take its own synchronous base64 path.
// Same bytes, same module.
INK_PATCHES.push({
  name: 'yoga-no-fetch',
  file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
  edits: [['typeof fetch', '"undefined"', 'all']],
  append: '',
});

// NO_COLOR and --no-color: no colour anywhere, but the text styles (inverse for the cursor and
// the selected row, bold, dim) stay, which chalk's level 0 would drop too. Every colour Ink draws
// (a Text's colour and background, a Box's border, whoever asked for it: the console or a
// library such as ink-select-input) passes through colorize, which leaves the text plain while the
// console's capabilities (src/ui/capabilities.ts) say so.
INK_PATCHES.push({
  name: 'no-color',
  file: /[\\/]ink[\\/]build[\\/]colorize\.js$/,
  edits: [
    [
      '    if (!color) {\n        return text;\n    }',
      "    if (!color || globalThis[Symbol.for('switchboard.noColor')] === true) {\n        return text;\n    }",
    ],
  ],
  append: '',
});

// string-width makes its Intl.Segmenter and its RGI emoji expression when it loads: ICU's
// start-up and building /^\p{RGI_Emoji}$/v's set of strings, paid before the
// console's first frame although that frame's text is measured without them (src/format/cells.ts,
// NARROW). Made on first use instead: the same segmenter and expression, the same widths.
// And its fast path for printable ASCII is widened to NARROW text (the console's lines are full of
// │ — … ›): Ink measures every line it draws, and segmenting them was a noticeable part of a frame.
// test/ui/ink-patches.test.ts checks NARROW here is src/format/cells.ts's, whose test checks every
// character of it against string-width.
export const NARROW_SOURCE =
  String.raw`^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482` +
  String.raw`\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u2800-\u28ff]*$`;
// commander imports node:child_process for executable subcommands, which Switchboard has none
// of; loading it loads node:net, node:dgram and their kin at every command's start. Here
// it is loaded only if a subcommand is ever spawned.
INK_PATCHES.push({
  name: 'commander-lazy-child-process',
  file: /[\\/]commander[\\/]lib[\\/]command\.js$/,
  entry: /[\\/]commander[\\/](esm\.mjs|index\.js)$/,
  edits: [
    [
      "import childProcess from 'node:child_process';",
      "const childProcess = { spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args) };",
    ],
  ],
  append: '',
});
INK_PATCHES.push({
  name: 'string-width-fast',
  file: /[\\/]string-width[\\/]index\.js$/,
  edits: [
    [
      'const segmenter = new Intl.Segmenter();',
      'let segmenterOnce;\nconst segmenter = { segment: (text) => (segmenterOnce ??= new Intl.Segmenter()).segment(text) };',
    ],
    [
      'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
      'let rgiEmojiRegexOnce;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiRegexOnce ??= /^\\p{RGI_Emoji}$/v).test(text) };',
    ],
    [
      '\tif (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}',
      `\tif (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n\tif (ambiguousIsNarrow && /${NARROW_SOURCE}/.test(string)) {\n` +
        `\t\treturn string.length;\n\t}`,
    ],
  ],
  append: '',
});

/** Ink's entry: a bundle that holds it must have every Ink patch applied. */
const INK_ENTRY = /[\\/]ink[\\/]build[\\/]index\.js$/;

/**
 * The esbuild plugin that applies `patches` as the files load; it also exports from Ink's entry
 * the names of the patches applied (`inkPatches`), so a test can tell the patched Ink from the
 * one in node_modules. An edit that finds nothing to replace fails the build, and so does a
 * bundle holding a patch's package entry (Ink's, or the patch's own `entry`: commander's) in
 * which the patch found no file to patch.
 */
export function inkPatchesPlugin(patches = INK_PATCHES) {
  return {
    name: 'ink-patches',
    setup(b) {
      // The bundle's inputs say which package entries it holds.
      b.initialOptions.metafile = true;
      const applied = new Set();
      b.onStart(() => {
        applied.clear();
      });
      b.onLoad({ filter: INK_ENTRY }, async (args) => {
        return { contents: `${await readFile(args.path, 'utf8')}\nexport const inkPatches = ${JSON.stringify(patches.map((p) => p.name))};\n`, loader: 'js' };
      });
      // One loader per file: esbuild takes the first onLoad that answers, so patches of the same
      // file are applied together, in order.
      const byFile = new Map();
      for (const p of patches) byFile.set(p.file.source, [...(byFile.get(p.file.source) ?? []), p]);
      for (const filePatches of byFile.values()) {
        b.onLoad({ filter: filePatches[0].file }, async (args) => {
          let src = await readFile(args.path, 'utf8');
          for (const patch of filePatches) {
            for (const [from, to, all] of patch.edits) {
              if (!src.includes(from)) {
                throw new Error(
                  `Ink patch "${patch.name}": ${args.path} no longer contains the code it replaces:\n${from}\n` +
                    `(the installed version differs from the one package.json pins; re-anchor or drop the patch in src/scripts/ink-patches.mjs)`,
                );
              }
              src = all ? src.split(from).join(to) : src.replace(from, () => to); // a function: no $ patterns in `to`
            }
            src += patch.append;
            applied.add(patch.name);
          }
          return { contents: src, loader: 'js' };
        });
      }
      b.onEnd((result) => {
        if (result.errors.length > 0) return;
        const inputs = Object.keys(result.metafile?.inputs ?? {});
        const missing = patches.filter((p) => inputs.some((path) => (p.entry ?? INK_ENTRY).test(path)) && !applied.has(p.name));
        if (missing.length > 0) {
          throw new Error(`Ink patches found no file to patch: ${missing.map((p) => `"${p.name}" (${p.file})`).join(', ')}`);
        }
      });
    },
  };
}

/** The plugin with every patch: what the console ships. */
export const inkPatches = inkPatchesPlugin();
