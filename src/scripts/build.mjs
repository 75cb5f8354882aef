// Bundles the CLI into dist/ with esbuild. ESM + code splitting: the console, the sandbox and
// the commands are separate chunks loaded lazily, so `--version` loads almost nothing.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  // Native addon and optional dev-only imports stay outside the bundle.
  external: ['better-sqlite3', 'react-devtools-core'],
  define: { __SWITCHBOARD_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  banner: {
    // Some bundled CommonJS dependencies call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
});
