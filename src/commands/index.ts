// Runs the scriptable commands: builds the commander program, runs it, and turns every outcome
// into one exit code. Only the command named on the command line is loaded and built (its module,
// and what it imports); help, completion and a mistyped name build the whole program (program.ts).
import type { Command } from 'commander';
import { CommanderError } from 'commander';
import { failure } from '../api/errors.js';
import { cellWidth, wrapCells } from '../format/cells.js';
import { escapeLine } from '../format/escape.js';
import { applySettings, rootProgram } from './root.js';
import { EXIT, CommandFailed, takeExitCode, writeErr } from './runtime.js';
import { io, withIo, type Io } from './io.js';

/** Each command that can be built alone, by the name it is run with. */
const ONE_COMMAND: Record<string, () => Promise<Command>> = {
  assistants: () => import('./assistants.js').then((m) => m.assistantsCommand()),
  numbers: () => import('./numbers.js').then((m) => m.numbersCommand()),
  calls: () => import('./calls.js').then((m) => m.callsCommand()),
  archive: () => import('./archive.js').then((m) => m.archiveCommand()),
  files: () => import('./files.js').then((m) => m.filesCommand()),
  sessions: () => import('./sessions.js').then((m) => m.sessionsCommand()),
  chat: () => import('./chat.js').then((m) => m.chatCommand()),
  sandbox: () => import('./sandbox.js').then((m) => m.sandboxCommand()),
  login: () => import('./login.js').then((m) => m.loginCommand()),
  profiles: () => import('./profiles.js').then((m) => m.profilesCommand()),
  whoami: () => import('./whoami.js').then((m) => m.whoamiCommand()),
  doctor: () => import('./doctor.js').then((m) => m.doctorCommand()),
  test: () => import('./test.js').then((m) => m.testCommand()),
  mcp: () => import('./mcp.js').then((m) => m.mcpCommand()),
};

/** The root's options that take a value: the word after one is not a command's name. */
const VALUE_OPTIONS = new Set(['--profile', '-o', '--output']);

/** The command named on the command line (the first word that is not an option or an option's value). */
function commandNameOf(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) return arg;
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return undefined;
}

/** The program with the one command `argv` runs, or the whole program when it needs every command. */
async function programFor(argv: string[], version: string): Promise<Command> {
  const name = commandNameOf(argv);
  const load = name !== undefined && Object.hasOwn(ONE_COMMAND, name) ? ONE_COMMAND[name] : undefined;
  if (!load) return (await import('./program.js')).buildProgram(version);
  const program = rootProgram(version).addCommand(await load());
  applySettings(program);
  return program;
}

/**
 * Runs one invocation; never throws, never prints a stack trace. `streams`, when given, are its
 * standard streams in place of the process's (the tests run the program in process).
 */
export function runCommands(argv: string[], version: string, streams?: Io): Promise<number> {
  return withIo(streams, () => run(argv, version));
}

async function run(argv: string[], version: string): Promise<number> {
  // `switchboard calls list --all | head` closes the pipe early: that is the reader's choice, not an error.
  io().stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    writeErr(`switchboard: cannot write the output: ${err.message}`);
    process.exit(EXIT.failed);
  });
  const program = await programFor(argv, version);
  takeExitCode(); // an earlier run in this process (the tests run many) leaves no code behind
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
  const width = Math.max(40, Math.min(io().stderr.columns ?? 160, 160) - 2);
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
