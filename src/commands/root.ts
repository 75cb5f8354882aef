// The root command alone: the global options, the console as its action, and the settings every
// command gets. Each resource's command is added by whoever runs the program: all of them for help
// and completion (program.ts), only the one named on the command line otherwise (index.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { escapeLine } from '../format/escape.js';
import { FORMATS } from './output.js';
import { ROOT_CONSOLE, openConsole } from './console.js';
import { UsageError, action, globalsOf, rejectStrayWords } from './runtime.js';
import { TEST_FORMATS } from '../scenarios/report.js';
import { io } from './io.js';

export function rootProgram(version: string): Command {
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
  // -o is global, but `test` writes other formats than the record commands: checked per command.
  program.hook('preAction', (_root, actionCommand) => {
    const format = actionCommand.optsWithGlobals<{ output?: string }>().output;
    if (format === undefined || actionCommand.name() === 'test') return;
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`option '-o, --output <format>' argument '${format}' is invalid for this command. Allowed choices are ${FORMATS.join(', ')}.`);
    }
  });
  return program;
}

// addCommand() does not hand settings down the way command() does, so apply them to the whole tree.
export function applySettings(cmd: Command): void {
  cmd
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io().stdout.write(s),
      writeErr: (s) => io().stderr.write(s),
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
