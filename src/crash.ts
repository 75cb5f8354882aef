// The last safety net: an unhandled rejection or exception never reaches the user as a stack
// trace. Its details go to a debug log in the XDG state dir (keys redacted). An uncaught exception
// ends the process (Node's state is undefined after one): the console gives the terminal back
// first, then one line pointing at the log, exit 1. An unhandled rejection in the console is a
// flash and the console carries on; in a command it ends the process the same way.
import { appendFileSync, chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskKey, redactKey } from './config/mask.js';
import { configFile, stateDir, type Env } from './config/paths.js';
import { privateDir } from './config/private-dir.js';
import { escapeLine, escapeText } from './format/escape.js';

/** Shows a one-line crash message inside the console (a flash) instead of leaving it. */
export type CrashReporter = (message: string) => void;

let reporter: CrashReporter | undefined;
let cleanup: (() => void) | undefined;
const secrets = new Set<string>();
let installed = false;

/** The console registers its flash here while it runs; `undefined` unregisters. */
export function setCrashReporter(fn: CrashReporter | undefined): void {
  reporter = fn;
}

/** Runs before the one line of a crash that ends the process: the console gives the terminal back here. */
export function setCrashCleanup(fn: (() => void) | undefined): void {
  cleanup = fn;
}

/** A key in use this run: scrubbed from everything the handler writes. */
export function addCrashSecret(key: string | undefined): void {
  if (key && key.length >= 4) secrets.add(key);
}

// Key-shaped tokens (sk-…, pk-…) are masked even when nobody registered them.
const KEY_SHAPED = /\b(?:sk|pk|rk)[-_][A-Za-z0-9_-]{12,}/g;

/** The keys of the configured profiles, read plainly (no validation: this runs while something is already wrong). */
function configuredKeys(env: Env): string[] {
  try {
    const config = JSON.parse(readFileSync(configFile(env), 'utf8')) as { profiles?: Record<string, { apiKey?: unknown }> };
    return Object.values(config.profiles ?? {}).flatMap((p) => (typeof p?.apiKey === 'string' && p.apiKey.length >= 4 ? [p.apiKey] : []));
  } catch {
    return [];
  }
}

/** `text` with every known key (registered, SWITCHBOARD_API_KEY, configured profiles) and anything key-shaped masked. */
function redactSecrets(text: string, env: Env = process.env): string {
  let s = text;
  for (const key of [...secrets, env.SWITCHBOARD_API_KEY, ...configuredKeys(env)]) s = redactKey(s, key);
  return s.replace(KEY_SHAPED, (k) => maskKey(k));
}

/** The command line as the log shows it: a key given as a flag (`sandbox --api-key K`) masked. */
export function argvForLog(args: readonly string[]): string[] {
  return args.map((a, i) => {
    if (args[i - 1] === '--api-key') return maskKey(a);
    return a.startsWith('--api-key=') ? `--api-key=${maskKey(a.slice('--api-key='.length))}` : a;
  });
}

export function debugLogPath(env: Env = process.env): string {
  return join(stateDir(env), 'debug.log');
}

/**
 * `--debug` in the console: each request line appended to the debug log (stderr is the screen
 * there); also the whole text of a flash too long for its line. Lines are redacted like crash
 * entries; a log that cannot be written is skipped (the writer returns undefined, else the path).
 */
export function debugLogWriter(env: Env = process.env): (line: string) => string | undefined {
  const path = debugLogPath(env);
  let ready = false;
  return (line) => {
    try {
      if (!ready) {
        privateDir(stateDir(env));
        ready = true;
      }
      appendFileSync(path, redactSecrets(`${new Date().toISOString()} debug: ${escapeText(line)}\n`, env), { mode: 0o600 });
      return path;
    } catch {
      return undefined; // debugging output must not break the console
    }
  };
}

/** A path as the user would type it: the home directory as ~. */
export function shortPath(path: string, env: Env = process.env): string {
  const home = env.HOME;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Appends the details of `err` to the debug log (0600 in a 0700 dir); returns the path, or undefined if it could not be written. */
export function writeCrashLog(err: unknown, origin: string, env: Env = process.env): string | undefined {
  const path = debugLogPath(env);
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : safeString(err);
  const cause = err instanceof Error && err.cause !== undefined ? `\ncause: ${err.cause instanceof Error ? err.cause.stack : safeString(err.cause)}` : '';
  const entry = [
    `--- ${new Date().toISOString()} ${origin}`,
    `switchboard ${argvForLog(process.argv.slice(2)).join(' ')} (node ${process.version}, ${process.platform}, pid ${process.pid})`,
    detail + cause,
    '',
  ].join('\n');
  try {
    privateDir(stateDir(env));
    // People are told to read this file, often with cat: service text in it stays inert.
    appendFileSync(path, redactSecrets(escapeText(entry), env), { mode: 0o600 });
    chmodSync(path, 0o600);
    return path;
  } catch {
    return undefined; // a read-only home must not turn one failure into two
  }
}

/** The one line the user sees: what happened (redacted, first line only) and where the details are. */
export function crashLine(err: unknown, logPath: string | undefined, env: Env = process.env): string {
  const raw = err instanceof Error ? err.message : safeString(err);
  const what = escapeLine(redactSecrets(raw.split('\n')[0].slice(0, 200), env)) || 'unknown error';
  return `unexpected error: ${what}${logPath ? ` (details in ${logPath})` : ''}`;
}

function safeString(v: unknown): string {
  try {
    return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  } catch {
    return String(v);
  }
}

/** Installs the process-wide handlers once. `exit` and `write` are for tests. */
export function installCrashHandler(opts: { env?: Env; exit?: (code: number) => void; write?: (line: string) => void } = {}): void {
  if (installed) return;
  installed = true;
  const env = opts.env ?? process.env;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const write = opts.write ?? ((line: string) => void process.stderr.write(line));
  const handle = (origin: string) => (err: unknown) => {
    const log = writeCrashLog(err, origin, env);
    const line = crashLine(err, log, env);
    if (reporter && origin !== 'uncaughtException') {
      try {
        reporter(line);
        return;
      } catch {
        // the console itself is broken: fall through and leave like a command
      }
    }
    try {
      cleanup?.();
    } catch {
      // the line and the exit matter more than a tidy terminal
    }
    write(`switchboard: ${line}\n`);
    exit(1);
  };
  process.on('unhandledRejection', handle('unhandledRejection'));
  process.on('uncaughtException', handle('uncaughtException'));
}
