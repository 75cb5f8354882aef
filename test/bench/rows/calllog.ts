// Rows 4 and 5: the console on the 100,000-call data dir. Keypress → frame latency moving the
// cursor (j at the top of the log; k once everything is loaded), the time to page to the end of
// the log (G until the log says it has no older calls), and the console's resident memory then.
import { readdirSync, readFileSync } from 'node:fs';
import { atMost, fromSummary, type Figure, type Target } from '../report.js';
import type { BenchContext } from '../fixtures.js';
import { memoryOf } from '../procs.js';
import type { PtySession } from '../pty.js';
import { BIG_CALLS, homeWithManyCalls } from '../sandbox.js';
import { percentile, summarize } from '../stats.js';
import { withConsole } from './startup.js';

/** Keys come no faster than a held key repeats (25/s), so Ink's frame throttle is not what we time. */
const KEY_GAP_MS = 40;
const FRAME_TIMEOUT_MS = 2000;
/** Paging the whole log may be slow; past this the row reports how far it got. */
const PAGE_BUDGET_MS = 45_000;
const QUICK_PAGE_BUDGET_MS = 20_000;
/** Each run of keypresses stops here even if keys keep timing out. */
const KEYS_BUDGET_MS = 25_000;

// A frame that moved the cursor redraws the selected row, which is drawn in inverse video.
const SELECTED_ROW = '\x1b[7m';

// The call log's status line: "1234 calls+" while older calls remain, "1234 calls" at the end.
// (not the chart line above it, "N calls loaded")
// The count is grouped ("100,300 calls"): all its digits, not the last group's.
const COUNT = /(\d[\d,]*) calls(\+?)(?! loaded)/g;

function lastCount(text: string): { loaded: number; more: boolean } | undefined {
  let m: RegExpExecArray | null;
  let last: RegExpExecArray | undefined;
  while ((m = COUNT.exec(text))) last = m;
  return last && { loaded: Number(last[1].replaceAll(',', '')), more: last[2] === '+' };
}

/**
 * Presses keys from `keyAt(i)` up to n times (each after the previous frame and the key-repeat
 * gap, and within `budgetMs`); the latency of each keypress in ms.
 */
export async function keyLatencies(
  pty: PtySession,
  keyAt: (i: number) => string,
  n: number,
  budgetMs: number,
): Promise<{ samples: number[]; timeouts: number }> {
  const samples: number[] = [];
  let timeouts = 0;
  let lastSent = -Infinity;
  const end = pty.now() + budgetMs;
  for (let i = 0; i < n && pty.now() < end; i++) {
    const wait = lastSent + KEY_GAP_MS - pty.now();
    if (wait > 0) await new Promise((d) => setTimeout(d, wait));
    try {
      const { sentAt, frameAt } = await pty.press(keyAt(i), FRAME_TIMEOUT_MS, (frame) => frame.includes(SELECTED_ROW));
      samples.push(frameAt - sentAt);
      lastSent = sentAt;
    } catch {
      // No frame at all: count it, and score it as the whole wait so it is not flattered away.
      timeouts++;
      samples.push(FRAME_TIMEOUT_MS);
      lastSent = pty.now();
    }
  }
  return { samples, timeouts };
}

/** G until the log has no older calls (or the budget ran out); PgDn latencies measured on the way. */
async function pageToEnd(pty: PtySession, budgetMs: number, log: (m: string) => void): Promise<{ ms: number; loaded: number; done: boolean; pages: number }> {
  const start = pty.now();
  const shown = () => lastCount(pty.screenLines().join('\n'));
  let count = shown() ?? { loaded: 0, more: true };
  let pages = 0;
  let lastLog = start;
  while (count.more && pty.now() - start < budgetMs) {
    pty.type('G');
    const before = count.loaded;
    try {
      // Wait for the log to grow (or to say it is complete), as the terminal shows it.
      await pty.waitForScreen(
        () => {
          const c = shown();
          return c !== undefined && (c.loaded > before || !c.more);
        },
        30_000,
        'older calls after G',
      );
    } catch (err) {
      log(`row 4: paging stopped: ${err instanceof Error ? err.message : String(err)}`);
      break;
    }
    count = shown() ?? count;
    pages++;
    if (pty.now() - lastLog > 10_000) {
      lastLog = pty.now();
      log(`row 4: ${count.loaded.toLocaleString('en-US')} calls loaded…`);
    }
  }
  return { ms: pty.now() - start, loaded: count.loaded, done: !count.more, pages };
}

/** The console's own child processes (the embedded sandbox, when it runs as one), from /proc. */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/**
 * Row 5: the console process's own resident memory (the figure the target is about), and its
 * children's (the embedded sandbox, once it is a child process) separately in the note.
 */
