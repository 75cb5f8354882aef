// The console on the call archive, on the real renderer against a real sandbox: the call log
// from the archive (g/G at either end), `/` over the whole archive, full-text search with the
// match highlighted and Enter opening the call at it, the stats view, an assistant's page, and
// `a` from a call to its assistant.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { viewCall } from '../../src/api/records.js';
import { createClient } from '../../src/api/client.js';
import { walkCallLog } from '../../src/api/pager.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { money } from '../../src/format/display.js';
import { until } from '../support/wait.js';
import type * as Support from './support.js';
import { sandboxForFile } from '../support/sandbox.js';

// The highlight is inverse video, which only shows with colours on; chalk reads this when Ink
// loads, hence the late import. Text checks below look at the frame without its SGR codes.
process.env.FORCE_COLOR = '1';
let openConsole: typeof Support.openConsole;
/** As test/support/ink.ts's KEYS (not imported: it loads Ink). */
const KEYS = { enter: '\r', escape: '\x1b' } as const;
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** Waits until the frame, without colours, matches. */
async function shows(c: { frame(): string }, what: string | RegExp, turns = 500): Promise<string> {
  for (let i = 0; i < turns; i++) {
    const f = plain(plain(c.frame()));
    if (typeof what === 'string' ? f.includes(what) : what.test(f)) return f;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never saw ${String(what)} in:\n${plain(plain(c.frame()))}`);
}

const SEEDED = 2500;

describe('the console on the call archive', () => {
  const sb = sandboxForFile();
  let api: ReturnType<typeof createClient>;
  /** Every call of the service, newest first, as the service lists them. */
  let service: Call[];
  /** The cache every test's console shares: the first to open back-fills the archive, the rest sync what is new (nothing). */
  let cacheDir: string;
  before(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'switchboard-cache-'));
    ({ openConsole } = await import('./support.js'));
    seedCalls(sb.dataDir, SEEDED);
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    service = [];
    for await (const page of walkCallLog(api, {}, { pageSize: 1000 })) service.push(...page);
  });
  after(async () => {
    await api.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  /** A console on the call log with the archive synced. */
  async function callLog() {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 3_600_000, cacheDir });
    await until(() => c.store.getState().archiveSync.lastAt !== undefined && !c.store.getState().archiveSync.running, 'the first sync');
    await shows(c, /synced \d+ s ago/);
    return c;
  }

  test('the call log opens from the archive: every call counted, G shows the oldest, g the newest, the store holds a window', async () => {
    const c = await callLog();
    try {
      assert.match(plain(c.frame()), new RegExp(`${service.length.toLocaleString('en-US')} calls `), 'the whole log is counted');
      const oldest = service.at(-1)!;
      const newest = service[0];
      await c.press('G');
      await shows(c, oldest.customer!.number!);
      assert.equal(c.store.getState().views.calls.cursor, service.length - 1);
      await c.press('g');
      await shows(c, newest.customer!.number!);
      assert.ok(c.store.getState().callLog.calls.length < 200, `a window of rows, not ${service.length}`);
      // Reopened: the rows are there at once, from the archive, before any sync has answered.
      const again = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 3_600_000, cacheDir: c.cacheDir });
      try {
        assert.ok(plain(again.frame()).includes(newest.customer!.number!), `the archived rows at the first frame:\n${plain(again.frame())}`);
      } finally {
        await again.close();
      }
    } finally {
      await c.close();
    }
  });

  test('/ filters the whole archive: it finds a call that was never read into memory', async () => {
    const c = await callLog();
    try {
      const held = new Set<string>();
      const stop = c.store.subscribe((s) => s.callLog.calls.forEach((x) => held.add(x.id)));
      c.store.getState().callLog.calls.forEach((x) => held.add(x.id));
      // An old call with a number no other call has.
      const target = service.slice(-50).find((x) => service.filter((y) => y.customer?.number === x.customer?.number).length === 1)!;
      assert.ok(!held.has(target.id), 'not on screen or in the window yet');
      await c.press('/');
      await c.type(target.customer!.number!.slice(-7));
      await shows(c, /\b1 call\b/);
      await c.press(KEYS.enter);
      assert.ok(plain(c.frame()).includes(target.customer!.number!));
      await c.press(KEYS.enter);
      assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: target.id });
      stop();
    } finally {
      await c.close();
    }
  });

  test('full-text search: matching calls with the match highlighted in a snippet; Enter opens the call with the match in view', async () => {
    const c = await callLog();
    try {
      // A word from the transcript of an old call (one far below the first screen).
      const call = await api.getCall(service.at(-3)!.id);
      // Late in the transcript, so the call's page must scroll to show it.
      const word = (call.transcript ?? '')
        .split(/\W+/)
        .filter((w) => w.length >= 7 && /^[a-z]+$/i.test(w))
        .at(-1)!;
      assert.ok(word, `a word to search for in: ${call.transcript}`);
      const matching = service.length; // an upper bound; the archive counts exactly
      await c.press('s');
      await shows(c, ':search');
      await c.type(word);
      await c.press(KEYS.enter);
      await shows(c, /calls? mentions?/);
      const frame = c.frame();
      const res = c.store.getState().searches[word];
      assert.ok(res.total > 0 && res.total <= matching);
      assert.ok(
        res.hits.every((h) => h.parts.some((p) => p.hit && p.text.toLowerCase().includes(word.toLowerCase()))),
        'every snippet holds the match',
      );
      // The match is drawn highlighted (inverse) in the snippet line.
      assert.match(frame, new RegExp(`\\x1b\\[7m(?:\\x1b\\[[0-9;]*m)*${word}`, 'i'));
      await c.press(KEYS.enter);
      const opened = c.store.getState().stack.at(-1) as { name: string; id: string; match?: string };
      assert.equal(opened.name, 'call');
      assert.equal(opened.id, res.hits[0].call.id);
      assert.equal(opened.match, word);
      await shows(c, 'Transcript');
      await until(() => (c.store.getState().views[`call:${opened.id}`]?.scroll ?? 0) > 0, 'scrolled to the match');
      const detail = plain(c.frame());
      assert.ok(detail.toLowerCase().includes(word.toLowerCase()), `the match is in view:\n${detail}`);
      assert.match(c.frame(), new RegExp(`\\x1b\\[7m(?:\\x1b\\[[0-9;]*m)*${word}`, 'i'), 'and highlighted');
      // :search from the palette too.
      await c.press(KEYS.escape, KEYS.escape);
      await c.press(':');
      await c.type(`search "${word}"`);
      await c.press(KEYS.enter);
      await shows(c, /calls? mentions?/);
      // A word no call holds.
      await c.press(':');
      await c.type('search zzqxnotaword');
      await c.press(KEYS.enter);
      await shows(c, 'No archived call mentions');
    } finally {
      await c.close();
    }
  });

  test("the stats view: calls, minutes and cost per day and per assistant equal the sums over the service's calls", async () => {
    const c = await callLog();
    try {
      await c.press('S');
      await shows(c, 'Calls per day');
      await c.press('G');
      await shows(c, 'Per assistant');
      const stats = c.store.getState().callStats.data!;
      // As the service sends them: duration from startedAt/endedAt, cost from cost or its breakdown.
      const sum = (calls: Call[]) => ({
        calls: calls.length,
        cost: calls.reduce((k, x) => k + (viewCall(x).cost ?? 0), 0),
        minutes: calls.reduce((m, x) => m + (viewCall(x).durationSeconds ?? 0), 0) / 60,
      });
      const all = sum(service);
      assert.equal(stats.total.calls, all.calls);
      assert.ok(Math.abs(stats.total.cost - all.cost) < 1e-6, `${stats.total.cost} vs ${all.cost}`);
      assert.ok(Math.abs(stats.total.minutes - all.minutes) < 0.01, `${stats.total.minutes} vs ${all.minutes}`);
      assert.equal(
        stats.byDay.reduce((n, d) => n + d.calls, 0),
        all.calls,
        'the days sum to the total',
      );
      for (const a of stats.byAssistant) {
        const mine = sum(service.filter((x) => (x.assistantId ?? '') === a.key));
        assert.equal(a.calls, mine.calls, `calls of ${a.key}`);
        assert.ok(Math.abs(a.cost - mine.cost) < 1e-6);
      }
      const frame = plain(c.frame());
      assert.ok(frame.includes(money(all.cost)), 'the total cost');
      await c.press('g');
      assert.match(await shows(c, 'Calls per day'), /\d{4}-\d\d-\d\d (Mon|Tue|Wed|Thu|Fri|Sat|Sun) +[█▏▎▍▌▋▊▉]/, 'labelled days with bars');
      await c.press('m');
      await shows(c, 'Minutes per day');
    } finally {
      await c.close();
    }
  });

  test("an assistant's page shows its calls, cost, last call and numbers; from a call, a opens its assistant", async () => {
    const c = await callLog();
    try {
      const first = c.store.getState().callLog.calls[0];
      await c.press('a');
      await until(() => c.store.getState().stack.at(-1)?.name === 'assistant', 'the assistant page');
      assert.deepEqual(c.store.getState().stack.at(-1), { name: 'assistant', id: first.assistantId });
      const mine = service.filter((x) => x.assistantId === first.assistantId);
      const cost = mine.reduce((k, x) => k + (x.cost ?? 0), 0);
      const frame = await shows(c, new RegExp(`calls\\s+${mine.length.toLocaleString('en-US')} · `));
      assert.ok(frame.includes(money(cost)), `its cost ${money(cost)}:\n${frame}`);
      assert.ok(frame.includes(`last ${new Date(mine[0].createdAt).getFullYear()}`));
      const numbers = (await api.listPhoneNumbers()).filter((n) => n.assistantId === first.assistantId);
      for (const n of numbers) assert.ok(frame.includes(n.did!), `linked number ${n.did}`);
      if (numbers.length === 0) assert.match(frame, /phone numbers\s+none/);
      // C: its call log, filtered to it.
      await c.press('C');
      await shows(c, 'filters: assistant');
      assert.ok(c.store.getState().callLog.calls.every((x) => x.assistantId === first.assistantId));
      assert.match(plain(c.frame()), new RegExp(`${mine.length.toLocaleString('en-US')} calls?\\b`));
    } finally {
      await c.close();
    }
  });
});
