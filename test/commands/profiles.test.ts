// login (a key piped on stdin, checked before it is saved), profiles switching, whoami masking.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome, type CliResult } from '../support/cli.js';

const sb = sandboxForFile();
let home: CliHome;

before(async () => {
  home = tempHome();
});
after(async () => {
  home.cleanup();
});

// No SWITCHBOARD_BASE_URL / _API_KEY here: the profiles decide.
async function cli(args: string[], stdin?: string): Promise<CliResult> {
  const r = await runCli(args, { env: home.env, stdin });
  assert.ok(!(r.stdout + r.stderr).includes(sb.apiKey), `the key leaked from ${args.join(' ')}`);
  return r;
}

interface ProfileRow {
  id: string;
  current: boolean;
  kind: string;
  baseUrl?: string;
  apiKey?: string;
}

async function profiles(): Promise<ProfileRow[]> {
  const r = await cli(['profiles', 'list', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as ProfileRow[];
}

async function whoami(...pre: string[]): Promise<Record<string, string>> {
  const r = await cli([...pre, 'whoami', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string>;
}

describe('login, profiles, whoami', () => {
  test('before any login the sandbox is the target', async () => {
    const me = await whoami();
    assert.equal(me.profile, 'sandbox');
    assert.match(me.target, /embedded sandbox/);
  });

  test('a refused key is not saved and exits 4', async () => {
    const r = await cli(['login', '--profile', 'bad', '--base-url', sb.url], 'sk-not-the-right-key-9999\n');
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /refused the key.*nothing was saved/);
    assert.ok(!r.stderr.includes('sk-not-the-right-key-9999'));
    assert.ok(!(await profiles()).some((p) => p.id === 'bad'));
  });

  test('a good key piped on stdin is verified, saved 0600, and masked everywhere', async () => {
    const r = await cli(['login', '--profile', 'prod', '--base-url', sb.url], `${sb.apiKey}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /profile prod/);

    const file = join(home.env.XDG_CONFIG_HOME!, 'switchboard', 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(readFileSync(file, 'utf8').includes(sb.apiKey), 'the key is stored (only) in the config file');

    const prod = (await profiles()).find((p) => p.id === 'prod')!;
    assert.equal(prod.baseUrl, sb.url);
    assert.equal(prod.current, true, 'the first login becomes the current profile');
    assert.ok(prod.apiKey && prod.apiKey.endsWith(sb.apiKey.slice(-4)) && prod.apiKey.length < 12);

    const me = await whoami();
    assert.equal(me.profile, 'prod');
    assert.equal(me.baseUrl, sb.url);
    assert.equal(me.key, prod.apiKey);

    const table = await cli(['whoami']);
    assert.match(table.stdout, new RegExp(`key\\t${prod.apiKey!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

    // The saved profile is a working target.
    const listed = await cli(['numbers', 'list', '-o', 'ids']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(listed.stdout.trim().split('\n').length >= 3);
  });

  test('switching profiles with use, --profile and SWITCHBOARD_PROFILE; remove', async () => {
    assert.equal((await cli(['login', '--profile', 'staging', '--base-url', sb.url], sb.apiKey)).code, 0);
    assert.equal((await whoami()).profile, 'prod', 'a second login does not switch');

    assert.equal((await cli(['profiles', 'use', 'staging'])).code, 0);
    assert.equal((await whoami()).profile, 'staging');
    assert.equal((await whoami('--profile', 'prod')).profile, 'prod');
    const viaEnv = await runCli(['whoami', '-o', 'json'], { env: { ...home.env, SWITCHBOARD_PROFILE: 'prod' } });
    assert.equal(JSON.parse(viaEnv.stdout).profile, 'prod');

    const unknown = await cli(['profiles', 'use', 'nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no profile named "nope"/);

    assert.equal((await cli(['profiles', 'remove', 'staging'])).code, 0);
    assert.ok(!(await profiles()).some((p) => p.id === 'staging'));
    assert.equal((await whoami()).profile, 'sandbox', 'removing the current profile falls back to the sandbox');
  });

  test('login needs a base URL and a key', async () => {
    const noUrl = await cli(['login', '--profile', 'fresh'], 'k');
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /--base-url/);
    const noKey = await cli(['login', '--profile', 'fresh', '--base-url', sb.url], '');
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /no API key/);
    const badUrl = await cli(['login', '--base-url', 'not a url'], 'k');
    assert.equal(badUrl.code, 2);
  });

  test('twenty logins at once keep all twenty profiles, and the first one alone became current', async () => {
    const own = tempHome();
    try {
      const names = Array.from({ length: 20 }, (_, i) => `par${i}`);
      const results = await Promise.all(
        names.map((n) => runCli(['login', '--profile', n, '--base-url', sb.url], { env: own.env, stdin: sb.apiKey, process: true })),
      );
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      const listed = await runCli(['profiles', 'list', '-o', 'json'], { env: own.env });
      const rows = JSON.parse(listed.stdout) as ProfileRow[];
      assert.deepEqual(
        rows
          .filter((p) => p.kind === 'remote')
          .map((p) => p.id)
          .sort(),
        [...names].sort(),
      );
      assert.equal(rows.filter((p) => p.current).length, 1);
      assert.notEqual(rows.find((p) => p.current)?.id, 'sandbox', 'one of the logins became the default');
    } finally {
      own.cleanup();
    }
  });

  test('names every object answers to are neither profiles nor accepted as new ones', async () => {
    for (const name of ['hasOwnProperty', 'toString', 'constructor', '__proto__']) {
      const use = await cli(['profiles', 'use', name]);
      assert.equal(use.code, 2, `profiles use ${name}: ${use.stderr}`);
      assert.match(use.stderr, /no profile named/);
      const who = await cli(['--profile', name, 'whoami']);
      assert.equal(who.code, 2, `--profile ${name} whoami: ${who.stdout}`);
      assert.doesNotMatch(who.stderr, /not a valid base URL/);
    }
    const login = await cli(['login', '--profile', 'toString', '--base-url', sb.url], sb.apiKey);
    assert.equal(login.code, 2, login.stderr);
    assert.match(login.stderr, /reserved/);
    assert.equal((await whoami()).profile !== 'toString', true);
  });
});
