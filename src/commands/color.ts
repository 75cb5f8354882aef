// Whether a command or the console draws in colour: its own module, so the console's first
// steps (commands/console.ts) load it without the output formats and the config (zod) they import.

/**
 * Colour only for a terminal, unless the user says otherwise: `--no-color` and NO_COLOR turn it
 * off (https://no-color.org); FORCE_COLOR turns it on even in a pipe (FORCE_COLOR=0 turns it off).
 */
export function colorWanted(flag: boolean, env: NodeJS.ProcessEnv, tty: boolean): boolean {
  if (!flag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return tty;
}
