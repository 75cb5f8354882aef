// Rows 9-11 (keys in): a burst of 50 keys in one write on the call log (every key
// applied, and the time until its last frame); j/k on the detail of an assistant whose prompt is
// 100,000 characters without a space; a `/` filter keystroke with the 100,000-call log loaded.
import { atMost, fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext } from '../fixtures.js';
import { run } from '../procs.js';
import type { PtySession } from '../pty.js';
import { homeWithManyCalls, sandboxJson, startSandbox } from '../sandbox.js';
import { percentile, summarize } from '../stats.js';
import { withConsole } from './startup.js';

/** Keys paced like a fast typist or a held key, so what is timed is the console, not Ink's frame throttle. */
const KEY_GAP_MS = 40;
const FRAME_TIMEOUT_MS = 3000;

/**
 * Each key of `keys` on its own write, paced: write → first frame after it, and write → the last
 * frame it caused (output quiet for 60 ms), in ms.
 */
async function frameLatencies(pty: PtySession, keys: string[]): Promise<{ samples: number[]; settled: number[]; timeouts: number }> {
  const samples: number[] = [];
  const settled: number[] = [];
  let timeouts = 0;
  for (const k of keys) {
    await new Promise((d) => setTimeout(d, KEY_GAP_MS));
    let sent = pty.now();
    try {
      const { sentAt, frameAt } = await pty.press(k, FRAME_TIMEOUT_MS);
      sent = sentAt;
      samples.push(frameAt - sentAt);
    } catch {
      timeouts++;
      samples.push(FRAME_TIMEOUT_MS);
    }
    settled.push((await pty.settle(60, 5000)) - sent);
  }
  return { samples, settled, timeouts };
}

const latencyFigures = (row: number, what: string, r: { samples: number[]; settled: number[]; timeouts: number }, note: string): Figure[] => [
  {
    row,
    name: `${what} → first frame, median`,
    unit: 'ms',
    ...fromSummary(summarize(r.samples)),
    target: atMost(16, 'ms'),
    note: `${note}; ${r.timeouts ? `${r.timeouts} keys drew no frame within ${FRAME_TIMEOUT_MS} ms (scored as that)` : 'every key drew a frame'}`,
  },
  { row, name: `${what} → first frame, p99`, unit: 'ms', value: percentile(r.samples, 99), runs: r.samples.length, detail: { samples: r.samples } },
  { row, name: `${what} → last frame, median`, unit: 'ms', ...fromSummary(summarize(r.settled)), detail: { settled: r.settled } },
];

// A frame that moved the cursor redraws the selected row, which is drawn in inverse video.
const SELECTED_ROW = '\x1b[7m';
const LOG_SHOWN = (l: string[]) => /\d+ calls\+?(?! loaded)/.test(l.join('\n')) && /\d{4}-\d\d-\d\d \d\d:\d\d/.test(l.join('\n'));

/** y on the call log: the highlighted call's id, from the raw-JSON view's breadcrumb; Esc back. */
async function highlightedCallId(pty: PtySession): Promise<string | undefined> {
  pty.type('y');
  let id: string | undefined;
  await pty
    .waitForScreen((l) => (id = /JSON call (\S+)/.exec(l.join('\n'))?.[1]) !== undefined, 10_000, 'the raw JSON of the highlighted call')
    .catch(() => undefined);
  pty.type('\x1b');
  await pty.waitForScreen(LOG_SHOWN, 10_000, 'the call log again');
  await pty.settle(200, 5000);
  return id;
}

/**
 * Row 9: 50 × j in one write at the top of the call log. Every key applied: the highlight lands
 * on the same call as 50 j typed one at a time. Time: write → the first frame, and → the last.
 */
