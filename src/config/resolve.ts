// Which service a run talks to, from flags, the environment and a config already read. Kept
// apart from config.ts, which reads and validates the file with zod: the console's first frame
// needs a target but, on a machine with no config file, not zod (config.ts's loadConfig is
// loaded only when there is a file to read).
import type { Config, Profile } from './config.js';
import { ConfigError } from './files.js';
import { configFile, dataDir, sandboxDataDir, type Env } from './paths.js';
import { maskUserInfo, sendsKeyInClear } from './url.js';

/** The embedded sandbox: what runs when nothing else is configured. */
export const SANDBOX_PROFILE = 'sandbox';
/** The target described by SWITCHBOARD_BASE_URL + SWITCHBOARD_API_KEY. */
export const ENV_PROFILE = 'env';

export interface Target {
  kind: 'sandbox' | 'remote';
  /** The profile name: a configured one, 'env' or 'sandbox'. */
  profile: string;
  baseUrl?: string;
  apiKey?: string;
  /** Switchboard's data dir (remembered chat sessions live under it, per profile). */
  dataDir: string;
  /** Where the embedded sandbox keeps its records (sandbox targets only). */
  sandboxDataDir?: string;
  /** Writes are refused (--read-only, or the profile's readOnly): the client sends none. */
  readOnly?: boolean;
  /** The profile's ceiling of history requests in flight for the archive's sync. */
  syncConcurrency?: number;
}

export interface TargetChoice {
  profile?: string;
  env?: Env;
  readOnly?: boolean;
}

/**
 * Which service a target is: the embedded sandbox by its data dir (its port changes every run),
 * a remote one by its base URL. What is kept for one (the call archive, the lists' cached rows,
 * remembered sessions) is never shown for another, though the profile's name is the same.
 */
export function serviceOf(target: Pick<Target, 'kind' | 'sandboxDataDir' | 'baseUrl'>): string {
  return target.kind === 'sandbox' ? `sandbox:${target.sandboxDataDir ?? ''}` : `remote:${target.baseUrl ?? ''}`;
}

/**
 * Which service this run talks to. First match wins: `--profile`, SWITCHBOARD_PROFILE,
 * SWITCHBOARD_BASE_URL + SWITCHBOARD_API_KEY (profile 'env'), the config's current profile,
 * and finally the embedded sandbox. `config` is read only when a profile's name must be looked up.
 */
export function resolveTargetWith(opts: TargetChoice, config: () => Config): Target {
  const target = resolveProfile(opts, config);
  return opts.readOnly ? { ...target, readOnly: true } : target;
}

function resolveProfile(opts: TargetChoice, config: () => Config): Target {
  const env = opts.env ?? process.env;
  if (opts.profile) return namedTarget(opts.profile, 'given with --profile', env, config);
  if (env.SWITCHBOARD_PROFILE) return namedTarget(env.SWITCHBOARD_PROFILE, 'named by SWITCHBOARD_PROFILE', env, config);
  if (env.SWITCHBOARD_BASE_URL || env.SWITCHBOARD_API_KEY) return envTarget(env);
  const cfg = config();
  if (cfg.current) return namedTarget(cfg.current, `set as current in ${configFile(env)}`, env, () => cfg);
  return sandboxTarget(env);
}

/** The built-in names need no config: a broken file does not stop `--profile sandbox`. */
function namedTarget(name: string, why: string, env: Env, config: () => Config): Target {
  if (name === SANDBOX_PROFILE) return sandboxTarget(env);
  if (name === ENV_PROFILE) return envTarget(env);
  const cfg = config();
  const p = profileOf(cfg, name);
  if (!p) throw unknownProfile(name, cfg, `(${why})`);
  checkBaseUrl(p.baseUrl, `profile ${name}'s base URL`, {
    allowed: p.allowHttp === true || httpAllowedBy(env),
    how: `turn it on for this profile: switchboard profiles allow-http ${name} on`,
  });
  return {
    kind: 'remote',
    profile: name,
    baseUrl: p.baseUrl,
    apiKey: p.apiKey,
    dataDir: dataDir(env),
    ...(p.readOnly ? { readOnly: true } : {}),
    ...(p.syncConcurrency ? { syncConcurrency: p.syncConcurrency } : {}),
  };
}

function envTarget(env: Env): Target {
  const baseUrl = env.SWITCHBOARD_BASE_URL;
  const apiKey = env.SWITCHBOARD_API_KEY;
  if (!baseUrl) throw new ConfigError('SWITCHBOARD_API_KEY is set but SWITCHBOARD_BASE_URL is not; set both, or neither to use a profile');
  if (!apiKey) throw new ConfigError('SWITCHBOARD_BASE_URL is set but SWITCHBOARD_API_KEY is not; set the key too (or use a profile: switchboard login)');
  checkBaseUrl(baseUrl, 'SWITCHBOARD_BASE_URL', { allowed: httpAllowedBy(env), how: `set ${ALLOW_HTTP_VAR}=1` });
  return { kind: 'remote', profile: ENV_PROFILE, baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, dataDir: dataDir(env) };
}

function sandboxTarget(env: Env): Target {
  return { kind: 'sandbox', profile: SANDBOX_PROFILE, dataDir: dataDir(env), sandboxDataDir: sandboxDataDir(env) };
}

/** A configured profile by name: own entries only, so "toString" or "__proto__" is never one. */
export function profileOf(config: Config, name: string): Profile | undefined {
  return Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
}

export function unknownProfile(name: string, config: Config, context: string): ConfigError {
  const known = [SANDBOX_PROFILE, ...Object.keys(config.profiles).sort()].join(', ');
  return new ConfigError(`there is no profile named "${name}" ${context}; known profiles: ${known}. Add one with \`switchboard login --profile ${name}\``);
}

/** Where a user says http:// to another host is meant: named in the refusal. */
const ALLOW_HTTP_VAR = 'SWITCHBOARD_ALLOW_HTTP';

const httpAllowedBy = (env: Env) => /^(1|true|yes|on)$/i.test(env[ALLOW_HTTP_VAR] ?? '');

/**
 * A service URL as given (`what` names where it came from), or a ConfigError saying what is
 * wrong: not a URL, another scheme, a user name or password in it, or http:// to a host that is
 * not this machine (the key would cross the network unencrypted) unless `allowHttp` says so; then
 * `how` names the flag or setting that does. An echoed URL never shows its user information.
 */
export function checkBaseUrl(text: string, what: string, http: { allowed?: boolean; how?: string } = {}): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${what} "${maskUserInfo(text)}" is not a URL; expected something like https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${what} must start with http:// or https://`);
  if (url.username || url.password) throw new ConfigError(`${what} must not contain a user name or password; the API key is kept separately`);
  if (!http.allowed && sendsKeyInClear(text))
    throw new ConfigError(
      `${what} ${text} is http:// to ${url.host}, which is not this machine: the API key would cross the network unencrypted. ` +
        `Use https://, or if that is meant, ${http.how ?? `set ${ALLOW_HTTP_VAR}=1`}`,
    );
}
