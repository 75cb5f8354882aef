// Where the key would go in clear, and URLs echoed with their passwords. With the built CLI:
// login, a saved profile and SWITCHBOARD_BASE_URL refuse http:// to a host that is not this
// machine unless the user says so (--allow-http, `profiles allow-http`, SWITCHBOARD_ALLOW_HTTP),
// each refusal naming how; loopback http stays allowed; the console's header says "UNENCRYPTED"
// for such a target. A URL's user information is masked in every message, parsed or not. And
// `whoami -o json` escapes what a base URL holds, as every JSON output does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtSkip, runCli, tempHome } from '../support/cli.js';
import { headerLeft } from '../../src/ui/chrome-text.js';
import { maskUserInfo } from '../../src/config/url.js';

const skip = builtSkip();

function home() {
  const h = tempHome();
  return { ...h, config: join(h.env.XDG_CONFIG_HOME!, 'switchboard', 'config.json') };
}

test('login --base-url http://<another host> exits 2 naming --allow-http, before asking for the key; nothing saved', { skip }, async () => {
  const h = home();
  try {
    const r = await runCli(['login', '--profile', 'lab', '--base-url', 'http://example.test/api'], { env: h.env, stdin: 'sk-secret-key-1234\n' });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /--base-url http:\/\/example\.test\/api is http:\/\/ to example\.test, which is not this machine: the API key would cross the network unencrypted/,
    );
    assert.match(r.stderr, /add --allow-http/);
    assert.equal(existsSync(h.config), false);
  } finally {
    h.cleanup();
  }
});

test('a saved profile with http:// to another host is refused naming `profiles allow-http`; turned on, it is used', { skip }, async () => {
  const h = home();
  try {
    mkdirSync(join(h.config, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(h.config, JSON.stringify({ profiles: { lab: { baseUrl: 'http://192.0.2.7:8080', apiKey: 'sk-lab-key-123456' } } }), { mode: 0o600 });
    const refused = await runCli(['--profile', 'lab', 'whoami'], { env: h.env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /profile lab's base URL http:\/\/192\.0\.2\.7:8080 is http:\/\/ to 192\.0\.2\.7:8080, which is not this machine/);
    assert.match(refused.stderr, /switchboard profiles allow-http lab on/);
    const on = await runCli(['profiles', 'allow-http', 'lab', 'on'], { env: h.env });
    assert.equal(on.code, 0, on.stderr);
    const used = await runCli(['--profile', 'lab', 'whoami', '-o', 'json'], { env: h.env });
    assert.equal(used.code, 0, used.stderr);
    assert.equal((JSON.parse(used.stdout) as { baseUrl: string }).baseUrl, 'http://192.0.2.7:8080');
  } finally {
    h.cleanup();
  }
});

test('SWITCHBOARD_BASE_URL http:// to another host is refused naming SWITCHBOARD_ALLOW_HTTP; loopback http is not', { skip }, async () => {
  const h = home();
  try {
    const env = { ...h.env, SWITCHBOARD_API_KEY: 'sk-env-key-123456' };
    const refused = await runCli(['whoami'], { env: { ...env, SWITCHBOARD_BASE_URL: 'http://api.example.com' } });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /SWITCHBOARD_BASE_URL http:\/\/api\.example\.com is http:\/\/ to api\.example\.com.*set SWITCHBOARD_ALLOW_HTTP=1/);
    const allowed = await runCli(['whoami'], { env: { ...env, SWITCHBOARD_BASE_URL: 'http://api.example.com', SWITCHBOARD_ALLOW_HTTP: '1' } });
    assert.equal(allowed.code, 0, allowed.stderr);
    for (const url of ['http://127.0.0.1:9', 'http://localhost:9/v1', 'http://[::1]:9', 'https://api.example.com']) {
      const r = await runCli(['whoami'], { env: { ...env, SWITCHBOARD_BASE_URL: url } });
      assert.equal(r.code, 0, `${url}: ${r.stderr}`);
    }
  } finally {
    h.cleanup();
  }
});

test('the console header shows an http:// target on another host as UNENCRYPTED, and no other', () => {
  const t = (baseUrl: string) => headerLeft({ kind: 'remote', profile: 'lab', baseUrl }, 200);
  assert.match(t('http://192.0.2.7:8080'), /UNENCRYPTED http │ http:\/\/192\.0\.2\.7:8080/);
  for (const url of ['https://api.example.com', 'http://127.0.0.1:4010', 'http://localhost:4010']) assert.doesNotMatch(t(url), /UNENCRYPTED/, url);
});

test('a URL that does not parse is echoed with its user information masked (the environment and --base-url)', { skip }, async () => {
  const h = home();
  try {
    const env = { ...h.env, SWITCHBOARD_API_KEY: 'sk-env-key-123456', SWITCHBOARD_BASE_URL: 'http://user:hunter2@[::1' };
    const r = await runCli(['whoami'], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /SWITCHBOARD_BASE_URL "http:\/\/…@\[::1" is not a URL/);
    assert.doesNotMatch(r.stderr, /hunter2|user:/);
    const login = await runCli(['login', '--base-url', 'https://me:hunter2@exa mple.com'], { env: h.env, stdin: 'sk-secret-key-1234\n' });
    assert.equal(login.code, 2, login.stderr);
    assert.doesNotMatch(login.stderr, /hunter2|me:/);
  } finally {
    h.cleanup();
  }
});

test('maskUserInfo: every URL in a text, parsed or not, keeps its scheme and host', () => {
  assert.equal(maskUserInfo('http://user:pw@[::1'), 'http://…@[::1');
  assert.equal(maskUserInfo('see https://a@b:c@host/x?u=v@w and ftp://host/p@q'), 'see https://…@host/x?u=v@w and ftp://host/p@q');
  assert.equal(maskUserInfo('https://api.example.com/v1'), 'https://api.example.com/v1');
});

test('whoami -o json escapes a base URL holding U+202E, C1 controls and an OSC sequence, and parses back to it', { skip }, async () => {
  const h = home();
  try {
    const baseUrl = 'http://127.0.0.1:9/\u202egnp.exe\u009b31m\u001b]0;owned\u0007';
    const r = await runCli(['whoami', '-o', 'json'], { env: { ...h.env, SWITCHBOARD_API_KEY: 'sk-env-key-123456', SWITCHBOARD_BASE_URL: baseUrl } });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.equal((JSON.parse(r.stdout) as { baseUrl: string }).baseUrl, baseUrl);
  } finally {
    h.cleanup();
  }
});
