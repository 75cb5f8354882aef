// What a user gets from the registry: the packed tarball installed globally into a temporary
// prefix pulls no runtime dependency (everything dist/ loads is bundled), and the installed
// program answers --version and runs a command against its embedded sandbox. An older Node
// gets one line naming the version it needs, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { CLI, homeEnv } from '../support/cli.js';
import { NODE_FLOOR } from '../../src/node-floor.cjs';

const root = resolve('.');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The npm that runs this suite (npm sets npm_execpath for scripts), else the one on PATH.
const npmCli = process.env.npm_execpath;
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  npmCli && npmCli.endsWith('.js')
    ? execFileSync(process.execPath, [npmCli, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    : execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('package.json lists no runtime dependency: everything dist/ loads is bundled', () => {
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), []);
  assert.deepEqual(pkg.files.sort(), ['!dist/test', 'assets', 'dist']);
});

test('the packed tarball installs globally with nothing else, and the installed program works', { timeout: 10 * 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'switchboard-pack-'));
  try {
    // --ignore-scripts: pack what `npm test` just built instead of building again.
    const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root));
    const tarball = join(work, packed[0].filename);
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
    assert.ok(files.includes('dist/cli.js') && files.includes('assets/seed/assistants.json'), files.join(', '));
    assert.ok(!files.some((f) => /^(src|test|dist\/test)\//.test(f)), "sources and tests (and npm test's bundles of them) stay out of the tarball");

    const prefix = join(work, 'prefix');
    npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', tarball], work);
    const installed = join(prefix, 'lib', 'node_modules', 'switchboard');
    assert.deepEqual(existsSync(join(installed, 'node_modules')) ? readdirSync(join(installed, 'node_modules')) : [], [], 'no dependency was installed');
    const ls = JSON.parse(npm(['ls', '-g', '--prefix', prefix, '--omit=dev', '--all', '--json'], work));
    assert.deepEqual(Object.keys(ls.dependencies.switchboard.dependencies ?? {}), []);

    // The installed bin, run by the Node this suite runs on (first on PATH, as a user's would be).
    const home = mkdtempSync(join(work, 'home-'));
    const env = { ...homeEnv(home), PATH: [dirname(process.execPath), join(prefix, 'bin'), process.env.PATH].join(delimiter) };
    const bin = join(prefix, 'bin', 'switchboard');
    const version = spawnSync(bin, ['--version'], { env, encoding: 'utf8' });
    assert.equal(version.stdout.trim(), pkg.version, version.stderr);
    const list = spawnSync(bin, ['assistants', 'list', '-o', 'json'], { env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(list.status, 0, list.stderr);
    assert.ok(JSON.parse(list.stdout).length >= 1, 'the seeded assistants are listed');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
