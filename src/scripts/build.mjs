// Bundles the CLI into dist/ with esbuild. ESM + code splitting: the console, the sandbox and
// the commands are separate chunks loaded lazily, so `--version` loads almost nothing.
//
// `--outdir <dir>` builds the same bundle elsewhere (the benchmark builds its own copy so it never
// races a concurrent `npm test` rebuilding dist/); the dir must sit inside the repo so the
// external better-sqlite3 and assets/ resolve from it.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : resolve(root, 'dist');
rmSync(outdir, { recursive: true, force: true });

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
const INK_PATCHES = [
  {
    file: /[\\/]ink[\\/]build[\\/]output\.js$/,
    edits: [
      ['caches = new OutputCaches();', 'caches = sharedOutputCaches();'],
      ['return sliceAnsi(line, from, to);', 'return slicedLine(line, from, to);'],
    ],
    append: `
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
// yoga's WASM is inlined as a base64 data: URL, and its loader fetches that URL with the global
// fetch when one exists: on Node that loads and runs undici's whole fetch stack (≈50-60 ms of the
// console's start) to decode a string. Telling the loader there is no fetch makes it take its own
// synchronous base64 path. Same bytes, same module.
INK_PATCHES.push({
  file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
  edits: [['typeof fetch', '"undefined"', 'all']],
  append: '',
});

const memoizeInkFrames = {
  name: 'memoize-ink-frames',
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

await build({
  entryPoints: { cli: resolve(root, 'src/cli.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [memoizeInkFrames],
  // Native addon and optional dev-only imports stay outside the bundle.
  external: ['better-sqlite3', 'react-devtools-core'],
  define: { __SWITCHBOARD_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  banner: {
    // Some bundled CommonJS dependencies call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
});

// Under node_modules/ (a cache dir) the repo's package.json no longer scopes the files: say ESM here.
if (outdir !== resolve(root, 'dist')) {
  mkdirSync(outdir, { recursive: true });
  writeFileSync(resolve(outdir, 'package.json'), '{ "type": "module" }\n');
}
