// Row 15: the console on the call archive, on the shared 100,000-call data dir (or
// SWITCHBOARD_BENCH_CONSOLE_CALLS calls seeded into a home of its own, e.g. 10000000; or a data
// dir seeded beforehand, SWITCHBOARD_BENCH_CONSOLE_DATA_DIR, `switchboard sandbox --data-dir D
// seed --calls N`, which the row reads in place and leaves as it was, bar the calls it rings):
//  - keypress → frame (j/k on the call log) while the console's own first sync back-fills the
//    archive in the background, median and p99;
//  - call-log rows on screen at start, from the archive: `switchboard calls` (the console opened
//    on the call log), spawn → rows against the one-<Text> Ink app's first frame (row 3's target);
//    and `3` typed at the spawn of a bare `switchboard`, rows against Ink's first frame (no target);
//  - the full sync of the whole log by `switchboard archive sync` (sandbox in-process), calls/s;
//  - G and g (the log's oldest and newest call) → frame with the whole log archived;
//  - the console's RSS with the whole log archived, after G, g, PgDn and a `/` filter.
// Each target is the row's own (`target:` below).
// The archive is filled between the first and the others with `switchboard archive sync` (the
// same file the console opens: the embedded sandbox profile's).
import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext, type Home } from '../fixtures.js';
import { memoryOf, run } from '../procs.js';
import type { PtySession } from '../pty.js';
import { BIG_CALLS, homeWithManyCalls, sandboxJson, startSandbox } from '../sandbox.js';
import { percentile, summarize } from '../stats.js';
import { keyLatencies } from './calllog.js';
import { buildInkHello, firstTextOf, ratioOffPath, WITHIN_INK_FLOOR, withConsole } from './startup.js';

const SELECTED_ROW = '\x1b[7m';
const KEYS_BUDGET_MS = 20_000;

async function homeFor(ctx: BenchContext): Promise<{ home: Home; calls: number }> {
  const seeded = process.env.SWITCHBOARD_BENCH_CONSOLE_DATA_DIR;
  if (seeded) {
    const home = tempHome('console-archive');
    mkdirSync(dirname(home.sandboxDir), { recursive: true });
    // A link: removing the home removes it, not the data dir.
    symlinkSync(resolve(seeded), home.sandboxDir, 'dir');
    const db = new DatabaseSync(join(home.sandboxDir, 'sandbox.db'), { readOnly: true });
    try {
      return { home, calls: (db.prepare('SELECT count(*) AS n FROM calls').get() as { n: number }).n };
    } finally {
      db.close();
    }
  }
  const n = Number(process.env.SWITCHBOARD_BENCH_CONSOLE_CALLS ?? 0);
  if (!n || n === BIG_CALLS) return { home: await homeWithManyCalls(ctx), calls: BIG_CALLS };
  const home = tempHome('console-archive');
  ctx.log(`row 15: seeding ${n.toLocaleString('en-US')} calls…`);
  const r = await run(process.execPath, [ctx.cli, 'sandbox', '--data-dir', home.sandboxDir, 'seed', '--calls', String(n)], {
    env: home.env,
    timeoutMs: 1_800_000,
  });
  if (r.code !== 0) throw new Error(`sandbox seed failed: ${firstErrorLine(r.stderr || r.stdout)}`);
  return { home, calls: n };
}

/** The newest calls' customer numbers: when one is on screen, the log's rows are. */
async function newestNumbers(ctx: BenchContext, home: Home): Promise<string[]> {
  const sb = await startSandbox(ctx, home.sandboxDir);
  try {
    type Row = { customer?: { number?: string } };
    const body = (await sandboxJson(sb, '/calls?limit=5')) as Row[] | { calls?: Row[] };
    return (Array.isArray(body) ? body : (body.calls ?? [])).map((c) => c.customer?.number ?? '').filter((n) => n.length > 6);
  } finally {
    await sb.stop();
  }
}