export async function burstRow(ctx: BenchContext): Promise<Figure[]> {
  const home = await homeWithManyCalls(ctx);
  const runs = ctx.quick ? 2 : 5;
  const first: number[] = [];
  const last: number[] = [];
  let applied = 0;
  let reference: string | undefined;
  for (let r = 0; r < runs; r++) {
    await withConsole(ctx, home, async (pty) => {
      pty.type('3');
      await pty.waitForScreen(LOG_SHOWN, 60_000, 'the call log');
      await pty.settle(300, 10_000);
      if (reference === undefined) {
        // The call 50 rows down, reached one key at a time (each after its frame).
        for (let i = 0; i < 50; i++) await pty.press('j', FRAME_TIMEOUT_MS, (f) => f.includes(SELECTED_ROW)).catch(() => undefined);
        await pty.settle(300, 10_000);
        reference = await highlightedCallId(pty);
        pty.type('g');
        await pty.settle(300, 10_000);
      }
      const { sentAt, frameAt } = await pty.press('j'.repeat(50), 10_000, (f) => f.includes(SELECTED_ROW));
      first.push(frameAt - sentAt);
      last.push((await pty.settle(300, 20_000)) - sentAt);
      if (reference !== undefined && (await highlightedCallId(pty)) === reference) applied++;
    });
  }
  const note =
    `${applied} of ${runs} bursts put the highlight where 50 single j put it (every key applied)` + (reference ? '' : '; the reference call could not be read');
  return [
    {
      row: 9,
      name: 'burst of 50 × j in one write → first frame (call log)',
      unit: 'ms',
      ...fromSummary(summarize(first)),
      note,
      target: { text: 'every key applied', met: () => applied === runs },
      detail: { first, last },
    },
    { row: 9, name: 'burst of 50 × j in one write → last frame (call log)', unit: 'ms', ...fromSummary(summarize(last)) },
  ];
}

/** Row 10: j/k on the detail of an assistant with a 100,000-character prompt without a space. */
export async function longPromptRow(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('longprompt');
  const sb = await startSandbox(ctx, home.sandboxDir);
  let id: string;
  try {
    const body = (await sandboxJson(sb, '/assistants', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Long prompt',
        model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'x'.repeat(100_000) }] },
      }),
    })) as { id?: string; assistant?: { id: string } };
    id = body.assistant?.id ?? body.id!;
  } finally {
    await sb.stop();
  }
  const presses = ctx.quick ? 30 : 100;
  return withConsole(ctx, home, async (pty) => {
    await pty.waitForScreen((l) => l.join('\n').includes('NAME'), 60_000, 'the assistants');
    pty.type(`:a ${id}\r`);
    await pty.waitForScreen((l) => l.join('\n').includes('System prompt'), 30_000, 'the assistant detail');
    await pty.settle(300, 10_000);
    const keys = Array.from({ length: presses }, (_, i) => (Math.floor(i / 20) % 2 === 0 ? 'j' : 'k'));
    return latencyFigures(10, 'j/k on a 100,000-character prompt', await frameLatencies(pty, keys), `keys ≥ ${KEY_GAP_MS} ms apart, write → first frame`);
  });
}

/**
 * Row 11: a `/` filter keystroke with the whole 100,000-call log in the console's call archive
 * (filled first with `switchboard archive sync`, so the filter walks every call, not a first page).
 */
export async function filterRow(ctx: BenchContext): Promise<Figure[]> {
  const home = await homeWithManyCalls(ctx);
  ctx.log('row 11: switchboard archive sync…');
  const synced = await run(process.execPath, [ctx.cli, 'archive', 'sync'], { env: home.env, timeoutMs: 1_800_000 });
  if (synced.code !== 0) throw new Error(`archive sync failed: ${firstErrorLine(synced.stderr || synced.stdout)}`);
  return withConsole(ctx, home, async (pty) => {
    pty.type('3');
    // The status line counts the archive: every call of the log, e.g. "100,300 calls".
    await pty.waitForScreen((l) => /\b\d{3},\d{3} calls\b/.test(l.join('\n')), 60_000, 'the call log, every call archived');
    const total = /\b(\d{3},\d{3}) calls\b/.exec(pty.screenLines().join('\n'))?.[1] ?? '?';
    await pty.settle(300, 10_000);
    pty.type('/');
    await pty.settle(300, 10_000);
    // Typing on narrows; Backspace widens again; each is one keystroke of the filter.
    const keys = ctx.quick
      ? ['0', '1', '\x7f', '\x7f', 'a', '\x7f']
      : ['0', '1', '2', '\x7f', '\x7f', '\x7f', 'e', 'n', 'd', '\x7f', '\x7f', '\x7f', '+', '1', '\x7f', '\x7f'];
    return latencyFigures(
      11,
      `/ filter keystroke, ${total} calls archived`,
      await frameLatencies(pty, keys),
      `typing on and Backspace, keys ≥ ${KEY_GAP_MS} ms apart; the filter walks the archive in slices`,
    );
  });
}
