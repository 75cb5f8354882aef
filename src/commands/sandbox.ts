// switchboard sandbox [flags]            run the local Voice Agent Service standalone
// switchboard sandbox ring <did>          simulate an inbound call on a linked number
// switchboard sandbox seed --calls N      bulk-insert past calls (large data dirs for the benchmark)
// The sandbox (fastify, sqlite) is imported only inside these actions.
import { Command, InvalidArgumentError, Option } from 'commander';
import { closeSync, openSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
// A few lines with no dependency: --help and flag parsing never load the sandbox itself.
import { InputError } from '../api/errors.js';
import { readHandedFile } from '../config/files.js';
import { maskUserInfo } from '../config/url.js';
import { escapeLine } from '../format/escape.js';
import { checkCorsOrigin } from '../sandbox/cors.js';
import { nonEmpty, positiveInt, positiveIntUpTo } from './input.js';
import { MAX_RING_EVERY, RING_EVERY_VAR } from '../sandbox/child.js';
import { type Column } from '../format/column.js';
import { printRecord } from './output.js';
import { action, globalsOf, outputFor, refuseWhenReadOnly, rejectStrayWords, setExitCode, UsageError } from './runtime.js';
import { io } from './io.js';

interface SandboxFlags {
  port?: number;
  host?: string;
  apiKey?: string;
  apiKeyFile?: string;
  dataDir?: string;
  maxUploadMb?: number;
  cors?: string;
  logFile?: string;
  ringEvery?: number;
}

/** --log-file: a file this process can append to (made 0600 if new), as an absolute path. */
function logFile(value: string): string {
  const path = resolvePath(nonEmpty(value));
  try {
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its directory does not exist'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (err as Error).message;
    throw new InvalidArgumentError(`Cannot write to ${path}: ${why}.`);
  }
  return path;
}

function corsOrigin(value: string): string {
  if (checkCorsOrigin(value)) return value;
  throw new InvalidArgumentError(
    `--cors takes an origin like http://localhost:5173 (scheme, host and port, no path) or *; got "${escapeLine(maskUserInfo(value))}"`,
  );
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('It must be a port number from 0 to 65535.');
  return n;
}

/** The longest key file read: a key is a line, not a document. */
const KEY_FILE_MAX_BYTES = 4096;

/** --api-key-file: the key is the file's first line. */
function keyFile(value: string): string {
  const path = resolvePath(nonEmpty(value));
  let text: string;
  try {
    text = readHandedFile(path, 'a key file', { maxBytes: KEY_FILE_MAX_BYTES, tooLargeHint: 'give a file holding just the key' });
  } catch (err) {
    if (err instanceof InputError) throw new InvalidArgumentError(err.message);
    throw err;
  }
  const key = text.split(/\r?\n/, 1)[0].trim();
  if (!key) throw new InvalidArgumentError(`${path} holds no key on its first line.`);
  return key;
}

/**
 * The key the sandbox asks for, from the flag, the file or SWITCHBOARD_SANDBOX_KEY (undefined:
 * generate one). A key given on the command line is visible to every user of the machine in `ps`.
 */
function sandboxKey(flags: SandboxFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.apiKey !== undefined && flags.apiKeyFile !== undefined) throw new UsageError('give the key with --api-key or --api-key-file, not both.');
  if (flags.apiKey !== undefined) {
    io().stderr.write('warning: a key given with --api-key is visible to other users of this machine (ps); prefer --api-key-file or SWITCHBOARD_SANDBOX_KEY\n');
    return flags.apiKey;
  }
  if (flags.apiKeyFile !== undefined) return flags.apiKeyFile;
  const fromEnv = env.SWITCHBOARD_SANDBOX_KEY?.trim();
  return fromEnv ? fromEnv : undefined;
}

async function dataDirOf(flags: SandboxFlags): Promise<string> {
  if (flags.dataDir) return flags.dataDir;
  const { sandboxDataDir } = await import('../config/paths.js');
  return sandboxDataDir(process.env);
}

/** The ring and seed helpers throw the sandbox's HTTP errors; here they are plain user mistakes. */
async function asUsage<T>(fn: () => T): Promise<T> {
  const { HttpError } = await import('../sandbox/errors.js');
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError || (err instanceof Error && /no sandbox data/.test(err.message))) throw new UsageError(err.message);
    throw err;
  }
}

const RUNG_COLUMNS: Column<Record<string, unknown> & { id: string }>[] = [
  { header: 'id', value: (c) => c.id, id: true },
  { header: 'status', value: (c) => c.status as string },
  { header: 'number', value: (c) => c.phoneNumberId as string },
  { header: 'assistant', value: (c) => c.assistantId as string },
];

