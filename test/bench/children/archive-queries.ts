// The call archive's reads, timed inside one process (no process start, no sync): search over a
// few kinds of text, stats by day, and a full export. For the archive row (rows/archive.ts).
// Prints one JSON line: { search: number[], statsDay: number[], exportCalls, exportMs }.
// argv: <archive path> <runs>
import { openSync, writeSync, closeSync } from 'node:fs';
import { openArchive } from '../../../src/archive/index.js';

const [path, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const archive = openArchive(path);
// A word every call has, a phrase many have, a prefix, a customer name, a word none has.
const texts = ['thanks', '"opening hours"', 'warr*', '"Priya Shah"', 'zebra'];
const search: number[] = [];
for (let r = 0; r < runs; r++) {
  for (const t of texts) {
    const t0 = performance.now();
    archive.search(t, {}, { limit: 20 });
    search.push(performance.now() - t0);
  }
}
const statsDay: number[] = [];
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  archive.stats('day');
  statsDay.push(performance.now() - t0);
}
const fd = openSync('/dev/null', 'w');
const t0 = performance.now();
let exportCalls = 0;
let chunk = '';
for (const json of archive.exportJson()) {
  chunk += json + '\n';
  exportCalls++;
  if (chunk.length >= 1 << 16) {
    writeSync(fd, chunk);
    chunk = '';
  }
}
writeSync(fd, chunk);
const exportMs = performance.now() - t0;
closeSync(fd);
archive.close();
process.stdout.write(JSON.stringify({ search, statsDay, exportCalls, exportMs }) + '\n');
