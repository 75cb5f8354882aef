// The esbuild settings of the console's ESM bundle, shared by the build (build.mjs) and the
// benchmark's Ink floor (test/bench/rows/startup.ts), so "bundled like the console" stays true.
// Ink and the few packages the console changes are patched where they are installed
// (src/patches), so the bundle, the tests and every script run the same code.

/** Options for an ESM, code-split Node bundle; callers add entries, outdir and their own externals/defines. */
export function esmBundleOptions({ external = [], define = {} } = {}) {
  return {
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Node 22 has the RegExp v flag, which esbuild's tables miss: without this it rewrites each
    // /…/v literal as new RegExp(…, 'v'), parsed when the module loads rather than on first use —
    // string-width's /^\p{RGI_Emoji}$/v alone was a visible part of every start-up that way.
    supported: { 'regexp-set-notation': true },
    logLevel: 'warning',
    // Optional dev-only imports stay outside the bundle.
    external: ['react-devtools-core', ...external],
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    banner: {
      // Some bundled CommonJS dependencies call require(); give them one.
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
  };
}
