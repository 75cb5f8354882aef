// What a user gets from the registry: the packed tarball, installed with nothing but Node and npm
// (none of the checkout's tools on PATH, an empty npm cache, offline), globally into a temporary
// prefix, into a project, and run with npx, pulls no runtime dependency (everything dist/ loads is
// bundled) and runs no install script; the installed program answers --version, runs a command
// against its embedded sandbox and draws the console. An older Node gets one line naming the
// version it needs, exit 2.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { builtSkip, CLI, homeEnv, removeTree } from '../support/cli.js';
import { hasTmux, startTmux } from '../support/tmux.js';
import { NODE_FLOOR } from '../../src/node-floor.cjs';

const root = resolve('.');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The npm that runs this suite (npm sets npm_execpath for scripts), else the one on PATH.
const npmCli = process.env.npm_execpath?.endsWith('.js') ? process.env.npm_execpath : undefined;
const npmOnPath = npmCli ? undefined : spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim() || undefined;
const npmSkip = npmCli || npmOnPath ? false : 'npm is not installed';
if (npmSkip) console.log(`# skipping the installs of the packed tarball: ${npmSkip}`);
const npmRun = (args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  spawnSync(npmCli ? process.execPath : npmOnPath!, npmCli ? [npmCli, ...args] : args, { cwd, env, encoding: 'utf8', timeout: 5 * 60_000 });
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => {
  const r = npmRun(args, cwd, env);
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout;
};

test('package.json lists no runtime dependency: everything dist/ loads is bundled', () => {
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), []);
  assert.deepEqual(pkg.files.sort(), ['!dist/test', 'assets', 'dist']);
});

/** Scripts npm runs (or, npm 11, asks to allow) when it installs a package as a dependency, a tarball or a link. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

test('package.json runs no script when the package is installed: the patches and the build happen in the checkout', () => {
  assert.deepEqual(
    INSTALL_SCRIPTS.filter((s) => pkg.scripts[s]),
    [],
  );
  assert.equal(pkg.scripts.preprepare, 'node src/scripts/build.mjs', 'npm install / npm ci in a checkout build (and patch)');
  assert.equal(pkg.scripts.prepack, 'node src/scripts/build.mjs', 'npm pack builds what it packs');
});

describe('the packed tarball, with nothing but Node and npm', { skip: npmSkip || builtSkip() }, () => {
  let work: string;
  let tarball: string;
  /** Node and npm alone: none of the checkout's tools (patch-package, esbuild, …) on PATH, an empty cache and config, no network. */
  let env: NodeJS.ProcessEnv;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'switchboard-pack-'));
    // --ignore-scripts: pack what `npm test` just built instead of building again.
    const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root, process.env));
    tarball = join(work, packed[0].filename);
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
    assert.ok(files.includes('dist/cli.js') && files.includes('assets/seed/assistants.json'), files.join(', '));
    assert.ok(!files.some((f) => /^(src|test|dist\/test)\//.test(f)), "sources and tests (and npm test's bundles of them) stay out of the tarball");
    const home = join(work, 'npm-home');
    mkdirSync(home);
    for (const rc of ['npmrc', 'global-npmrc']) writeFileSync(join(home, rc), '');
    env = {
      HOME: home,
      PATH: [dirname(process.execPath), ...(npmCli ? [] : [dirname(npmOnPath!)]), '/usr/bin', '/bin'].join(delimiter),
      npm_config_cache: join(home, 'cache'),
      npm_config_userconfig: join(home, 'npmrc'),
      npm_config_globalconfig: join(home, 'global-npmrc'),
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
  });
  after(() => removeTree(work));

  /** An npm that installed without a word about scripts or engines (npm 11 lists install scripts it did not run). */
  function quietInstall(args: string[], cwd: string): void {
    const r = npmRun(args, cwd, env);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /install.scripts|patch-package|EBADENGINE|ERR/i, r.stderr);
  }

  /** The program, installed at `bin`: --version, a command on its embedded sandbox, the console's first screen. */
  async function runs(bin: string, cwd: string) {
    const home = mkdtempSync(join(work, 'home-'));
    // The Node this suite runs on, first on PATH, as a user's would be.
    const userEnv = { ...homeEnv(home), PATH: [dirname(process.execPath), dirname(bin), '/usr/bin', '/bin'].join(delimiter) };
    const version = spawnSync(bin, ['--version'], { env: userEnv, encoding: 'utf8' });
    assert.equal(version.stdout.trim(), pkg.version, version.stderr);
    const list = spawnSync(bin, ['assistants', 'list', '-o', 'json'], { env: userEnv, encoding: 'utf8', timeout: 120_000 });
    assert.equal(list.status, 0, list.stderr);
    assert.ok(JSON.parse(list.stdout).length >= 1, 'the seeded assistants are listed');
    const noTmux = hasTmux() ? false : 'tmux is not installed';
    if (noTmux) return console.log(`# the installed console's first screen not checked: ${noTmux}`);
    const t = startTmux({
      name: `sb-package-${process.pid}-${basename(home)}`,
      cwd,
      env: { ...userEnv, TERM: 'xterm-256color' },
      command: JSON.stringify(bin),
    });
    try {
      await t.waitFor(/● online[\s\S]*NAME/);
      t.keys('2');
      await t.waitFor(/^Numbers/m);
      t.keys('C-c');
      assert.equal(await t.waitForExit(), 0);
    } finally {
      t.kill();
    }
  }

  test('npm install -g: no dependency, no install script, and the installed program works', { timeout: 10 * 60_000 }, async () => {
    const prefix = join(work, 'prefix');
    quietInstall(['install', '-g', '--prefix', prefix, tarball], work);
    const installed = join(prefix, 'lib', 'node_modules', 'switchboard');
    assert.deepEqual(existsSync(join(installed, 'node_modules')) ? readdirSync(join(installed, 'node_modules')) : [], [], 'no dependency was installed');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
    await runs(join(prefix, 'bin', 'switchboard'), work);
  });

  test('npm install into a project: node_modules/.bin/switchboard works', { timeout: 10 * 60_000 }, async () => {
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "a-project", "private": true }\n');
    quietInstall(['install', tarball], project);
    await runs(join(project, 'node_modules', '.bin', 'switchboard'), project);
  });

  test('npx <tarball>: runs with nothing installed', { timeout: 10 * 60_000 }, () => {
    const r = npmRun(['exec', '--yes', '--package', tarball, '--', 'switchboard', '--version'], work, env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), pkg.version);
    assert.doesNotMatch(r.stderr, /install.scripts|patch-package/i, r.stderr);
  });
});

