// Row 13: what recording a chat turn in the session index costs the console's event loop. The
// console queues the change (SessionIndexWriter) and writes it in the background; before, every
// message read, rewrote and fsynced the whole index on the UI thread (what a command still does,
// once, measured beside it as applySessionPatch).
import { applySessionPatch, SessionIndexWriter } from '../../../src/config/sessions.js';
import { atMost, fromSummary, type Figure } from '../report.js';
import { tempHome, type BenchContext } from '../fixtures.js';
import { summarize } from '../stats.js';

export async function sessionIndexRows(ctx: BenchContext): Promise<Figure[]> {
  const dir = tempHome('session-index').dir;
  // A well-used index: 200 sessions (the most it keeps), each with a preview and variables.
  for (let i = 0; i < 200; i++) {
    applySessionPatch(
      'bench',
      {
        mode: 'remember',
        session: { id: `session-${i}`, name: `chat ${i}`, assistantId: 'a', lastMessage: 'x'.repeat(200), messageCount: 3, variableValues: { name: 'Ada' } },
      },
      dir,
    );
  }
  const runs = ctx.quick ? 20 : 100;
  const queued: number[] = [];
  const synced: number[] = [];
  const writer = new SessionIndexWriter('bench', dir);
  for (let i = 0; i < runs; i++) {
    const patch = { mode: 'remember' as const, session: { id: `session-${i % 200}`, lastMessage: `reply ${i}` }, addMessages: 2, addCost: 0.003 };
    let t = performance.now();
    writer.queue(patch);
    queued.push(performance.now() - t);
    t = performance.now();
    applySessionPatch('bench', patch, dir);
    synced.push(performance.now() - t);
    await writer.flush(); // the background write lands between messages, as in a chat
  }
  const q = summarize(queued);
  const s = summarize(synced);
  return [
    {
      row: 13,
      name: 'session index: a chat turn on the console event loop',
      unit: 'ms',
      ...fromSummary(q),
      target: atMost(1, 'ms'),
      note: 'queued; merged and written off the render path',
    },
    {
      row: 13,
      name: 'session index: the same change written at once (lock, read, write, fsync, rename)',
      unit: 'ms',
      ...fromSummary(s),
      note: 'what every message cost the UI thread before; a command does it once',
    },
  ];
}