export async function consoleArchiveRows(ctx: BenchContext): Promise<Figure[]> {
  const { home, calls } = await homeFor(ctx);
  const numbers = await newestNumbers(ctx, home);
  const rowsShown = (t: string) => numbers.some((n) => t.includes(n));
  const figures: Figure[] = [];
  const presses = ctx.quick ? 60 : 150;

  // 1. A fresh archive: the console's first sync back-fills it while keys move the cursor.
  ctx.log('row 15: keys while the console back-fills an empty archive…');
  // A cache dir of its own: rows 4-5 may have archived this data dir's calls already.
  const fresh = tempHome('console-archive-cache');
  const empty: Home = { ...home, env: { ...home.env, XDG_CACHE_HOME: fresh.env.XDG_CACHE_HOME } };
  const during = await withConsole(ctx, empty, async (pty) => {
    pty.type('3');
    await pty.waitFor(rowsShown, 60_000, 0, 'the first call-log rows');
    const syncing = () => /fetching older calls|syncing…/.test(pty.screenLines().join('\n'));
    const keys = await keyLatencies(pty, (i) => (Math.floor(i / 20) % 2 === 0 ? 'j' : 'k'), presses, KEYS_BUDGET_MS);
    return { ...keys, stillSyncing: syncing() };
  });
  const s = summarize(during.samples);
  // Said as measured: at ten million calls what follows takes most of an hour.
  ctx.log(`row 15: keys while syncing: median ${s.median.toFixed(1)} ms, p99 ${percentile(during.samples, 99).toFixed(1)} ms`);
  figures.push(
    {
      row: 15,
      name: 'keypress → frame while the archive syncs (j/k), median',
      unit: 'ms',
      ...fromSummary(s),
      target: atMost(8, 'ms'),
      note:
        `the console's first sync of ${calls.toLocaleString('en-US')} calls running in the background ` +
        `(${during.stillSyncing ? 'still running after the last key' : 'it ended before the last key'}); ${during.timeouts} keys drew no frame in 2 s`,
    },
    {
      row: 15,
      name: 'keypress → frame while the archive syncs (j/k), p99',
      unit: 'ms',
      value: percentile(during.samples, 99),
      runs: during.samples.length,
      target: atMost(25, 'ms'),
    },
  );

  // 2. The whole log archived (the command, as a user would, or another console had).
  ctx.log('row 15: switchboard archive sync…');
  const synced = await run(process.execPath, [ctx.cli, 'archive', 'sync', '-o', 'json'], { env: home.env, timeoutMs: 7_200_000 });
  if (synced.code !== 0) throw new Error(`archive sync failed: ${firstErrorLine(synced.stderr || synced.stdout)}`);
  const sync = JSON.parse(synced.stdout) as { added: number; ms: number; held: number };
  ctx.log(`row 15: synced ${sync.added} calls in ${(sync.ms / 1000).toFixed(1)} s`);
  // The console's own first sync may have archived the whole log already (a small log, a slow machine):
  // then there is no rate to give, only what a sync that finds nothing new costs.
  figures.push({
    row: 15,
    name:
      sync.added > 0
        ? 'full sync of the whole log, `archive sync` (sandbox in-process)'
        : '`archive sync` after the console had archived the whole log (nothing new)',
    unit: sync.added > 0 ? 'calls/s' : 'ms',
    value: sync.added > 0 ? sync.added / (sync.ms / 1000) : sync.ms,
    runs: 1,
    note:
      `${sync.held.toLocaleString('en-US')} calls held; ${(sync.ms / 1000).toFixed(1)} s as the sync reports it; the sandbox serves from the ` +
      `command's own process (row 12 has it in its own)`,
  });

  // 3. Call-log rows at start. `switchboard calls` opens the console on the call log, its rows
  // read from the archive: spawn → rows, held to the one-<Text> Ink app's first frame as row 3's
  // Assistants are (the pty path taken off both sides). And `3` typed at spawn of a bare
  // `switchboard` (which opens on Assistants): the rows against Ink's first frame, the key waiting
  // for the app to take keys.
  const runs = ctx.quick ? 3 : 7;
  const inkHello = await buildInkHello(ctx);
  const atStart: number[] = [];
  const firsts: number[] = [];
  const paths: number[] = [];
  const hellos: number[] = [];
  const typed: number[] = [];
  const inks: number[] = [];
  for (let i = 0; i < runs; i++) {
    ctx.log(`row 15: start → call-log rows, run ${i + 1}/${runs}…`);
    paths.push(await firstTextOf(['/bin/echo', 'ready'], home));
    hellos.push(await firstTextOf([process.execPath, inkHello], home));
    await withConsole(
      ctx,
      home,
      async (pty: PtySession) => {
        firsts.push(await pty.waitFor((t) => /\S/.test(t), 30_000, 0, 'a first frame'));
        atStart.push(await pty.waitFor(rowsShown, 30_000, 0, 'the call-log rows'));
      },
      ['calls'],
    );
    await withConsole(ctx, home, async (pty: PtySession) => {
      pty.type('3');
      const ink = await pty.waitForInkFrame(30_000);
      const rows = await pty.waitFor(rowsShown, 30_000, 0, 'the call-log rows');
      inks.push(ink);
      typed.push(rows - ink);
    });
  }
  const rowsS = summarize(atStart);
  const pathS = summarize(paths);
  const helloS = summarize(hellos);
  figures.push({
    row: 15,
    name: 'call-log rows on screen at start (`switchboard calls`)',
    unit: 'ms',
    ...fromSummary(rowsS),
    ratio: ratioOffPath(rowsS, helloS, pathS),
    target: WITHIN_INK_FLOOR,
    note:
      `spawn → rows; ${calls.toLocaleString('en-US')} calls archived; the ratio is to the one-<Text> Ink app's first frame ` +
      `(${helloS.median.toFixed(0)} ms, pty path ${pathS.median.toFixed(1)} ms taken off both sides); the frame before Ink at ` +
      `${summarize(firsts).median.toFixed(0)} ms (median)`,
  });
  figures.push({
    row: 15,
    name: "call-log rows, 3 typed at spawn, after Ink's first frame",
    unit: 'ms',
    ...fromSummary(summarize(typed)),
    note:
      `bare \`switchboard\` (opens on Assistants) with 3 typed at once: the key waits until the app takes keys; Ink's first frame ` +
      `at ${summarize(inks).median.toFixed(0)} ms (median)`,
  });

  // 4. G and g across the whole log, then resident memory after moving through all of it and filtering.
  ctx.log('row 15: G and g, then RSS after PgDn and a / filter…');
  const ends: { G: number[]; g: number[] } = { G: [], g: [] };
  const rss = await withConsole(ctx, home, async (pty) => {
    pty.type('3');
    await pty.waitFor(rowsShown, 30_000, 0, 'the call-log rows');
    for (let i = 0; i < (ctx.quick ? 5 : 15); i++) {
      for (const k of ['G', 'g'] as const) {
        // The newest calls' numbers are on screen again after g: the frame that shows the top.
        const shows = k === 'g' ? (f: string) => f.includes(SELECTED_ROW) && rowsShown(f) : (f: string) => f.includes(SELECTED_ROW) && !rowsShown(f);
        const pressed = await pty.press(k, 5000, shows).catch(() => undefined);
        ends[k].push(pressed ? pressed.frameAt - pressed.sentAt : 5000);
        await new Promise((d) => setTimeout(d, 50));
      }
    }
    for (const k of ['\x1b[6~', '\x1b[6~', 'G']) await pty.press(k, 5000, (f) => f.includes(SELECTED_ROW)).catch(() => undefined);
    pty.type('/Smith');
    await pty.settle(500, 20_000);
    pty.type('\r');
    await pty.settle(500, 10_000);
    const pid = pty.programPid();
    return pid === undefined ? undefined : memoryOf(pid);
  });
  for (const k of ['G', 'g'] as const) {
    figures.push({
      row: 15,
      name: `${k} (${k === 'G' ? 'oldest' : 'newest'} call) → frame, ${calls.toLocaleString('en-US')} calls archived`,
      unit: 'ms',
      ...fromSummary(summarize(ends[k])),
      target: atMost(25, 'ms'),
      note: `${ends[k].length} presses, G and g in turn; a key that drew no frame in 5 s counts 5,000 ms`,
    });
  }
  figures.push(
    rss
      ? {
          row: 15,
          name: `console RSS, ${calls.toLocaleString('en-US')} calls archived`,
          unit: 'MB',
          value: rss.rss / 2 ** 20,
          runs: 1,
          target: atMost(200, 'MB'),
          note:
            `VmRSS of the console process (peak ${(rss.hwm / 2 ** 20).toFixed(0)} MB) after G, g, PgDn and a / filter; ` +
            `the embedded sandbox is its child, not counted${calls < 1_000_000 ? '; 1,000,000: SWITCHBOARD_BENCH_CONSOLE_CALLS=1000000' : ''}`,
        }
      : { row: 15, name: 'console RSS with the log archived', unit: 'MB', na: 'the console process was gone', target: atMost(200, 'MB') },
  );
  return figures;
}
