// The call archive's reads, timed inside one process (no process start, no sync): search over a
// few kinds of text, stats by day, and a full export; each beside its same-run baseline, the bare
// SQLite query under it (the FTS5 match alone, with no row, record or snippet; the rollup summed
// by quarter hour, with no grouping by local day). For the archive row (rows/archive.ts).
// Prints one JSON line: { search, searchBare, statsDay, statsBare: number[], exportCalls, exportMs }.
// argv: <archive path> <runs>
import { openSync, writeSync, closeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { openArchive, searchTerms } from '../../../src/archive/index.js';

const [path, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const archive = openArchive(path);
const bare = new DatabaseSync(path, { readOnly: true });
const bareMatch = bare.prepare('SELECT rowid FROM call_fts WHERE call_fts MATCH ? ORDER BY rowid DESC LIMIT 20');
const bareRollup = bare.prepare('SELECT bucket, sum(calls) AS n, total(seconds) AS s, total(cost) AS k FROM rollup WHERE dim = 0 GROUP BY bucket');
// A word every call has, a phrase many have, a prefix, a customer name, a word none has.
const texts = ['thanks', '"opening hours"', 'warr*', '"Priya Shah"', 'zebra'];
const timed = (fn: () => unknown) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const search: number[] = [];
const searchBare: number[] = [];
for (let r = 0; r < runs; r++) {
  for (const t of texts) {
    search.push(timed(() => archive.search(t, {}, { limit: 20 })));
    searchBare.push(timed(() => bareMatch.all(searchTerms(t).match!)));
  }
}
const statsDay: number[] = [];
const statsBare: number[] = [];
for (let r = 0; r < runs; r++) {
  statsDay.push(timed(() => archive.stats('day')));
  statsBare.push(timed(() => bareRollup.all()));
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
bare.close();
archive.close();
process.stdout.write(JSON.stringify({ search, searchBare, statsDay, statsBare, exportCalls, exportMs }) + '\n');
