// Row 7: `switchboard files upload` of a 200 MiB file to the standalone sandbox — the peak
// resident memory each side adds, sampled from /proc while it runs (and, for the sandbox, until
// it has finished processing the file).
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext } from '../fixtures.js';
import { makeTempDir, memoryOf, removeTempDir, run } from '../procs.js';
import { sandboxJson, startSandbox, type RunningSandbox } from '../sandbox.js';
import { summarize } from '../stats.js';

const MiB = 2 ** 20;
const BIG = 200 * MiB;

interface Upload {
  ms: number;
  /** the client's peak resident set, bytes */
  clientPeak: number;
  /** the sandbox's resident set before, and its peak during, bytes */
  sandboxBefore: number;
  sandboxPeak: number;
}

/** Samples both processes every few ms while `work` runs. */
async function sampled<T>(pids: () => number[], work: Promise<T>): Promise<{ result: T; peaks: Map<number, number> }> {
  const peaks = new Map<number, number>();
  const sample = () => {
    for (const pid of pids()) {
      const m = memoryOf(pid);
      if (m) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, m.rss));
    }
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work;
    sample();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

async function uploadOnce(ctx: BenchContext, sb: RunningSandbox, env: NodeJS.ProcessEnv, path: string): Promise<Upload> {
  const before = memoryOf(sb.pid)!;
  let clientPid = 0;
  let clientHwm = 0;
  const t0 = Date.now();
  const work = (async () => {
    const r = await run(process.execPath, [ctx.cli, 'files', 'upload', path, '-o', 'json'], { env, timeoutMs: 120_000, onSpawn: (pid) => (clientPid = pid) });
    if (r.code !== 0) throw new Error(`files upload failed (${r.code}): ${firstErrorLine(r.stderr || r.stdout)}`);
    const file = JSON.parse(r.stdout) as { id: string; status?: string };
    // The sandbox may still be processing the file (text extraction); keep sampling until it is done.
    for (let i = 0; i < 600; i++) {
      const { file: f } = (await sandboxJson(sb, `/files/${file.id}`)) as { file: { status: string } };
      if (f.status !== 'processing') break;
      await new Promise((d) => setTimeout(d, 50));
    }
    return { ms: Date.now() - t0, id: file.id };
  })();
  const { result, peaks } = await sampled(() => {
    // VmHWM too: the client may peak between two samples and be gone before the next.
    if (clientPid) clientHwm = Math.max(clientHwm, memoryOf(clientPid)?.hwm ?? 0);
    return clientPid ? [sb.pid, clientPid] : [sb.pid];
  }, work);
  const after = memoryOf(sb.pid)!;
  await sandboxJson(sb, `/files/${result.id}`, { method: 'DELETE' });
  const sandboxPeak = Math.max(peaks.get(sb.pid) ?? 0, after.hwm > before.hwm ? after.hwm : 0);
  return { ms: result.ms, clientPeak: Math.max(peaks.get(clientPid) ?? 0, clientHwm), sandboxBefore: before.rss, sandboxPeak };
}

export async function uploadRow(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('upload');
  const files = makeTempDir('upload-files');
  const big = join(files, 'bench-200mib.bin');
  const small = join(files, 'bench-1kib.bin');
  // Sparse: 200 MiB of zeros without writing them to disk.
  const fd = openSync(big, 'w');
  ftruncateSync(fd, BIG);
  closeSync(fd);
  writeFileSync(small, Buffer.alloc(1024));
  try {
    const runs = ctx.quick ? 1 : 3;
    const client: number[] = [];
    const sandbox: number[] = [];
    const seconds: number[] = [];
    for (let i = 0; i < runs; i++) {
      ctx.log(`row 7: upload ${i + 1}/${runs}…`);
      // A fresh sandbox each run: memory kept from an earlier upload would hide this one's peak.
      const sb = await startSandbox(ctx, home.sandboxDir, 256);
      try {
        const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
        await uploadOnce(ctx, sb, env, small); // warm-up: loads the upload code paths on both sides
        // A 1 KiB upload by the same command is the client's baseline: what any upload costs.
        const base = await uploadOnce(ctx, sb, env, small);
        const up = await uploadOnce(ctx, sb, env, big);
        client.push((up.clientPeak - base.clientPeak) / MiB);
        sandbox.push((up.sandboxPeak - up.sandboxBefore) / MiB);
        seconds.push(up.ms / 1000);
      } finally {
        await sb.stop();
      }
    }
    const note =
      `sparse 200 MiB file; client = \`switchboard files upload\`, added = its peak RSS minus the same command's peak for a 1 KiB file; sandbox = peak RSS ` +
      `during upload + processing minus RSS before; median upload ${summarize(seconds).median.toFixed(1)} s`;
    return [
      { row: 7, name: '200 MiB upload, RSS added to the sandbox', unit: 'MB', ...fromSummary(summarize(sandbox)), target: atMost(64, 'MB'), note },
      { row: 7, name: '200 MiB upload, RSS added to the client', unit: 'MB', ...fromSummary(summarize(client)), target: atMost(64, 'MB') },
    ];
  } finally {
    removeTempDir(files);
  }
}
