// Profiles, target precedence, file modes and key masking, in a temporary HOME.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, listProfiles, loadConfig, removeProfile, resolveTarget, saveProfile, setCurrentProfile } from '../../src/config/config.js';
import { configDir, configFile, dataDir, stateDir } from '../../src/config/paths.js';
import { maskKey, redactKey } from '../../src/config/mask.js';
import type { Env } from '../../src/config/paths.js';

const KEY = 'sk-live-9f8e7d6c5b4a3210-c0de';
let home: string;
let env: Env;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'switchboard-home-'));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

test('XDG paths follow the variables, fall back under HOME, and ignore relative values', () => {
  assert.equal(configDir(env), join(home, '.config', 'switchboard'));
  assert.equal(dataDir(env), join(home, '.local', 'share', 'switchboard'));
  assert.equal(stateDir(env), join(home, '.local', 'state', 'switchboard'));
  const xdg = { HOME: home, XDG_CONFIG_HOME: '/tmp/c', XDG_DATA_HOME: '/tmp/d', XDG_STATE_HOME: '/tmp/s' };
  assert.equal(configDir(xdg), '/tmp/c/switchboard');
  assert.equal(dataDir(xdg), '/tmp/d/switchboard');
  assert.equal(stateDir(xdg), '/tmp/s/switchboard');
  assert.equal(configDir({ HOME: home, XDG_CONFIG_HOME: 'relative/dir' }), join(home, '.config', 'switchboard'));
});

test('nothing configured: the embedded sandbox, data under the XDG data dir', () => {
  const t = resolveTarget({ env });
  assert.deepEqual(t, {
    kind: 'sandbox',
    profile: 'sandbox',
    dataDir: join(home, '.local', 'share', 'switchboard'),
    sandboxDataDir: join(home, '.local', 'share', 'switchboard', 'sandbox'),
  });
});

test('a saved profile is written 0600 in a 0700 dir, atomically, and read back', () => {
  saveProfile('prod', { baseUrl: 'https://api.example.com/', apiKey: KEY }, env);
  const path = configFile(env);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(configDir(env)).mode & 0o777, 0o700);
  assert.deepEqual(loadConfig(env), { profiles: { prod: { baseUrl: 'https://api.example.com', apiKey: KEY } } });
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).profiles.prod.apiKey, KEY);
  saveProfile('staging', { baseUrl: 'http://localhost:4010', apiKey: 'k-staging-123456' }, env);
  assert.equal(statSync(path).mode & 0o777, 0o600, 'still 0600 after a rewrite');
  assert.deepEqual(Object.keys(loadConfig(env).profiles).sort(), ['prod', 'staging']);
});

test('precedence: --profile > SWITCHBOARD_PROFILE > SWITCHBOARD_BASE_URL/KEY > current > sandbox', () => {
  saveProfile('prod', { baseUrl: 'https://prod.example.com', apiKey: 'sk-prod-0000000001' }, env);
  saveProfile('dev', { baseUrl: 'https://dev.example.com', apiKey: 'sk-dev-00000000002' }, env);
  setCurrentProfile('dev', env);
  const full = { ...env, SWITCHBOARD_PROFILE: 'prod', SWITCHBOARD_BASE_URL: 'http://127.0.0.1:4010', SWITCHBOARD_API_KEY: 'k-env-1234567' };

  assert.equal(resolveTarget({ profile: 'sandbox', env: full }).kind, 'sandbox');
  assert.equal(resolveTarget({ profile: 'dev', env: full }).baseUrl, 'https://dev.example.com');
  assert.equal(resolveTarget({ env: full }).profile, 'prod');
  const fromEnv = resolveTarget({ env: { ...full, SWITCHBOARD_PROFILE: undefined } });
  assert.deepEqual([fromEnv.profile, fromEnv.baseUrl, fromEnv.apiKey, fromEnv.kind], ['env', 'http://127.0.0.1:4010', 'k-env-1234567', 'remote']);
  const current = resolveTarget({ env });
  assert.deepEqual([current.profile, current.apiKey], ['dev', 'sk-dev-00000000002']);
  setCurrentProfile('sandbox', env);
  assert.equal(resolveTarget({ env }).kind, 'sandbox');
});

test('an unknown profile name lists the known ones', () => {
  saveProfile('prod', { baseUrl: 'https://prod.example.com', apiKey: KEY }, env);
  assert.throws(
    () => resolveTarget({ profile: 'prdo', env }),
    (e: unknown) => e instanceof ConfigError && /"prdo".*--profile.*known profiles: sandbox, prod/.test(e.message),
  );
  assert.throws(() => resolveTarget({ env: { ...env, SWITCHBOARD_PROFILE: 'nope' } }), /SWITCHBOARD_PROFILE.*known profiles: sandbox, prod/);
  assert.throws(() => setCurrentProfile('nope', env), /known profiles/);
  assert.throws(() => removeProfile('nope', env), /known profiles/);
});