// npm checks `engines` against the Node npm runs on, not the one that runs the program: a checkout on a
// Node-20 machine runs on the `node` dev dependency, and `npx switchboard` there printed EBADENGINE twice.
test('package.json names no engines for npm to check; the program checks its Node itself', () => {
  assert.equal(pkg.engines, undefined);
  assert.match(NODE_FLOOR, /^\d+\.\d+\.\d+$/);
});

test('an unsupported Node gets one line naming the version needed, exit 2', (t) => {
  const min = NODE_FLOOR;
  // The machine's own Node when it is older than the floor (this machine has Node 20), else skip.
  const system = spawnSync(
    '/usr/bin/env',
    [
      '-i',
      `PATH=${process.env.PATH?.split(delimiter)
        .filter((p) => !p.includes('node_modules'))
        .join(delimiter)}`,
      'node',
      '-p',
      'process.versions.node',
    ],
    { encoding: 'utf8' },
  );
  const systemVersion = system.stdout?.trim();
  if (system.status !== 0 || !systemVersion) return t.skip('no Node on PATH outside node_modules');
  const older = systemVersion.split('.').map(Number)[0] < Number(min.split('.')[0]);
  if (!older) return t.skip(`the Node on PATH (${systemVersion}) is supported; nothing older to run`);
  for (const args of [['--version'], ['assistants', 'list'], []]) {
    const r = spawnSync(
      '/usr/bin/env',
      [
        '-i',
        `PATH=${process.env.PATH?.split(delimiter)
          .filter((p) => !p.includes('node_modules'))
          .join(delimiter)}`,
        'node',
        CLI,
        ...args,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`^switchboard: needs Node\\.js ${min.replace(/\./g, '\\.')} or newer; this is Node\\.js ${systemVersion.replace(/\./g, '\\.')}`),
    );
  }
});
