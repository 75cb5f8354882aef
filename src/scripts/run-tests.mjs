// Runs every test/**/*.test.ts(x) with Node's built-in runner, bundled first (test-build.mjs: the
// same code, without tsx resolving and transforming each module in each test process). Each file
// also runs alone from the source (`node --import tsx --test FILE`), and --tsx runs them all that way.
// Extra args pass through: substrings that pick test files (run-tests.mjs test/ui).
// --checks: tsc, ESLint, knip and a prettier check run beside the tests, not before them (`npm test`): the suite
// spends much of its time waiting on child processes and timers, and the checks fill those gaps.
// tsc, ESLint and prettier keep caches in node_modules/.cache, so a second run checks only what changed.
// --concurrency N (or SWITCHBOARD_TEST_CONCURRENCY): test files at once, 4 by default. Most files spend much of
// their time waiting on a child, a server or a timer, so four keep two cores busy where two left them idle a third
// of the time; the suite is written to pass on a loaded machine (test-under-load.mjs).
// The test processes run React's production build, the one the bundle ships (it defines NODE_ENV), and Node keeps
// the code it compiles for the next file (NODE_COMPILE_CACHE): every file loads the same chunks.
import { readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { spawn } from 'node:child_process';
import { buildTests } from './test-build.mjs';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'bench' || d.name === 'support' ? [] : walk(p);
    return /\.test\.tsx?$/.test(d.name) ? [p] : [];
  });
}

const args = process.argv.slice(2);
const checks = args.includes('--checks');
const fromSource = args.includes('--tsx');
const at = args.indexOf('--concurrency');
const concurrency = Number(at >= 0 ? args[at + 1] : (process.env.SWITCHBOARD_TEST_CONCURRENCY ?? 4));
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error('--concurrency needs a whole number of test files at once, like --concurrency 2');
  process.exit(2);
}
const filters = args.filter((a, i) => !['--checks', '--tsx', '--concurrency'].includes(a) && !(at >= 0 && i === at + 1));
/**
 * The files that take longest start first: left to their place in the order, one of them starting
 * late ran on alone at the end while the other slots stood empty.
 */
const LONG_FIRST = [
  'test/reliability/escape-corpus.test.tsx',
  'test/commands/hosted.test.ts',
  'test/store/archive-worker.test.ts',
  'test/archive/archive-commands.test.ts',
];
/** A test file's path as LONG_FIRST writes it (with / on any platform). */
const posix = (f) => f.split(sep).join('/');
const rank = (f) => {
  const i = LONG_FIRST.indexOf(posix(f));
  return i < 0 ? LONG_FIRST.length : i;
};
const files = walk('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .sort((a, b) => rank(a) - rank(b));
const missing = filters.length === 0 ? LONG_FIRST.filter((f) => !files.some((g) => posix(g) === f)) : [];
if (missing.length > 0) {
  console.error(`run-tests.mjs: LONG_FIRST names ${missing.join(', ')}, which no longer exist; update the list`);
  process.exit(1);
}
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

/** Runs a command; resolves to its exit code, with its output kept to print in one piece. */
function run(name, command, argv, opts = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, argv, { stdio: opts.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', (err) => (out += `${err.message}\n`));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (!opts.inherit) {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        process.stdout.write(`# check ${name}: ${status === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n${status === 0 ? '' : out}`);
      }
      resolve(status);
    });
  });
}

const bin = (name) => join('node_modules', '.bin', name);
/**
 * What `npm run format` formats (package.json), and what the check holds to it. test/generated/ is
 * left as openapi-typescript writes it: a test compares it with a fresh generation.
 */
const PRETTIER_FILES = ['src/**/*.{ts,tsx,mjs,cts}', 'test/**/*.{ts,tsx,mjs}', '!test/generated/**'];
const checking = checks
  ? [
      // TypeScript's native compiler (the tsgo alias): the same check for much less CPU. typescript-eslint
      // still needs the JavaScript one's API, so both are installed.
      run('tsc', process.execPath, [
        join('node_modules', 'tsgo', 'bin', 'tsc'),
        '--noEmit',
        '--incremental',
        '--tsBuildInfoFile',
        'node_modules/.cache/tsc/tsbuildinfo',
      ]),
      run('eslint', bin('eslint'), [
        '--config',
        'src/scripts/eslint.config.mjs',
        '--cache',
        '--cache-strategy',
        'content',
        '--cache-location',
        'node_modules/.cache/eslint/',
        'src',
        'test',
      ]),
      run('knip', bin('knip'), ['--config', 'src/scripts/knip.jsonc']),
      run('prettier', bin('prettier'), [
        '--check',
        '--log-level',
        'warn',
        '--cache',
        '--cache-location',
        'node_modules/.cache/prettier/cache.json',
        ...PRETTIER_FILES,
      ]),
    ]
  : [];

console.log(`# tests on Node ${process.version}, ${concurrency} files at once${checks ? ', with tsc, ESLint, knip and prettier beside them' : ''}`);
/** The bundled test files; a file that does not compile fails the run with esbuild's own lines (printed above), not a stack. */
async function built() {
  try {
    return await buildTests(process.cwd(), files, join('dist', 'test'));
  } catch {
    console.log('# the test files did not build (above); `npm run typecheck` says more');
    process.exit(1);
  }
}
const runner = fromSource
  ? ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files]
  : ['--enable-source-maps', '--test', `--test-concurrency=${concurrency}`, ...(await built())];
const testEnv = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'production',
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? resolve('node_modules', '.cache', 'node-compile'),
  // Where the bundled tests are: a test that starts a helper as a process finds its bundle there.
  ...(fromSource ? {} : { SWITCHBOARD_TEST_BUILD: resolve('dist', 'test') }),
};
const tests = await run('tests', process.execPath, runner, { inherit: true, env: testEnv });
const failedChecks = (await Promise.all(checking)).filter((s) => s !== 0).length;
if (failedChecks > 0) console.log(`# ${failedChecks} check${failedChecks === 1 ? '' : 's'} failed (above)`);
process.exit(tests !== 0 ? tests : failedChecks > 0 ? 1 : 0);
