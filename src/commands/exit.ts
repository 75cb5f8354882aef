// Exit codes and the errors that choose them, apart from commander so the console, opened
// without the commands' parser (src/cli.ts), shares them.
import { brandError, InputError } from '../api/errors.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 4 } as const;

/** Bad usage or invalid input: exit 2, with a message naming the bad value. */
export class UsageError extends InputError {
  override name = 'UsageError';
}

/** An action that failed, labelled with what the user asked for ("list assistants"). */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
  constructor(
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(`could not ${what}`);
  }
}

// An action that finishes with a code other than 0 without failing (the console's own code).
let exitCode: number = EXIT.ok;
export function setExitCode(code: number): void {
  exitCode = code;
}
/** The code set since the last take, then back to 0: a second run in one process starts clean. */
export function takeExitCode(): number {
  const code = exitCode;
  exitCode = EXIT.ok;
  return code;
}

brandError(UsageError, 'UsageError');
brandError(CommandFailed, 'CommandFailed');
