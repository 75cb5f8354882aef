// The suite on a busy machine: every core kept busy by another process (stress-ng --cpu N when
// installed, else N busy-looping node processes) while `run-tests.mjs` runs, twice in a row by
// default. Tests assert order and outcome, never speed: this is how that is shown.
//   node src/scripts/test-under-load.mjs [--rounds N] [--cpus N] [test file substrings…]
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  args.splice(i, 2);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} takes a whole number of at least 1`);
    process.exit(2);
  }
  return value;
};
const rounds = flag('--rounds', 2);
const cpus = flag('--cpus', availableParallelism());

const stressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
const load = stressNg
  ? [spawn('stress-ng', ['--cpu', String(cpus), '--quiet'], { stdio: 'ignore' })]
  : Array.from({ length: cpus }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stop = () => load.forEach((p) => p.kill('SIGKILL'));
process.on('exit', stop);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
console.log(`# load: ${stressNg ? `stress-ng --cpu ${cpus}` : `${cpus} busy-looping node processes (stress-ng is not installed)`}`);

const runner = fileURLToPath(new URL('./run-tests.mjs', import.meta.url));
// The CLI the tests run is the built one: built first, as `npm test` does.
const built = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url))], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const results = [];
for (let round = 1; round <= rounds; round++) {
  const started = Date.now();
  console.log(`# round ${round} of ${rounds} under load`);
  const r = spawnSync(process.execPath, [runner, ...args], { stdio: 'inherit' });
  results.push({ round, code: r.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) });
}
stop();
for (const r of results) console.log(`# round ${r.round}: ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${r.seconds} s`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
