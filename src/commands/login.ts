// switchboard login [--profile P] [--base-url U]: asks for an API key (typed hidden on a
// terminal, read from stdin when piped), checks it with one request, and saves it only if the
// service accepts it.
import { Command } from 'commander';
import { checkKey, keyRefused } from '../api/key-check.js';
import { maskKey } from '../config/mask.js';
import { sendsKeyInClear } from '../config/url.js';
import { action, addSecret, EXIT, globalsOf, refuseWhenReadOnly, setExitCode, UsageError, writeErr } from './runtime.js';
import { readStdin } from './input.js';
import { io } from './io.js';

/** Reads a key from the terminal without echoing it: raw mode, nothing printed per key. */
function readHiddenKey(prompt: string): Promise<string> {
  const stdin = io().stdin;
  io().stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let key = '';
    const finish = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      io().stderr.write('\n');
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
  allowHttp: boolean;
  debug?: (line: string) => void;
}

/** Verifies the key with one request, then saves the profile. Throws ApiError 401/403 when refused. */
async function login(input: LoginInput): Promise<void> {
  await checkKey(input.baseUrl, input.apiKey, input.debug);
  const { saveProfile } = await import('../config/config.js');
  // The first profile saved becomes the default; after that, switching is `profiles use`.
  saveProfile(input.profile, { baseUrl: input.baseUrl, apiKey: input.apiKey, allowHttp: input.allowHttp }, process.env, { becomeCurrent: 'if-none' });
}

async function validBaseUrl(value: string, allowHttp: boolean): Promise<string> {
  const { checkBaseUrl } = await import('../config/resolve.js');
  try {
    checkBaseUrl(value, '--base-url', { allowed: allowHttp, how: 'add --allow-http' });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return value.replace(/\/+$/, '');
}

export function loginCommand(): Command {
  return new Command('login')
    .description('save an API key for a profile, after checking it with the service')
    .option('--base-url <url>', "the service URL (default: SWITCHBOARD_BASE_URL, then the profile's saved URL)")
    .option('--allow-http', 'let the URL be http:// to a host that is not this machine (the key then crosses the network unencrypted); saved with the profile')
    .addHelpText(
      'after',
      '\nThe key is typed hidden on a terminal, or read from stdin when piped. --profile names the profile (default: SWITCHBOARD_PROFILE, then "default").\n' +
        '\nExamples:\n  $ switchboard login --profile prod --base-url https://api.example.com\n' +
        '  $ printf %s "$KEY" | switchboard login --profile ci --base-url https://api.example.com',
    )
    .action(
      action('log in', async (o: { baseUrl?: string; allowHttp?: boolean }, c: Command) => {
        refuseWhenReadOnly(c, 'saving a profile');
        const g = globalsOf(c);
        const profile = g.profile ?? process.env.SWITCHBOARD_PROFILE ?? 'default';
        const { listProfiles } = await import('../config/config.js');
        const saved = listProfiles().find((p) => p.name === profile);
        const raw = o.baseUrl ?? process.env.SWITCHBOARD_BASE_URL ?? saved?.baseUrl;
        if (!raw) throw new UsageError(`profile ${profile} has no service URL yet; give one with --base-url.`);
        const allowHttp = o.allowHttp === true || saved?.allowHttp === true;
        const baseUrl = await validBaseUrl(raw, allowHttp);
        const apiKey = (io().stdin.isTTY ? await readHiddenKey(`API key for ${baseUrl}: `) : await readPipedKey()).trim();
        if (!apiKey) throw new UsageError('no API key given; type it at the prompt or pipe it on stdin.');
        addSecret(apiKey);
        try {
          await login({ profile, baseUrl, apiKey, allowHttp, debug: g.debug ? (line) => writeErr(`debug: ${line}`) : undefined });
        } catch (err) {
          if (keyRefused(err)) {
            writeErr(`switchboard: ${baseUrl} refused the key (${err.status}); nothing was saved. Check the key and try again.`);
            setExitCode(EXIT.auth);
            return;
          }
          throw err;
        }
        io().stdout.write(`logged in: profile ${profile} → ${baseUrl} (key ${maskKey(apiKey)})\n`);
        if (sendsKeyInClear(baseUrl)) writeErr(`warning: ${baseUrl} is http:// to another host: the key crosses the network unencrypted (--allow-http)`);
      }),
    );
}
