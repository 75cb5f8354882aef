// The scriptable commands: builds the commander program, runs it, and turns every outcome into
// one exit code. Stays light: each resource's work (and anything heavy) loads inside its action.
import { Command, CommanderError, Option } from 'commander';
import { failure } from '../api/errors.js';
import { archiveCommand } from './archive.js';
import { assistantsCommand } from './assistants.js';
import { callsCommand } from './calls.js';
import { chatCommand } from './chat.js';
import { completionCommand } from './completion.js';
import { filesCommand } from './files.js';
import { loginCommand } from './login.js';
import { numbersCommand } from './numbers.js';
import { FORMATS } from './output.js';
import { profilesCommand } from './profiles.js';
import { openConsole } from './console.js';
import { EXIT, CommandFailed, action, globalsOf, rejectStrayWords, takeExitCode, writeErr } from './runtime.js';
import { sandboxCommand } from './sandbox.js';
import { sessionsCommand } from './sessions.js';
import { whoamiCommand } from './whoami.js';

export function buildProgram(version: string): Command {
  const program = new Command('switchboard')
    .description('A terminal console, scriptable commands and a local sandbox for the Voice Agent Service.\nRun without arguments on a terminal to open the console.')
    .version(version, '-V, --version', 'print the version')
    .option('--profile <name>', 'use this profile (default: SWITCHBOARD_PROFILE, then the current profile, then the sandbox)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table)').choices(FORMATS))
    .option('--debug', 'print each request and response line to stderr (the console: to its debug log); never the key')
    .option('--no-color', 'no colour in the output (NO_COLOR and FORCE_COLOR are honoured too)')
    // No subcommand: the console, with these same global options.
    .allowExcessArguments(true)
    .helpCommand(true) // commander drops its `help` command once the root has an action
    .action(
      action('open the console', async (_o: unknown, c: Command) => {
        rejectStrayWords(c);
        await openConsole(globalsOf(c), { what: 'the console', forScripts: 'the commands (switchboard --help)' });
      }),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard                                  open the console\n  $ switchboard assistants list\n  $ switchboard calls list --after 24h -o json | jq .\n  $ switchboard login --profile prod --base-url https://api.example.com',
    );
  for (const cmd of [
    assistantsCommand(),
    numbersCommand(),
    callsCommand(),
    archiveCommand(),
    filesCommand(),
    sessionsCommand(),
    chatCommand(),
    sandboxCommand(),
    loginCommand(),
    profilesCommand(),
    whoamiCommand(),
    completionCommand(),
  ]) {
    program.addCommand(cmd);
  }
  applySettings(program);
  return program;
}

// addCommand() does not hand settings down the way command() does, so apply them to the whole tree.
function applySettings(cmd: Command): void {
  cmd
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      // One line: "switchboard: unknown command 'asistants' (Did you mean assistants?)"
      outputError: (s, write) => write(`${s.replace(/^error: /, 'switchboard: ').trimEnd().replace(/\n+/g, ' ')}\n`),
    });
  for (const child of cmd.commands) applySettings(child);
}

/** Runs one invocation; never throws, never prints a stack trace. */
export async function runCommands(argv: string[], version: string): Promise<number> {
  // `switchboard calls list --all | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    writeErr(`switchboard: cannot write the output: ${err.message}`);
    process.exit(EXIT.failed);
  });
  const program = buildProgram(version);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return takeExitCode();
  } catch (err) {
    return reportFailure(err);
  }
}

function reportFailure(err: unknown): number {
  if (err instanceof CommanderError) {
    // Commander already printed its message, or the help / version (exit code 0).
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const f = failure(err instanceof CommandFailed ? err.cause : err);
  // Bad input needs no "could not…": its message names the value and what to give instead.
  if (f.kind === 'input') {
    writeErr(`switchboard: ${f.message}`);
    return EXIT.usage;
  }
  const what = err instanceof CommandFailed ? `could not ${err.what}: ` : '';
  writeErr(`switchboard: ${what}${f.message}${f.hint ? ` (hint: ${f.hint})` : ''}`);
  return f.kind === 'auth' ? EXIT.auth : EXIT.failed;
}
