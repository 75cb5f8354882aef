// A sync in a process of its own, for tests that kill it (kill -9) part-way:
//   node --import tsx test/support/sync-child.ts (or its bundle, helperArgs in child-sandbox.ts) <baseUrl> <apiKey> <archive.db> [concurrency]
// It prints `page <held>` after each commit and `done <json>` at the end.
import { createClient } from '../../src/api/client.js';
import { openArchive } from '../../src/archive/index.js';

const [baseUrl, apiKey, path, concurrency] = process.argv.slice(2);
const api = createClient({ baseUrl, apiKey });
const archive = openArchive(path, { service: `hosted:${baseUrl}` });
const r = await archive.sync(api, {
  ...(concurrency ? { concurrency: Number(concurrency) } : {}),
  onProgress: (p) => process.stdout.write(`page ${p.held}\n`),
});
process.stdout.write(`done ${JSON.stringify(r)}\n`);
archive.close();
await api.close();
