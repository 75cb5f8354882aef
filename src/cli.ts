// The ESM main (dist/main.mjs, reached through the CommonJS entry src/entry.cts, which answers
// `--version` itself): argv → a command, or the console. Everything heavy is imported lazily.

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
  const wantsConsole = argv.length === 0 || (argv.length === 2 && argv[0] === '--profile');
  if (wantsConsole) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      process.stderr.write('switchboard: the console needs an interactive terminal; for scripts use the commands (switchboard --help)\n');
      return 2;
    }
    const { startConsole } = await import('./ui/start.js');
    return startConsole({ profile: argv[0] === '--profile' ? argv[1] : undefined });
  }
  const { runCommands } = await import('./commands/index.js');
  return runCommands(argv, VERSION);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Last resort: never a stack trace for the user.
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`switchboard: ${msg}\n`);
    process.exitCode = 1;
  },
);
