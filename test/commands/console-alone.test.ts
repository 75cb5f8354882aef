// `switchboard` alone opens the console without commander (src/cli.ts → openConsoleAlone): the
// options it opens it with must be the root command's when none is given, or the two ways in
// would differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../src/commands/program.js';
import { DEFAULT_GLOBALS } from '../../src/commands/console.js';
import { globalsOf, type Globals } from '../../src/commands/runtime.js';

/** The global options the root command's action is given for these arguments. */
async function rootGlobals(args: string[]): Promise<Globals> {
  const program = buildProgram('0.0.0-test');
  let seen: Globals | undefined;
  program.action((_opts: unknown, cmd: Parameters<typeof globalsOf>[0]) => {
    seen = globalsOf(cmd);
  });
  await program.parseAsync(args, { from: 'user' });
  assert.ok(seen, 'the root action ran');
  return seen;
}

test("the console alone has commander's defaults for every global option", async () => {
  assert.deepEqual(await rootGlobals([]), DEFAULT_GLOBALS);
  // …and an option does change what the action is given
  assert.notDeepEqual(await rootGlobals(['--no-color']), DEFAULT_GLOBALS);
  assert.notDeepEqual(await rootGlobals(['--profile', 'x']), DEFAULT_GLOBALS);
});
