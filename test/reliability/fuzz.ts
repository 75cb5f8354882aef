// npm run fuzz: 10,000 generated requests against a sandbox in its own process.
// FUZZ_CASES and FUZZ_SEED override the count and the seed. Exits 1 on any bad answer or if
// the sandbox died.
import { FUZZ_MAX_UPLOAD, knownIds, runFuzz } from './fuzz-cases.js';
import { removeDataDir, startChildSandbox } from '../support/child-sandbox.js';

const cases = Number(process.env.FUZZ_CASES ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const sb = await startChildSandbox({ maxUploadBytes: FUZZ_MAX_UPLOAD, logger: true });
let failed: boolean;
try {
  const ids = await knownIds(sb.url, sb.apiKey);
  console.log(`fuzzing ${sb.url} with ${cases} cases (seed ${seed})`);
  const report = await runFuzz({ host: sb.host, port: sb.port, ids, seed, cases, onProgress: (n) => n % 1000 === 0 && console.log(`  ${n} cases`) });
  const alive = sb.alive() && (await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } })).status === 200;
  const keyLogged = sb.output().includes(sb.apiKey);
  console.log(`cases run:   ${report.cases}`);
  console.log(`duration:    ${(report.ms / 1000).toFixed(1)} s (${Math.round(report.cases / (report.ms / 1000))} cases/s)`);
  console.log(
    `by status:   ${Object.entries(report.byStatus)
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(
    `by kind:     ${Object.entries(report.byKind)
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(
    `5xx answers: ${Object.entries(report.byStatus)
      .filter(([s]) => s.startsWith('5'))
      .reduce((n, [, c]) => n + c, 0)}`,
  );
  console.log(`failures:    ${report.failures.length}`);
  console.log(`sandbox:     ${alive ? 'alive and answering' : 'DEAD'}; key in its log: ${keyLogged ? 'YES' : 'no'}`);
  for (const f of report.failures.slice(0, 20)) console.log(`  ✗ [${f.kind}] ${f.problem}\n    ${f.req}`);
  failed = report.failures.length > 0 || !alive || keyLogged;
} finally {
  await sb.stop();
  removeDataDir(sb.dataDir);
}
process.exitCode = failed ? 1 : 0;
