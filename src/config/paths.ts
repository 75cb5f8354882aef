// Where Switchboard keeps things, per the XDG base directory spec. Every function takes the
// environment to read, so tests point them at temporary directories instead of the real home.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export type Env = Record<string, string | undefined>;

const APP = 'switchboard';

/** Profiles and settings: `${XDG_CONFIG_HOME:-~/.config}/switchboard`. */
export function configDir(env: Env = process.env): string {
  return join(xdgBase(env, 'XDG_CONFIG_HOME', '.config'), APP);
}

/** Local data (the sandbox's records, remembered chat sessions): `${XDG_DATA_HOME:-~/.local/share}/switchboard`. */
export function dataDir(env: Env = process.env): string {
  return join(xdgBase(env, 'XDG_DATA_HOME', join('.local', 'share')), APP);
}

/** Logs and other state worth keeping but not backing up: `${XDG_STATE_HOME:-~/.local/state}/switchboard`. */
export function stateDir(env: Env = process.env): string {
  return join(xdgBase(env, 'XDG_STATE_HOME', join('.local', 'state')), APP);
}

/** Caches that can be rebuilt from the service (the call archive): `${XDG_CACHE_HOME:-~/.cache}/switchboard`. */
export function cacheDir(env: Env = process.env): string {
  return join(xdgBase(env, 'XDG_CACHE_HOME', '.cache'), APP);
}

export function configFile(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

/** The embedded sandbox's data directory. */
export function sandboxDataDir(env: Env = process.env): string {
  return join(dataDir(env), 'sandbox');
}

/** The spec says relative XDG paths are invalid and must be ignored. */
function xdgBase(env: Env, name: string, underHome: string): string {
  const value = env[name];
  if (value && isAbsolute(value)) return value;
  return join(env.HOME || homedir(), underHome);
}
