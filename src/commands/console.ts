// The console as the commands open it: the root command (`switchboard [--profile P] [--debug]
// [--no-color]`) and `switchboard chat --assistant X` both come here, so a global option means
// the same in the console as in every command. The console's code loads only past the checks.
import { colorWanted } from './output.js';
import { setExitCode, UsageError, type Globals } from './runtime.js';
import type { ConsoleOptions } from '../ui/start.js';

export interface OpenConsole {
  /** What to name in the refusal off a terminal ("the console", "the chat console"). */
  what: string;
  /** What a script should use instead, for the same refusal. */
  forScripts: string;
  initialRoute?: ConsoleOptions['initialRoute'];
}

export async function openConsole(g: Globals, o: OpenConsole): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UsageError(`${o.what} needs an interactive terminal; for scripts use ${o.forScripts}`);
  if (g.output) throw new UsageError(`--output is for the commands; ${o.what} has no output format`);
  // A dumb terminal cannot move the cursor or switch screens: refused, not drawn as a scroll of frames.
  if (process.env.TERM === 'dumb') throw new UsageError(`${o.what} cannot run on TERM=dumb (it needs a terminal that moves the cursor); for scripts use ${o.forScripts}`);
  const { startConsole } = await import('../ui/start.js');
  const code = await startConsole({ profile: g.profile, debug: g.debug, color: colorWanted(g.color, process.env, true), initialRoute: o.initialRoute });
  setExitCode(code);
}
