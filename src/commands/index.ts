// The scriptable commands: builds the commander program, runs it, and turns every outcome into
// one exit code. Stays light: each resource's work (and anything heavy) loads inside its action.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { failure } from '../api/errors.js';
import { archiveCommand } from './archive.js';
import { cellWidth, wrapCells } from '../format/cells.js';
import { escapeLine } from '../format/escape.js';
import { assistantsCommand } from './assistants.js';
import { callsCommand } from './calls.js';
import { chatCommand } from './chat.js';
import { completionCommand } from './completion.js';
import { doctorCommand } from './doctor.js';
import { filesCommand } from './files.js';
import { loginCommand } from './login.js';
import { numbersCommand } from './numbers.js';
import { FORMATS } from './output.js';
import { profilesCommand } from './profiles.js';
import { ROOT_CONSOLE, openConsole } from './console.js';
import { EXIT, CommandFailed, UsageError, action, globalsOf, rejectStrayWords, takeExitCode, writeErr } from './runtime.js';
import { sandboxCommand } from './sandbox.js';
import { sessionsCommand } from './sessions.js';
import { whoamiCommand } from './whoami.js';
import { testCommand } from './test.js';
import { TEST_FORMATS } from '../scenarios/report.js';

export function buildProgram(version: string): Command {
  const program = new Command('switchboard')
    .description(
      'A terminal console, scriptable commands and a local sandbox for the Voice Agent Service.\nRun without arguments on a terminal to open the console.',
    )
    .version(version, '-V, --version', 'print the version')
    .option('--profile <name>', 'use this profile (default: SWITCHBOARD_PROFILE, then the current profile, then the sandbox)')
    .addOption(
      new Option(
        '-o, --output <format>',
        `output format: ${FORMATS.join(', ')} (default: table); for \`switchboard test\`: ${TEST_FORMATS.join(', ')} (default: text)`,
      ).argParser(outputFormat),
    )
    .option('--debug', 'print each request and response line to stderr (the console: to its debug log); never the key')
    .option('--wide', 'tables on a terminal: full ids and every column, however wide (by default they fit the window)')
    .option('--no-color', 'no colour in the output (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--read-only', 'refuse every write (to the service, the config and the archive) with one line; a profile can ask for it too')
    .option('--theme <theme>', 'the console: light, dark or a theme file (default: "theme" in config.json, else theme.yaml in the config dir, else dark)')
    .option('--mouse', 'the console: the wheel scrolls and a click selects (off by default: the terminal keeps its own selection)')
    // No subcommand: the console, with these same global options.
    .allowExcessArguments(true)
    .helpCommand(true) // commander drops its `help` command once the root has an action
    .action(
      action('open the console', async (_o: unknown, c: Command) => {
        rejectStrayWords(c);
        await openConsole(globalsOf(c), ROOT_CONSOLE);
      }),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard                                  open the console\n  $ switchboard assistants list\n' +
        '  $ switchboard calls list --after 24h -o json | jq .\n  $ switchboard login --profile prod --base-url https://api.example.com',
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
    doctorCommand(),
    testCommand(),
    completionCommand(),
  ]) {
    program.addCommand(cmd);
  }
  // -o is global, but `test` writes other formats than the record commands: checked per command.
  program.hook('preAction', (_root, actionCommand) => {
    const format = actionCommand.optsWithGlobals<{ output?: string }>().output;
    if (format === undefined || actionCommand.name() === 'test') return;
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`option '-o, --output <format>' argument '${format}' is invalid for this command. Allowed choices are ${FORMATS.join(', ')}.`);
    }
  });
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
      // One line: "switchboard: unknown command 'asistants' (Did you mean assistants?)". It quotes
      // the user's own argument, which may hold escape sequences pasted from anywhere.
      outputError: (s, write) =>
        write(
          `${escapeLine(
            s
              .replace(/^error: /, 'switchboard: ')
              .trimEnd()
              .replace(/\n+/g, ' '),
          )}\n`,
        ),
    });
  for (const child of cmd.commands) applySettings(child);
}

/** Any format some command writes; which command may use which is checked before its action. */
function outputFormat(value: string): string {
  if ((FORMATS as readonly string[]).includes(value) || (TEST_FORMATS as readonly string[]).includes(value)) return value;
  throw new InvalidArgumentError(`Allowed choices are ${FORMATS.join(', ')} (switchboard test: ${TEST_FORMATS.join(', ')}).`);
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
    return reportFailure(err, program.opts<{ debug?: boolean }>().debug === true);
  }
}

/** A message of more lines than this, or more cells, is printed as lines and cut, unless --debug. */
const MAX_ERROR_LINES = 4;
const LONG_LINE_CELLS = 300;

/**
 * A long error message (a service's error body) as at most MAX_ERROR_LINES lines of stderr, the
 * last saying how many more there were; --debug prints it whole. Short ones stay one line
 * (failure() joins their lines).
 */
function errorLines(message: string, debug: boolean): string[] | undefined {
  const raw = message.split(/\r?\n/);
  if (raw.length <= MAX_ERROR_LINES && cellWidth(message) <= LONG_LINE_CELLS) return undefined; // one line, as always
  const width = Math.max(40, Math.min(process.stderr.columns ?? 160, 160) - 2);
  const lines = raw.flatMap((l) => (l.trim() === '' ? [] : wrapCells(escapeLine(l), width)));
  if (debug || lines.length <= MAX_ERROR_LINES) return lines;
  const shown = lines.slice(0, MAX_ERROR_LINES - 1);
  return [...shown, `…(${lines.length - shown.length} more lines; --debug prints them all)`];
}

export function reportFailure(err: unknown, debug = false): number {
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
  const cause = err instanceof CommandFailed ? err.cause : err;
  const long = errorLines(cause instanceof Error ? cause.message : String(cause), debug);
  if (long) {
    const [first, ...rest] = long;
    writeErr(`switchboard: ${what}${first}`);
    for (const line of rest) writeErr(`  ${line}`);
    if (f.hint) writeErr(`  hint: ${f.hint}`);
  } else writeErr(`switchboard: ${what}${f.message}${f.hint ? ` (hint: ${f.hint})` : ''}`);
  return f.kind === 'auth' ? EXIT.auth : EXIT.failed;
}
