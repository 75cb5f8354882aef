// The program's entry (dist/cli.js), CommonJS on purpose: Node starts a CommonJS file without
// setting up its ESM loader (wall time and CPU that `--version` has no use for), so
// `switchboard --version` answers at bare-node speed, and a command runs from one CommonJS file
// (dist/commands.cjs) without it. The console alone and the sandbox's child start from the ESM bundle.
// Both are cli.ts, built twice (src/scripts/build.mjs).
// Bundled for old Node targets too, so an unsupported Node reads this far and says what it needs.
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { NODE_FLOOR } from './node-floor.cjs';

declare const __SWITCHBOARD_VERSION__: string;

/** a.b.c ≥ x.y.z, numerically. */
function atLeast(version: string, min: string): boolean {
  const a = version.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
  }
  return true;
}

const args = process.argv.slice(2);
if (!atLeast(process.versions.node, NODE_FLOOR)) {
  process.stderr.write(`switchboard: needs Node.js ${NODE_FLOOR} or newer; this is Node.js ${process.versions.node} (${process.execPath})\n`);
  process.exitCode = 2;
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${typeof __SWITCHBOARD_VERSION__ === 'string' ? __SWITCHBOARD_VERSION__ : '0.0.0-dev'}\n`);
} else {
  // Node keeps the code it compiles on disk (its own cache dir under the OS temp dir) and reuses
  // it at the next start.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  if (args.length === 0 || process.env.SWITCHBOARD_SANDBOX_CHILD === '1') void import('./cli.js');
  // The code cache's module (and the builtins it takes) loads only for a command: the console never uses it.
  else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runWithCodeCache }: typeof import('./code-cache.cjs') = require('./code-cache.cjs');
    runWithCodeCache(join(__dirname, 'commands.cjs'), args);
  }
}
