// The standalone sandbox as users run it (`switchboard sandbox`), in its own process, and the
// large data dir the call-log rows share (100,000 calls via `switchboard sandbox seed`).
import { randomBytes } from 'node:crypto';
import { firstErrorLine, tempHome, type BenchContext, type Home } from './fixtures.js';
import { killTree, run, spawnTracked } from './procs.js';
import { msSince } from './stats.js';

export interface RunningSandbox {
  url: string;
  apiKey: string;
  pid: number;
  stop(): Promise<void>;
}

/** `switchboard sandbox --port 0` on `dataDir`; resolves once it says where it listens. */
export async function startSandbox(ctx: BenchContext, dataDir: string, maxUploadMb = 256): Promise<RunningSandbox> {
  const apiKey = `sk-bench-${randomBytes(12).toString('hex')}`;
  const child = spawnTracked(
    process.execPath,
    [ctx.cli, 'sandbox', '--port', '0', '--host', '127.0.0.1', '--api-key', apiKey, '--data-dir', dataDir, '--max-upload-mb', String(maxUploadMb)],
    { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => fail(new Error(`the sandbox did not say where it listens within 30 s: ${firstErrorLine(err || out)}`)), 30_000);
      child.stdout!.setEncoding('utf8').on('data', (s: string) => {
        out += s;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          done(m[1]);
        }
      });
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
      child.on('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`\`switchboard sandbox\` exited (${code}): ${firstErrorLine(err || out)}`));
      });
    });
    return { url, apiKey, pid: child.pid!, stop: () => killTree(child) };
  } catch (err) {
    await killTree(child);
    throw err;
  }
}

export async function sandboxJson(sb: RunningSandbox, path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${sb.url}${path}`, { ...init, headers: { 'x-api-key': sb.apiKey, ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}`);
  return res.json();
}

export const BIG_CALLS = 100_000;

let bigHome: Promise<Home & { seedMs: number }> | undefined;

/**
 * A home whose embedded-sandbox data dir holds the demo data plus 100,000 calls. Made once and
 * shared by the throughput and call-log rows (seeding is preparation, not a measured figure).
 */
export function homeWithManyCalls(ctx: BenchContext): Promise<Home & { seedMs: number }> {
  bigHome ??= (async () => {
    const home = tempHome('calls100k');
    ctx.log(`seeding ${BIG_CALLS.toLocaleString('en-US')} calls…`);
    const t0 = process.hrtime.bigint();
    const r = await run(process.execPath, [ctx.cli, 'sandbox', '--data-dir', home.sandboxDir, 'seed', '--calls', String(BIG_CALLS)], {
      env: home.env,
      timeoutMs: 180_000,
    });
    if (r.code !== 0) throw new Error(`\`switchboard sandbox seed --calls ${BIG_CALLS}\` failed (${r.code}): ${firstErrorLine(r.stderr || r.stdout)}`);
    const seedMs = msSince(t0);
    ctx.log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);
    return { ...home, seedMs };
  })();
  return bigHome;
}
