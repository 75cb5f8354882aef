// npm run load: 50 concurrent clients (LOAD_CLIENTS) for 30 s (LOAD_SECONDS, or --seconds N)
// against a sandbox in its own process, then every acknowledged write is read back.
// Exits 1 on any error or any lost write.
import { countAcked, percentile, runLoad, verifyAcked } from './load-run.js';
import { removeDataDir, startChildSandbox } from '../support/child-sandbox.js';

const flag = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seconds = Number(flag('seconds') ?? process.env.LOAD_SECONDS ?? 30);
const clients = Number(flag('clients') ?? process.env.LOAD_CLIENTS ?? 50);

const sb = await startChildSandbox();
let failed: boolean;
try {
  console.log(`load: ${clients} clients for ${seconds} s against ${sb.url} (sandbox pid ${sb.child.pid})`);
  const r = await runLoad({ url: sb.url, apiKey: sb.apiKey, clients, seconds });
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  const v = await verifyAcked(sb.url, sb.apiKey, r.acked);
  console.log(`requests:     ${r.requests} in ${r.seconds.toFixed(1)} s = ${Math.round(r.requests / r.seconds)} req/s`);
  console.log(`latency:      p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`);
  console.log(`errors:       ${r.errors}${r.errorSamples.length ? `\n  ${r.errorSamples.join('\n  ')}` : ''}`);
  console.log(
    `writes acked: ${countAcked(r.acked)} (assistants ${r.acked.assistants.size}, sessions ${r.acked.sessions.size}, ` +
      `chats ${[...r.acked.chats.values()].reduce((n, l) => n + l.length, 0)}, calls ${r.acked.calls.size}, files ${r.acked.files.size})`,
  );
  console.log(`read back:    ${v.checked} acknowledged writes checked, ${v.lost.length} lost${v.lost.length ? `: ${v.lost.slice(0, 10).join(', ')}` : ''}`);
  console.log(`sandbox:      ${sb.alive() ? 'alive' : 'DEAD'}`);
  failed = r.errors > 0 || v.lost.length > 0 || !sb.alive();
} finally {
  await sb.stop();
  removeDataDir(sb.dataDir);
}
process.exitCode = failed ? 1 : 0;
