// The program's entry (dist/cli.js), CommonJS on purpose: Node starts a CommonJS file without
// setting up its ESM loader (≈30 ms of wall time and 60 ms of CPU on the dev machine), so
// `switchboard --version` answers at bare-node speed. Everything else is the ESM bundle (cli.ts).
import * as nodeModule from 'node:module';

declare const __SWITCHBOARD_VERSION__: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${typeof __SWITCHBOARD_VERSION__ === 'string' ? __SWITCHBOARD_VERSION__ : '0.0.0-dev'}\n`);
} else {
  // Node ≥ 22.1 keeps the code it compiles on disk (its own cache dir under the OS temp dir) and
  // reuses it at the next start: much of what loading the console's UI costs. Node 20 has none.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  void import('./cli.js');
}
