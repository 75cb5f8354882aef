// What every command shares: the global options, the output target, the connection to the
// service, and the one place errors become a line on stderr and an exit code.
import { CommanderError, type Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import { ReadOnlyError } from '../api/errors.js';
import { redactKey } from '../config/mask.js';
import type { Target } from '../target.js';
import { escapeLine } from '../format/escape.js';
import { colorWanted } from './color.js';
import type { Format, OutputTarget } from './output.js';

export { EXIT, UsageError, CommandFailed, setExitCode, takeExitCode } from './exit.js';
import { UsageError, CommandFailed } from './exit.js';
import { io } from './io.js';

/**
 * For commands that have an action and subcommands (`chat`, `sandbox`): a stray word is a
 * mistyped subcommand, so answer with commander's "did you mean" instead of "too many arguments".
 */
export function rejectStrayWords(cmd: Command): void {
  if (cmd.args.length > 0) (cmd as unknown as { unknownCommand(): never }).unknownCommand();
}

export interface Globals {
  profile?: string;
  output?: Format;
  debug?: boolean;
  color: boolean;
  wide?: boolean;
  readOnly?: boolean;
  mouse?: boolean;
  theme?: string;
}

export function globalsOf(cmd: Command): Globals {
  return cmd.optsWithGlobals<Globals>();
}

/** A local write (the config, the archive) under --read-only is refused as the client refuses the service's. */
export function refuseWhenReadOnly(cmd: Command, what: string): void {
  if (globalsOf(cmd).readOnly) throw new ReadOnlyError(what);
}

/** Keys seen in this run; anything written to stderr is scrubbed of them. */
const secrets = new Set<string>();
export function addSecret(key: string | undefined): void {
  if (key && key.length >= 4) secrets.add(key);
}

function scrub(text: string): string {
  let s = text;
  for (const key of secrets) s = redactKey(s, key);
  return s;
}

/** One line on stderr: service text in it (error messages, names) escaped, keys scrubbed. */
export function writeErr(line: string): void {
  io().stderr.write(scrub(escapeLine(line.replace(/\n$/, ''))) + '\n');
}

export function outputFor(g: Globals): OutputTarget {
  const tty = io().stdout.isTTY === true;
  return {
    format: g.output ?? 'table',
    tty,
    color: colorWanted(g.color, process.env, tty),
    width: tty ? io().stdout.columns : undefined,
    wide: g.wide === true,
    write: (text) => {
      io().stdout.write(text);
    },
  };
}

export interface ApiContext {
  api: VoiceAgentApi;
  /** Where the requests go: the live target's description (remote URL or embedded sandbox). */
  target: Target;
  out: OutputTarget;
  globals: Globals;
}

/** Connects to the configured target (starting the embedded sandbox if none), runs `fn`, disconnects. */
export async function withApi<T>(cmd: Command, fn: (ctx: ApiContext) => Promise<T>): Promise<T> {
  const globals = globalsOf(cmd);
  const { connect } = await import('../target.js');
  const conn = await connect({
    profile: globals.profile,
    env: process.env,
    readOnly: globals.readOnly,
    sandboxIn: 'shared',
    debug: globals.debug ? (line: string) => writeErr(`debug: ${line}`) : undefined,
    onWarning: (line: string) => writeErr(`warning: ${line}`),
  });
  addSecret(conn.target.apiKey);
  try {
    return await fn({ api: conn.api, target: conn.target, out: outputFor(globals), globals });
  } finally {
    await conn.close();
  }
}

/**
 * Wraps an action so a failure carries what the user asked for. Usage errors pass through
 * unlabelled: their message already names the bad value.
 */
export function action<A extends unknown[]>(what: string, fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      throw err instanceof UsageError || err instanceof CommandFailed || err instanceof CommanderError ? err : new CommandFailed(what, err);
    }
  };
}