function rssFigure(pid: number | undefined, loaded: string, wholeLog: boolean): Figure {
  const mem = pid === undefined ? undefined : memoryOf(pid);
  if (pid === undefined || !mem)
    return { row: 5, name: 'console RSS with the log loaded', unit: 'MB', na: 'the console process was gone', target: atMost(200, 'MB') };
  const children = childPids(pid).flatMap((child) => {
    const m = memoryOf(child);
    return m ? [{ pid: child, ...m }] : [];
  });
  const childRss = children.reduce((sum, c) => sum + c.rss, 0);
  const sandbox = children.length
    ? `its child process${children.length > 1 ? 'es' : ''} (the embedded sandbox) ${mb(childRss)} more ` +
      `(peak ${mb(Math.max(...children.map((c) => c.hwm)))}), ${mb(mem.rss + childRss)} together`
    : 'no child process: the embedded sandbox, if any, runs inside it and is included';
  return {
    row: 5,
    name: `console RSS, ${loaded}`,
    unit: 'MB',
    value: mem.rss / 2 ** 20,
    runs: 1,
    target: rssTarget(wholeLog),
    note: `VmRSS of the console process alone (peak VmHWM ${mb(mem.hwm)}); ${sandbox}`,
    detail: { console: mem, children },
  };
}

/** Met only when the whole log was loaded: a smaller RSS for fewer calls proves nothing. */
function rssTarget(wholeLog: boolean): Target {
  const t = atMost(200, 'MB');
  return { text: wholeLog ? t.text : `${t.text} (whole log)`, met: (f) => wholeLog && t.met(f) };
}

export async function callLogRows(ctx: BenchContext): Promise<Figure[]> {
  const home = await homeWithManyCalls(ctx);
  const presses = ctx.quick ? 60 : 150;
  return withConsole(ctx, home, async (pty) => {
    await pty.waitFor((t) => /\S/.test(t), 30_000, 0, 'a first frame');
    await pty.settle(500, 20_000);
    const from = pty.chunkCount;
    pty.type('3');
    await pty.waitFor((t) => lastCount(t) !== undefined, 30_000, from, 'the call log');
    await pty.settle(300, 10_000);

    // Down and back up within the first page, so every key moves the cursor over loaded rows.
    ctx.log(`row 4: ${presses} × j/k at the top of the log…`);
    const top = await keyLatencies(pty, (i) => (Math.floor(i / 30) % 2 === 0 ? 'j' : 'k'), presses, KEYS_BUDGET_MS);

    ctx.log('row 4: paging to the end (G)…');
    const budget = ctx.quick ? QUICK_PAGE_BUDGET_MS : PAGE_BUDGET_MS;
    const paged = await pageToEnd(pty, budget, ctx.log);
    await pty.settle(300, 10_000);
    const rss = rssFigure(pty.programPid(), `${paged.loaded.toLocaleString('en-US')} calls loaded`, paged.done);

    ctx.log(`row 4: ${presses} × k with ${paged.loaded.toLocaleString('en-US')} calls loaded…`);
    const end = await keyLatencies(pty, () => 'k', presses, KEYS_BUDGET_MS);

    const topS = summarize(top.samples);
    const endS = summarize(end.samples);
    const reached =
      `${paged.loaded.toLocaleString('en-US')} calls ` +
      `loaded${paged.done ? ' (the whole log)' : ` of ${BIG_CALLS.toLocaleString('en-US')}+ when the ${budget / 1000} s budget ran out`}`;
    const timeouts = top.timeouts + end.timeouts;
    const keyNote =
      `keys paced ≥ ${KEY_GAP_MS} ms apart (key repeat), latency = key written → first frame redrawing the selected ` +
      `row; ${timeouts ? `${timeouts} keys drew no frame within ${FRAME_TIMEOUT_MS} ms (scored as ${FRAME_TIMEOUT_MS})` : 'every key drew a frame'}`;
    const figures: Figure[] = [
      { row: 4, name: 'keypress → frame, top of the log (j/k), median', unit: 'ms', ...fromSummary(topS), target: atMost(8, 'ms'), note: keyNote },
      {
        row: 4,
        name: 'keypress → frame, top of the log (j/k), p99',
        unit: 'ms',
        value: percentile(top.samples, 99),
        runs: top.samples.length,
        target: atMost(25, 'ms'),
        // The samples themselves (as row 10 keeps them): two builds' runs can be pooled for a p99 worth comparing.
        detail: { samples: top.samples },
      },
      {
        row: 4,
        name: `page to the end (G × ${paged.pages})`,
        unit: 'ms',
        value: paged.ms,
        runs: 1,
        note: reached,
        detail: { ...paged },
      },
      { row: 4, name: `keypress → frame, ${paged.done ? 'all' : 'many'} calls loaded (k), median`, unit: 'ms', ...fromSummary(endS), target: atMost(8, 'ms') },
      {
        row: 4,
        name: `keypress → frame, ${paged.done ? 'all' : 'many'} calls loaded (k), p99`,
        unit: 'ms',
        value: percentile(end.samples, 99),
        runs: end.samples.length,
        target: atMost(25, 'ms'),
        detail: { samples: end.samples },
      },
    ];
    figures.push(rss);
    return figures;
  });
}
