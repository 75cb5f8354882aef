// The load generator for the throughput rows, in its own process: N keep-alive connections
// (one undici Pool), one request in flight per connection, for a fixed duration after a warm-up.
// Prints one JSON line: { requests, ok, errors, seconds, rps, p50, p99, statuses, all }; ok counts 2xx.
// argv: <url> <apiKey> <path> <connections> <warmupMs> <durationMs> [<JSON body to POST>]
import { Pool } from 'undici';

const [url, apiKey, path, connections, warmupMs, durationMs, body] = process.argv.slice(2);
const pool = new Pool(url, { connections: Number(connections), pipelining: 1 });
const method = body === undefined ? 'GET' : 'POST';
const headers: Record<string, string> = {
  'x-api-key': apiKey,
  accept: 'application/json',
  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
};

let measuring = false;
let stop = false;
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let errors = 0;
let all = 0; // warm-up included, to divide the server's CPU time by

async function worker(): Promise<void> {
  while (!stop) {
    const t0 = performance.now();
    try {
      const res = await pool.request({ path, method, headers, body });
      await res.body.arrayBuffer(); // read the whole page, as a client does
      all++;
      if (measuring) {
        latencies.push(performance.now() - t0);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }
    } catch {
      if (measuring) errors++;
    }
  }
}

const workers = Array.from({ length: Number(connections) }, () => worker());
await new Promise((r) => setTimeout(r, Number(warmupMs)));
measuring = true;
const t0 = performance.now();
await new Promise((r) => setTimeout(r, Number(durationMs)));
measuring = false;
const seconds = (performance.now() - t0) / 1000;
stop = true;
await Promise.all(workers);
await pool.close();

latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
const ok = Object.entries(statuses).reduce((n, [code, count]) => (code.startsWith('2') ? n + count : n), 0);
process.stdout.write(`${JSON.stringify({ requests: latencies.length, ok, errors, seconds, rps: ok / seconds, p50: at(50), p99: at(99), statuses, all })}\n`);
