// Profiles (named remote services with their keys), read and changed; which target a run talks to is resolve.ts.
// config.json = { current?: string, profiles: { [name]: { baseUrl, apiKey } } }, mode 0600.
import { statSync } from 'node:fs';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import { ConfigError, readJsonFile, writePrivateFile } from './files.js';
import { withLockSync } from './lock.js';
import { maskKey } from './mask.js';
import { configFile, type Env } from './paths.js';
import { checkBaseUrl, ENV_PROFILE, profileOf, resolveTargetWith, SANDBOX_PROFILE, unknownProfile, type Target, type TargetChoice } from './resolve.js';

export { ConfigError } from './files.js';
export { ENV_PROFILE, SANDBOX_PROFILE, serviceOf, type Target } from './resolve.js';

// readOnly: every write refused for this profile, as with --read-only.
// allowHttp: its base URL may be http:// to another host (the key then crosses the network unencrypted).
// syncConcurrency: the most history requests the archive's sync keeps in flight, as with `archive sync --concurrency`.
const ProfileSchema = z.looseObject({
  baseUrl: z.string().min(1),
  apiKey: z.string().min(1),
  readOnly: z.boolean().optional(),
  allowHttp: z.boolean().optional(),
  syncConcurrency: z.number().int().min(1).max(64).optional(),
});
const ConfigSchema = z.looseObject({
  current: z.string().optional(),
  // The console takes clicks and the wheel, as with --mouse.
  mouse: z.boolean().optional(),
  // The console's colours, as with --theme: light, dark or a theme file's path.
  theme: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
});

export type Profile = z.infer<typeof ProfileSchema>;
export type Config = z.infer<typeof ConfigSchema>;

export interface ProfileSummary {
  name: string;
  kind: 'sandbox' | 'remote';
  baseUrl?: string;
  /** Masked; the full key is never listed. */
  apiKey?: string;
  /** The profile used when neither --profile nor the environment chooses one. */
  current: boolean;
  readOnly?: boolean;
  allowHttp?: boolean;
}

export function loadConfig(env: Env = process.env): Config {
  const path = configFile(env);
  const raw = readJsonFile(path, `fix it or delete it and run \`switchboard login\` again`);
  if (raw === undefined) return { profiles: {} };
  refuseIfShared(path);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path} is not a valid Switchboard config (${issue.path.join('.') || 'top level'}: ${issue.message}); fix it or delete it`);
  }
  return parsed.data;
}

/**
 * Saves a profile. `becomeCurrent: 'if-none'` also makes it the default when no profile is yet
 * (the first login), decided under the same lock as the save.
 */
export function saveProfile(
  name: string,
  profile: { baseUrl: string; apiKey: string; allowHttp?: boolean },
  env: Env = process.env,
  opts: { becomeCurrent?: 'if-none'; /** Refuse a name already saved (the console's add), decided under the lock. */ onlyNew?: boolean } = {},
): void {
  const checked = checkProfile(name, profile);
  updateConfig(env, (config) => {
    if (opts.onlyNew && profileOf(config, name)) throw new ConfigError(`there is a profile named "${name}" already; choose another name`);
    config.profiles[name] = { ...checked, ...(profile.allowHttp ? { allowHttp: true } : {}) };
    if (opts.becomeCurrent === 'if-none' && config.current === undefined) config.current = name;
  });
}

/** A profile as it would be saved (URL without its trailing slashes, key trimmed), or a ConfigError naming what is wrong. */
export function checkProfile(name: string, profile: { baseUrl: string; apiKey: string; allowHttp?: boolean }): { baseUrl: string; apiKey: string } {
  checkProfileName(name);
  checkBaseUrl(profile.baseUrl, 'the base URL', { allowed: profile.allowHttp, how: 'allow it for this profile (switchboard login --allow-http)' });
  const apiKey = profile.apiKey.trim();
  if (!apiKey || /\s/.test(apiKey)) throw new ConfigError('the API key must be non-empty and contain no spaces');
  return { baseUrl: profile.baseUrl.replace(/\/+$/, ''), apiKey };
}

export function removeProfile(name: string, env: Env = process.env): void {
  updateConfig(env, (config) => {
    if (!profileOf(config, name)) throw unknownProfile(name, config, 'to remove');
    delete config.profiles[name];
    if (config.current === name) delete config.current;
  });
}

/** A profile's read-only setting: on, every write through it is refused (as --read-only). */
export function setProfileReadOnly(name: string, on: boolean, env: Env = process.env): void {
  updateConfig(env, (config) => {
    const p = profileOf(config, name);
    if (!p) throw unknownProfile(name, config, 'to change');
    if (on) p.readOnly = true;
    else delete p.readOnly;
  });
}

/** A profile's allow-http setting: on, its base URL may be http:// to a host that is not this machine. */
export function setProfileAllowHttp(name: string, on: boolean, env: Env = process.env): void {
  updateConfig(env, (config) => {
    const p = profileOf(config, name);
    if (!p) throw unknownProfile(name, config, 'to change');
    if (on) p.allowHttp = true;
    else delete p.allowHttp;
  });
}

/** Makes `name` the profile used by default ('sandbox' is always available). */
export function setCurrentProfile(name: string, env: Env = process.env): void {
  updateConfig(env, (config) => {
    if (name !== SANDBOX_PROFILE && !profileOf(config, name)) throw unknownProfile(name, config, 'to use');
    config.current = name;
  });
}

export function listProfiles(env: Env = process.env): ProfileSummary[] {
  const config = loadConfig(env);
  const current = config.current ?? SANDBOX_PROFILE;
  return [
    { name: SANDBOX_PROFILE, kind: 'sandbox', current: current === SANDBOX_PROFILE },
    ...Object.entries(config.profiles)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, p]): ProfileSummary => ({
        name,
        kind: 'remote',
        baseUrl: p.baseUrl,
        apiKey: maskKey(p.apiKey),
        current: current === name,
        ...(p.readOnly ? { readOnly: true } : {}),
        ...(p.allowHttp ? { allowHttp: true } : {}),
      })),
  ];
}

/** Which service this run talks to (resolve.ts), with this config file read when a profile is looked up. */
export function resolveTarget(opts: TargetChoice = {}): Target {
  return resolveTargetWith(opts, () => loadConfig(opts.env ?? process.env));
}

/**
 * A change to the config, made to what the file holds now under its lock and written by an
 * atomic rename: twenty logins at once keep twenty profiles.
 */
function updateConfig(env: Env, change: (config: Config) => void): void {
  const path = configFile(env);
  withLockSync(path, () => {
    const config = loadConfig(env);
    change(config);
    writePrivateFile(path, `${JSON.stringify(config, null, 2)}\n`);
  });
}

/** A key file others can read is a leaked key; refuse it rather than use it quietly. */
function refuseIfShared(path: string): void {
  if (process.platform === 'win32') return;
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) {
    throw new ConfigError(`${path} can be read by other users (mode ${mode.toString(8)}) and holds API keys; run: chmod 600 ${path}`);
  }
}

function checkProfileName(name: string): void {
  if (name === SANDBOX_PROFILE || name === ENV_PROFILE) {
    throw new ConfigError(`"${name}" is a built-in profile name; choose another`);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new ConfigError(`"${name}" is not a usable profile name; use letters, digits, '.', '_' or '-' (starting with a letter or digit)`);
  }
  // Names every JavaScript object answers to would read as a profile that is not there.
  if (name in Object.prototype) throw new ConfigError(`"${name}" is reserved; choose another profile name`);
}