test('SWITCHBOARD_BASE_URL without a key (or the reverse, or a bad URL) is a clear error', () => {
  assert.throws(() => resolveTarget({ env: { ...env, SWITCHBOARD_BASE_URL: 'http://x' } }), /SWITCHBOARD_API_KEY is not/);
  assert.throws(() => resolveTarget({ env: { ...env, SWITCHBOARD_API_KEY: KEY } }), /SWITCHBOARD_BASE_URL is not/);
  assert.throws(
    () => resolveTarget({ env: { ...env, SWITCHBOARD_BASE_URL: 'localhost 4010', SWITCHBOARD_API_KEY: KEY } }),
    /SWITCHBOARD_BASE_URL "localhost 4010" is not a URL/,
  );
});

test('a config file others can read is refused with the chmod that fixes it', () => {
  saveProfile('prod', { baseUrl: 'https://prod.example.com', apiKey: KEY }, env);
  const path = configFile(env);
  chmodSync(path, 0o644);
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.includes(`chmod 600 ${path}`) && !e.message.includes(KEY),
  );
  assert.throws(() => resolveTarget({ env }), /chmod 600/);
  chmodSync(path, 0o600);
  assert.equal(loadConfig(env).profiles.prod.apiKey, KEY);
});

test('malformed or mis-shaped config names the file', () => {
  const path = configFile(env);
  mkdirSync(configDir(env), { recursive: true });
  writeFileSync(path, '{ "profiles": ', { mode: 0o600 });
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${path} is not valid JSON`),
  );
  writeFileSync(path, JSON.stringify({ profiles: { prod: { baseUrl: 'https://x' } } }), { mode: 0o600 });
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.includes(path) && /profiles\.prod\.apiKey/.test(e.message),
  );
  // The built-in profiles need no config: a broken file does not stop them; a configured name is refused with it.
  assert.equal(resolveTarget({ profile: 'sandbox', env }).kind, 'sandbox');
  assert.equal(resolveTarget({ profile: 'env', env: { ...env, SWITCHBOARD_BASE_URL: 'https://api.example.com', SWITCHBOARD_API_KEY: KEY } }).profile, 'env');
  assert.throws(
    () => resolveTarget({ profile: 'prod', env }),
    (e: unknown) => e instanceof ConfigError && e.message.includes(path),
  );
});

test('remove and use profiles; the current one is forgotten when removed', () => {
  saveProfile('prod', { baseUrl: 'https://prod.example.com', apiKey: KEY }, env);
  setCurrentProfile('prod', env);
  assert.equal(resolveTarget({ env }).profile, 'prod');
  removeProfile('prod', env);
  assert.equal(loadConfig(env).current, undefined);
  assert.equal(resolveTarget({ env }).kind, 'sandbox');
});

test('profile names and values are checked before saving', () => {
  assert.throws(() => saveProfile('sandbox', { baseUrl: 'https://x', apiKey: KEY }, env), /built-in/);
  assert.throws(() => saveProfile('env', { baseUrl: 'https://x', apiKey: KEY }, env), /built-in/);
  assert.throws(() => saveProfile('../evil', { baseUrl: 'https://x', apiKey: KEY }, env), /not a usable profile name/);
  assert.throws(() => saveProfile('p', { baseUrl: 'ftp://x', apiKey: KEY }, env), /http:\/\/ or https:\/\//);
  assert.throws(() => saveProfile('p', { baseUrl: 'https://user:pw@x', apiKey: KEY }, env), /user name or password/);
  assert.throws(() => saveProfile('p', { baseUrl: 'https://x', apiKey: '  ' }, env), /API key/);
});

test('listProfiles shows keys only masked', () => {
  saveProfile('prod', { baseUrl: 'https://prod.example.com', apiKey: KEY }, env);
  setCurrentProfile('prod', env);
  const list = listProfiles(env);
  assert.deepEqual(list, [
    { name: 'sandbox', kind: 'sandbox', current: false },
    { name: 'prod', kind: 'remote', baseUrl: 'https://prod.example.com', apiKey: 'sk-…c0de', current: true },
  ]);
  assert.ok(!JSON.stringify(list).includes(KEY));
});

test('maskKey keeps a recognisable prefix and the last four, never most of a short key', () => {
  const table: Array<[string, string]> = [
    [KEY, 'sk-…c0de'],
    ['pk_abcdefghijklmnop1234', 'pk…1234'],
    ['abcdefghij9876', 'ab…9876'],
    ['verylongprefix-abcdefgh1234', 've…1234'],
    ['12345678', '…5678'],
    ['abcdefghijk', '…hijk'],
    ['short', '••••'],
    ['', '••••'],
  ];
  for (const [key, masked] of table) assert.equal(maskKey(key), masked, key);
});

test('redactKey removes every occurrence of the key from text', () => {
  const text = `GET /calls x-api-key: ${KEY}\nretry with ${KEY}`;
  const out = redactKey(text, KEY);
  assert.ok(!out.includes(KEY));
  assert.equal(out, 'GET /calls x-api-key: sk-…c0de\nretry with sk-…c0de');
  assert.equal(redactKey('nothing here', undefined), 'nothing here');
});