export function sandboxCommand(): Command {
  const cmd = new Command('sandbox')
    .description('run the local Voice Agent Service (the sandbox) standalone, until Ctrl-C')
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 4010)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--api-key-file <path>', "read the key clients must send as x-api-key from this file's first line", keyFile)
    .option(
      '--api-key <key>',
      'the key on the command line (visible to other users in ps; prefer --api-key-file or SWITCHBOARD_SANDBOX_KEY). Default: a generated key, printed once',
      nonEmpty,
    )
    .option('--data-dir <dir>', "where records and files live (default: the XDG data dir's sandbox)", nonEmpty)
    .option('--max-upload-mb <n>', 'largest upload accepted, in MB (default 25)', positiveInt)
    .option('--log-file <path>', 'write errors (with their details) to this file; default: stderr. A 500 names where to look', logFile)
    .option('--cors <origin>', 'let a browser app on this origin (like http://localhost:5173, or * for any) call the sandbox (default: off)', corsOrigin)
    .addOption(
      new Option('--ring-every <seconds>', 'demo traffic: an inbound call every so many seconds to the numbers with an assistant linked, in turn')
        .argParser(positiveIntUpTo(MAX_RING_EVERY))
        .env(RING_EVERY_VAR),
    )
    .allowExcessArguments(true)
    .addHelpText(
      'after',
      '\nThe key: --api-key-file, else SWITCHBOARD_SANDBOX_KEY, else one is generated and printed once.\n\nExamples:\n' +
        '  $ switchboard sandbox --port 4010 --api-key-file ~/.sandbox-key\n  $ SWITCHBOARD_SANDBOX_KEY=k switchboard sandbox --port 4010\n' +
        '  $ curl -H "x-api-key: k" http://127.0.0.1:4010/assistants\n  $ switchboard sandbox ring +14155550100\n' +
        '  $ switchboard sandbox seed --calls 100000 --data-dir /tmp/big\n  $ switchboard sandbox --ring-every 10        an inbound call every 10 s\n' +
        "  $ SWITCHBOARD_SANDBOX_RING_EVERY=10 switchboard   the same, in the console's own sandbox",
    )
    .action(
      action('run the sandbox', async (o: SandboxFlags, c: Command) => {
        rejectStrayWords(c);
        const { runStandaloneSandbox } = await import('../sandbox/server.js');
        const code = await runStandaloneSandbox({
          port: o.port ?? 4010,
          host: o.host ?? '127.0.0.1',
          apiKey: sandboxKey(o, process.env),
          dataDir: await dataDirOf(o),
          maxUploadBytes: o.maxUploadMb === undefined ? undefined : o.maxUploadMb * 1024 * 1024,
          cors: o.cors,
          logFile: o.logFile,
          ringEverySeconds: o.ringEvery,
        });
        setExitCode(code);
      }),
    );

  cmd
    .command('ring')
    .description('simulate an inbound call to a number of the sandbox; its linked assistant answers')
    .argument('<did>', 'the number dialled (like +14155550100) or its phone number id', nonEmpty)
    .addHelpText(
      'after',
      '\nUses the sandbox data dir (--data-dir on sandbox), whether or not the sandbox is running.\n\nExamples:\n  $ switchboard sandbox ring +14155550100\n' +
        '  $ switchboard sandbox --data-dir ./sbx ring +14155550100 -o json',
    )
    .action(
      action('ring the number', async (did: string, _o: object, c: Command) => {
        refuseWhenReadOnly(c, 'ringing a sandbox number (it writes a call)');
        const flags = c.optsWithGlobals<SandboxFlags>();
        const dataDir = await dataDirOf(flags);
        const { ringViaDataDir } = await import('../sandbox/ring.js');
        const call = (await asUsage(() => ringViaDataDir(dataDir, did))) as Record<string, unknown> & { id: string };
        printRecord(outputFor(globalsOf(c)), call, RUNG_COLUMNS);
      }),
    );

  cmd
    .command('seed')
    .description('insert N past calls into the sandbox data dir, committed 20,000 at a time (creates and seeds a new dir first)')
    .requiredOption('--calls <n>', 'how many calls to add', positiveInt)
    .addHelpText('after', '\nExamples:\n  $ switchboard sandbox seed --calls 100000\n  $ switchboard sandbox --data-dir /tmp/big seed --calls 100000')
    .action(
      action('seed the sandbox', async (o: { calls: number }, c: Command) => {
        refuseWhenReadOnly(c, 'seeding the sandbox');
        const dataDir = await dataDirOf(c.optsWithGlobals<SandboxFlags>());
        const { openSeeded, seedCalls } = await import('../sandbox/seed.js');
        const { db } = openSeeded(dataDir, true);
        try {
          const added = await asUsage(() => seedCalls(db, o.calls));
          io().stdout.write(`added ${added} calls to ${dataDir}\n`);
        } finally {
          db.close();
        }
      }),
    );

  return cmd;
}
