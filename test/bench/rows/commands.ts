// Row 18: how fast a command starts and answers, as a ratio to bare `node -e 0` timed in the same
// rounds (spawn → exit, interleaved run by run, so both see the same machine state). Three kinds:
// the read commands on the call archive (--offline: no request), the read commands on a remote
// target (a standalone sandbox named by SWITCHBOARD_BASE_URL), and commands on the embedded sandbox
// (nothing configured): with a sandbox already running on the data dir (the one the previous
// command left running, src/sandbox/registry.ts), and from nothing (each run after the last one stopped).
// Each run goes through bash, whose `times` gives the CPU of the process it ran (bash costs the
// same on both sides of a ratio).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { atMostRatio, fromSummary, type Figure, type Target } from '../report.js';
import { tempHome, type BenchContext, type Home } from '../fixtures.js';
import { run } from '../procs.js';
import { startSandbox, sandboxJson } from '../sandbox.js';
import { summarize } from '../stats.js';

interface Case {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  target: Target;
}

interface Timed {
  ms: number;
  /** user + system CPU of the process itself (not of a sandbox it leaves running), from bash's `times` */
  cpuMs: number;
}

/** Spawn → exit of `node args`, and its CPU time: bash runs it and prints its children's times after it. */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const r = await run('bash', ['-c', '"$@" >/dev/null || exit 9; times', 'bash', process.execPath, ...args], { env });
  if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
  // The second line is the children's user and system time: "0m0.123s 0m0.045s".
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/m.exec(r.stdout.trim().split('\n')[1] ?? '');
  if (!m) throw new Error(`no times from bash: ${r.stdout}`);
  return { ms: r.ms, cpuMs: (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 };
}

const ok = (ctx: BenchContext, args: string[], env: NodeJS.ProcessEnv) => timed([ctx.cli, ...args], env);

/** Each case and bare node, measured in interleaved rounds. */
async function rounds(ctx: BenchContext, cases: Case[], runs: number): Promise<{ node: Timed[]; each: Timed[][] }> {
  const node: Timed[] = [];
  const each = cases.map(() => [] as Timed[]);
  for (let i = -2; i < runs; i++) {
    // The first two rounds warm the file cache and Node's compile cache; they are not counted.
    const n = await timed(['-e', '0'], cases[0].env);
    if (i >= 0) node.push(n);
    for (const [j, c] of cases.entries()) {
      const t = await ok(ctx, c.args, c.env);
      if (i >= 0) each[j].push(t);
    }
  }
  return { node, each };
}

/** The figures of one set of rounds: bare node, then each case as a ratio to it (wall; CPU in the note). */
function figuresOf(cases: Case[], { node, each }: { node: Timed[]; each: Timed[][] }, baseline: string): Figure[] {
  const nodeS = summarize(node.map((t) => t.ms));
  const nodeCpu = summarize(node.map((t) => t.cpuMs)).median;
  const out: Figure[] = [{ row: 18, name: baseline, unit: 'ms', ...fromSummary(nodeS), note: `CPU ${nodeCpu.toFixed(0)} ms` }];
  for (const [j, c] of cases.entries()) {
    const s = summarize(each[j].map((t) => t.ms));
    const cpu = summarize(each[j].map((t) => t.cpuMs)).median;
    out.push({
      row: 18,
      name: c.name,
      unit: 'ms',
      ...fromSummary(s),
      ratio: s.median / nodeS.median,
      target: c.target,
      note: `CPU ${cpu.toFixed(0)} ms, ${(cpu / nodeCpu).toFixed(2)}× node's`,
    });
  }
  return out;
}

const noSandboxRunning = (home: Home) => {
  const dir = join(home.sandboxDir, 'running');
  return !existsSync(dir) || readdirSync(dir).length === 0;
};

