// The console as the commands open it: the root command (`switchboard [--profile P] [--debug]
// [--no-color]`) and `switchboard chat --assistant X` both come here, so a global option means
// the same in the console as in every command. The console's code loads only past the checks.
//
// `switchboard` alone is the console with every global option at its default: src/cli.ts opens it
// through openConsoleAlone, without loading commander and every command's module first (time
// the first frame would wait for). test/commands/console-alone.test.ts checks those defaults are commander's.
import { colorWanted } from './color.js';
import { setExitCode, takeExitCode, UsageError } from './exit.js';
import type { Globals } from './runtime.js';
import type { ConsoleOptions } from '../ui/start.js';
import { io } from './io.js';

export interface OpenConsole {
  /** What to name in the refusal off a terminal ("the console", "the chat console"). */
  what: string;
  /** What a script should use instead, for the same refusal. */
  forScripts: string;
  initialRoute?: ConsoleOptions['initialRoute'];
}

/** The root command's console (its refusal off a terminal names the commands instead). */
export const ROOT_CONSOLE: OpenConsole = { what: 'the console', forScripts: 'the commands (switchboard --help)' };

/** The global options as commander gives them when none is given. */
export const DEFAULT_GLOBALS: Globals = { color: true };

/** `switchboard` with no arguments: the root command's action, with its failures reported as the commands report them. */
export async function openConsoleAlone(): Promise<number> {
  try {
    await openConsole(DEFAULT_GLOBALS, ROOT_CONSOLE);
    return takeExitCode();
  } catch (err) {
    const { reportFailure } = await import('./index.js');
    return reportFailure(err);
  }
}

export async function openConsole(g: Globals, o: OpenConsole): Promise<void> {
  if (!io().stdin.isTTY || !io().stdout.isTTY) throw new UsageError(`${o.what} needs an interactive terminal; for scripts use ${o.forScripts}`);
  if (g.output) throw new UsageError(`--output is for the commands; ${o.what} has no output format`);
  // A dumb terminal cannot move the cursor or switch screens: refused, not drawn as a scroll of frames.
  if (process.env.TERM === 'dumb')
    throw new UsageError(`${o.what} cannot run on TERM=dumb (it needs a terminal that moves the cursor); for scripts use ${o.forScripts}`);
  const { startConsole } = await import('../ui/start.js');
  const code = await startConsole({
    profile: g.profile,
    debug: g.debug,
    readOnly: g.readOnly,
    mouse: g.mouse,
    theme: g.theme,
    color: colorWanted(g.color, process.env, true),
    initialRoute: o.initialRoute,
  });
  setExitCode(code);
}
