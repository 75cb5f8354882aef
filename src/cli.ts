// The ESM main (dist/main.mjs, reached through the CommonJS entry src/entry.cts, which answers
// `--version` itself): argv → commander (commands/index.ts), whose root action is the console.
// Everything heavy is imported lazily.

declare const __SWITCHBOARD_VERSION__: string;
const VERSION = typeof __SWITCHBOARD_VERSION__ === 'string' ? __SWITCHBOARD_VERSION__ : '0.0.0-dev';

async function main(argv: string[]): Promise<number> {
  // The console's embedded sandbox runs as a child of the console: this same program, marked.
  if (process.env.SWITCHBOARD_SANDBOX_CHILD === '1' && process.send) {
    const { runSandboxChild } = await import('./sandbox/child.js');
    await runSandboxChild();
    return 0;
  }
  // No unhandled error reaches the user as a stack trace (details go to the debug log).
  const { installCrashHandler } = await import('./crash.js');
  installCrashHandler();
  // `switchboard` alone is the console: opened without loading the commands' parser.
  if (argv.length === 0) {
    const { openConsoleAlone } = await import('./commands/console.js');
    return openConsoleAlone();
  }
  // The commands' parser decides, console included: its root action opens the console.
  const { runCommands } = await import('./commands/index.js');
  return runCommands(argv, VERSION);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    // Last resort: never a stack trace for the user, and the message is escaped like any other.
    const msg = err instanceof Error ? err.message : String(err);
    const { escapeLine } = await import('./format/escape.js');
    process.stderr.write(`switchboard: ${escapeLine(msg)}\n`);
    process.exitCode = 1;
  },
);