export async function commandRows(ctx: BenchContext): Promise<Figure[]> {
  const runs = ctx.quick ? 5 : 11;
  const home = tempHome('commands');
  const env = home.env;
  // Seeds the embedded sandbox's data dir and fills the archive from it.
  ctx.log('row 18: seeding and syncing the archive…');
  await ok(ctx, ['archive', 'sync'], env);
  const remoteSb = await startSandbox(ctx, join(home.dir, 'remote'));
  const figures: Figure[] = [];
  try {
    const remote = { ...env, SWITCHBOARD_BASE_URL: remoteSb.url, SWITCHBOARD_API_KEY: remoteSb.apiKey };
    const ids = (path: string, key: string) => sandboxJson(remoteSb, path).then((b) => ((b as Record<string, Array<{ id: string }>>)[key] ?? [])[0]?.id);
    const [assistant, call, file] = await Promise.all([ids('/assistants', 'assistants'), ids('/calls?limit=1', 'calls'), ids('/files?limit=1', 'files')]);
    const archive = (name: string, args: string[]): Case => ({ name: `archive: \`${name}\``, args, env, target: atMostRatio(1.5) });
    const onRemote = (name: string, args: string[]): Case => ({ name: `remote: \`${name}\``, args, env: remote, target: atMostRatio(1.5) });
    const embedded = (name: string, args: string[]): Case => ({ name: `embedded sandbox, running: \`${name}\``, args, env, target: atMostRatio(2) });
    const reads: Case[] = [
      archive('calls search thermostat --offline', ['calls', 'search', 'thermostat', '--offline']),
      archive('calls stats --by day --offline', ['calls', 'stats', '--by', 'day', '--offline']),
      archive('calls export --offline', ['calls', 'export', '--offline']),
      archive('archive status', ['archive', 'status']),
      onRemote('assistants list', ['assistants', 'list']),
      onRemote('assistants get <id>', ['assistants', 'get', assistant]),
      onRemote('numbers list', ['numbers', 'list']),
      onRemote('calls list', ['calls', 'list']),
      onRemote('calls get <id>', ['calls', 'get', call]),
      onRemote('files list', ['files', 'list']),
      onRemote('files get <id>', ['files', 'get', file]),
      onRemote('sessions list', ['sessions', 'list']),
      onRemote('whoami', ['whoami']),
    ];
    ctx.log(`row 18: ${reads.length} reads × ${runs} rounds…`);
    figures.push(...figuresOf(reads, await rounds(ctx, reads, runs), 'bare `node -e 0` (baseline of the reads)'));
    // Rounds of their own, so the sandbox one command leaves is still up for the next.
    const onEmbedded = [embedded('assistants list', ['assistants', 'list']), embedded('calls list', ['calls', 'list'])];
    ctx.log(`row 18: ${onEmbedded.length} embedded-sandbox commands × ${runs} rounds…`);
    figures.push(...figuresOf(onEmbedded, await rounds(ctx, onEmbedded, runs), 'bare `node -e 0` (baseline of the embedded)'));

    // From nothing: each run waits for the sandbox the last one left to stop by itself.
    const cold: Timed[] = [];
    const coldNode: Timed[] = [];
    for (let i = 0; i < (ctx.quick ? 2 : 5); i++) {
      const until = Date.now() + 30_000;
      while (!noSandboxRunning(home) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      coldNode.push(await timed(['-e', '0'], env));
      cold.push(await ok(ctx, ['assistants', 'list'], env));
    }
    const coldS = summarize(cold.map((t) => t.ms));
    const coldCpu = summarize(cold.map((t) => t.cpuMs)).median;
    figures.push({
      row: 18,
      name: 'embedded sandbox, none running: `assistants list`',
      unit: 'ms',
      ...fromSummary(coldS),
      ratio: coldS.median / summarize(coldNode.map((t) => t.ms)).median,
      note: `starts the sandbox the next commands use (it stops after 3 s idle; its CPU is not the command's); not a target; CPU ${coldCpu.toFixed(0)} ms`,
    });
  } finally {
    await remoteSb.stop();
  }
  return figures;
}
