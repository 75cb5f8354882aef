// The load generator for the throughput rows, in its own process: N keep-alive connections, one
// request in flight per connection, for a fixed duration after a warm-up. Each connection is a
// plain socket writing one prepared request and reading the answer's head and its Content-Length
// bytes: an HTTP client library spends more CPU a request than the sandbox serving a cached page
// does, and on two cores the load generator, not the server, set the figure (the server sat idle).
// Prints one JSON line: { requests, ok, errors, seconds, rps, p50, p99, statuses, all }; ok counts 2xx.
// argv: <url> <apiKey> <path> <connections> <warmupMs> <durationMs> [<JSON body to POST>]
import { connect } from 'node:net';

const [url, apiKey, path, connections, warmupMs, durationMs, body] = process.argv.slice(2);
const target = new URL(url);
const payload = body === undefined ? undefined : Buffer.from(body);
const request = Buffer.from(
  `${payload ? 'POST' : 'GET'} ${path} HTTP/1.1\r\nhost: ${target.host}\r\nx-api-key: ${apiKey}\r\naccept: application/json\r\n` +
    (payload ? `content-type: application/json\r\ncontent-length: ${payload.length}\r\n` : '') +
    '\r\n',
);
const message = payload ? Buffer.concat([request, payload]) : request;

let measuring = false;
let stop = false;
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let errors = 0;
let all = 0; // warm-up included, to divide the server's CPU time by

const HEAD_END = Buffer.from('\r\n\r\n');

/** One connection: sends, reads the whole answer (head, then Content-Length bytes), sends again; a broken one is replaced. */
function connection(done: () => void): void {
  const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 80), noDelay: true });
  let pending: Buffer = Buffer.alloc(0); // the head read so far
  let bodyLeft = -1; // bytes of the body still to come; -1 while reading the head
  let status = 0;
  let t0 = 0;
  const send = () => {
    if (stop) {
      socket.end();
      return done();
    }
    t0 = performance.now();
    socket.write(message);
  };
  const finish = () => {
    all++;
    if (measuring) {
      latencies.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    bodyLeft = -1;
    send();
  };
  const fail = () => {
    socket.destroy();
    if (measuring) errors++;
    if (stop) return done();
    connection(done);
  };
  socket.once('connect', send);
  socket.on('error', fail);
  socket.on('data', (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      if (bodyLeft < 0) {
        pending = pending.length ? Buffer.concat([pending, chunk.subarray(at)]) : chunk.subarray(at);
        const end = pending.indexOf(HEAD_END);
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) return fail(); // the sandbox sends every answer with its length
        at = chunk.length - (pending.length - end - 4);
        pending = Buffer.alloc(0);
        bodyLeft = Number(length[1]);
      }
      const take = Math.min(bodyLeft, chunk.length - at);
      bodyLeft -= take;
      at += take;
      if (bodyLeft === 0) finish();
    }
  });
}

const finished = Array.from(
  { length: Number(connections) },
  () =>
    new Promise<void>((resolve) => {
      connection(resolve);
    }),
);
await new Promise((r) => setTimeout(r, Number(warmupMs)));
measuring = true;
const t0 = performance.now();
await new Promise((r) => setTimeout(r, Number(durationMs)));
measuring = false;
const seconds = (performance.now() - t0) / 1000;
stop = true;
await Promise.all(finished);

latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
const ok = Object.entries(statuses).reduce((n, [code, count]) => (code.startsWith('2') ? n + count : n), 0);
process.stdout.write(`${JSON.stringify({ requests: latencies.length, ok, errors, seconds, rps: ok / seconds, p50: at(50), p99: at(99), statuses, all })}\n`);
