// The export rows' same-run baseline (rows/archive.ts): an export's NDJSON read in 1 MiB chunks,
// each line parsed and written again as JSON to /dev/null, without the archive. Plain JavaScript,
// so run as a command it starts as fast as bare node. Prints one JSON line: { calls, ms }.
// argv: <file>
import { Buffer } from 'node:buffer';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const t0 = performance.now();
const input = openSync(process.argv[2], 'r');
const out = openSync('/dev/null', 'w');
const buf = Buffer.allocUnsafe(1 << 20);
let calls = 0;
let rest = '';
for (let n; (n = readSync(input, buf, 0, buf.length, null)) > 0;) {
  const lines = (rest + buf.toString('utf8', 0, n)).split('\n');
  rest = lines.pop() ?? '';
  let chunk = '';
  for (const line of lines) {
    if (line === '') continue;
    chunk += JSON.stringify(JSON.parse(line)) + '\n';
    calls++;
  }
  writeSync(out, chunk);
}
closeSync(input);
closeSync(out);
process.stdout.write(JSON.stringify({ calls, ms: performance.now() - t0 }) + '\n');
