// The embedded sandboxes running on a data dir, so a command can use one that is already up (the one
// an earlier command left running for a few idle seconds; not the console's, which stops with it) instead of starting
// fastify and SQLite in its own process for one request.
//
// Each registered sandbox writes <dataDir>/running/<pid>-<port>.json (0600 in a 0700 dir) with its
// URL, a token it accepts as x-api-key beside its own key (which stays in memory, never on disk),
// and an instance nonce it sends back, and removes the file when it stops. A reader uses a file
// only if its pid is alive and the server on its port, asked with the token, answers with the
// nonce (a port can be taken by another program once a sandbox has gone: it learns a dead token,
// never the nonce); a file whose pid is dead is removed, as its owner can no longer write it.
// Nothing else is ever swept.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../config/files.js';
import { pidAlive } from '../config/lock.js';

/** Sent by a registered sandbox on every answer to a request with its key or token: its instance nonce. */
export const INSTANCE_HEADER = 'x-sandbox-instance';

/** How long the check before use may take: a sandbox that is up answers within milliseconds. */
const CHECK_TIMEOUT_MS = 2000;

export interface RunningSandbox {
  pid: number;
  url: string;
  /** Accepted as x-api-key while this sandbox runs. */
  token: string;
  instance: string;
}

const runningDir = (dataDir: string) => join(dataDir, 'running');
const FILE_NAME = /^\d+-\d+\.json$/;

/** A registration's token or nonce (node:crypto loaded here: a command that finds a sandbox makes none). */
export function newSecret(): string {
  return process.getBuiltinModule('node:crypto').randomBytes(16).toString('hex');
}

/** Registers this process's sandbox; the function returned removes the file (safe to call twice). */
export function registerSandbox(dataDir: string, entry: Omit<RunningSandbox, 'pid'>): () => void {
  const port = new URL(entry.url).port;
  const path = join(runningDir(dataDir), `${process.pid}-${port}.json`);
  writePrivateFile(path, JSON.stringify({ pid: process.pid, ...entry } satisfies RunningSandbox));
  return () => rmSync(path, { force: true });
}

/** A live, checked sandbox registered on this data dir, or undefined. */
export async function findRunningSandbox(dataDir: string): Promise<RunningSandbox | undefined> {
  const dir = runningDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => FILE_NAME.test(n));
  } catch {
    return undefined;
  }
  for (const name of names) {
    const path = join(dir, name);
    const entry = readEntry(path);
    if (!entry) continue;
    if (!pidAlive(entry.pid)) {
      rmSync(path, { force: true });
      continue;
    }
    if (await answersAs(entry)) return entry;
  }
  return undefined;
}

function readEntry(path: string): RunningSandbox | undefined {
  try {
    const e = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunningSandbox>;
    const ok =
      Number.isInteger(e.pid) &&
      typeof e.url === 'string' &&
      /^http:\/\/127\.0\.0\.1:\d+$/.test(e.url) &&
      typeof e.token === 'string' &&
      typeof e.instance === 'string' &&
      e.instance.length >= 16;
    return ok ? (e as RunningSandbox) : undefined;
  } catch {
    return undefined;
  }
}

/** One HEAD request with the token: the server must name the registered instance. */
function answersAs(entry: RunningSandbox): Promise<boolean> {
  // Not an ESM import: node:http's ESM facade loads Node's bundled undici (src/README.md, Start).
  const http = process.getBuiltinModule('node:http');
  return new Promise((done) => {
    const req = http.request(
      `${entry.url}/openapi.json`,
      { method: 'HEAD', agent: false, timeout: CHECK_TIMEOUT_MS, headers: { 'x-api-key': entry.token } },
      (res) => {
        res.resume();
        done(res.statusCode === 200 && res.headers[INSTANCE_HEADER] === entry.instance);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false));
    req.end();
  });
}
