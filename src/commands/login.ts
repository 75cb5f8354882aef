// switchboard login [--profile P] [--base-url U]: asks for an API key (typed hidden on a
// terminal, read from stdin when piped), checks it with one request, and saves it only if the
// service accepts it.
import { Command } from 'commander';
import { checkKey, keyRefused } from '../api/key-check.js';
import { maskKey } from '../config/mask.js';
import { action, addSecret, EXIT, globalsOf, refuseWhenReadOnly, setExitCode, UsageError, writeErr } from './runtime.js';
import { readStdin } from './input.js';

/** Reads a key from the terminal without echoing it: raw mode, nothing printed per key. */
function readHiddenKey(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let key = '';
    const finish = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(key);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u001b') return finish(new UsageError('login cancelled; nothing was saved.'));
        if (ch === '\u007f' || ch === '\b') key = key.slice(0, -1);
        else if (ch >= ' ') key += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function readPipedKey(): Promise<string> {
  return (await readStdin()).split(/\r?\n/)[0] ?? '';
}

interface LoginInput {
  profile: string;
  baseUrl: string;
  apiKey: string;
  debug?: (line: string) => void;
}

/** Verifies the key with one request, then saves the profile. Throws ApiError 401/403 when refused. */
async function login(input: LoginInput): Promise<void> {
  await checkKey(input.baseUrl, input.apiKey, input.debug);
  const { saveProfile } = await import('../config/config.js');
  // The first profile saved becomes the default; after that, switching is `profiles use`.
  saveProfile(input.profile, { baseUrl: input.baseUrl, apiKey: input.apiKey }, process.env, { becomeCurrent: 'if-none' });
}

function validBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL; give one like https://api.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url ${JSON.stringify(value)} must start with http:// or https://.`);
  if (url.username || url.password) throw new UsageError('--base-url must not carry a user name or password; the key is asked for separately.');
  return value.replace(/\/+$/, '');
}

export function loginCommand(): Command {
  return new Command('login')
    .description('save an API key for a profile, after checking it with the service')
    .option('--base-url <url>', "the service URL (default: SWITCHBOARD_BASE_URL, then the profile's saved URL)")
    .addHelpText(
      'after',
      '\nThe key is typed hidden on a terminal, or read from stdin when piped. --profile names the profile (default: SWITCHBOARD_PROFILE, then "default").\n' +
        '\nExamples:\n  $ switchboard login --profile prod --base-url https://api.example.com\n' +
        '  $ printf %s "$KEY" | switchboard login --profile ci --base-url https://api.example.com',
    )
    .action(
      action('log in', async (o: { baseUrl?: string }, c: Command) => {
        refuseWhenReadOnly(c, 'saving a profile');
        const g = globalsOf(c);
        const profile = g.profile ?? process.env.SWITCHBOARD_PROFILE ?? 'default';
        const { listProfiles } = await import('../config/config.js');
        const saved = listProfiles().find((p) => p.name === profile);
        const raw = o.baseUrl ?? process.env.SWITCHBOARD_BASE_URL ?? saved?.baseUrl;
        if (!raw) throw new UsageError(`profile ${profile} has no service URL yet; give one with --base-url.`);
        const baseUrl = validBaseUrl(raw);
        const apiKey = (process.stdin.isTTY ? await readHiddenKey(`API key for ${baseUrl}: `) : await readPipedKey()).trim();
        if (!apiKey) throw new UsageError('no API key given; type it at the prompt or pipe it on stdin.');
        addSecret(apiKey);
        try {
          await login({ profile, baseUrl, apiKey, debug: g.debug ? (line) => writeErr(`debug: ${line}`) : undefined });
        } catch (err) {
          if (keyRefused(err)) {
            writeErr(`switchboard: ${baseUrl} refused the key (${err.status}); nothing was saved. Check the key and try again.`);
            setExitCode(EXIT.auth);
            return;
          }
          throw err;
        }
        process.stdout.write(`logged in: profile ${profile} → ${baseUrl} (key ${maskKey(apiKey)})\n`);
      }),
    );
}
