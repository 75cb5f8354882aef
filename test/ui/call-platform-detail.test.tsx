// The call page on what the platform sends (Vapi's call object): a tool's calls and results as
// lines of their own, marked and dimmed apart from speech (on the page and in what `v` gives
// the pager), and the cost breakdown, analysis, per-turn latencies and recording in sections.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../support/wait.js';
import { startHostedFixture, type HostedFixture } from '../support/hosted-fixture.js';
import { vapiToolCall } from '../support/vapi-records.js';
import { callLines } from '../../src/ui/screens/calls/CallDetail.js';
import type { Call } from '../../src/api/schemas.js';
import { openConsole, type Sandbox } from './support.js';
import { THEMES } from '../../src/ui/theme.js';

const CALL = vapiToolCall();
// A tool whose result carries terminal controls: shown escaped, never sent to the terminal.
const HOSTILE = vapiToolCall('call_tool_2', '2026-11-21T09:30:00.000Z');
(HOSTILE.messages as Record<string, unknown>[])[4].result = 'ok\u001b[2J\u001b]0;owned\u0007';

let fx: HostedFixture;
let service: Sandbox;

before(async () => {
  // The hosted service's fixture, holding these two calls and the assistant they name: the page is
  // read through its paging and ids, not a server written to answer them.
  fx = await startHostedFixture();
  fx.calls.splice(0, fx.calls.length, structuredClone(HOSTILE), structuredClone(CALL));
  const at = '2026-11-01T08:00:00.000Z';
  fx.assistants.splice(0, fx.assistants.length, { id: 'asst_1', name: 'Booking desk', createdAt: at, updatedAt: at });
  service = { url: fx.url, apiKey: fx.apiKey } as Sandbox;
});

after(async () => {
  await fx.close();
});

/** Scrolls the page down a line at a time until `text` is in view; the frame then. */
async function scrollTo(c: { frame(): string; press(...k: string[]): Promise<void> }, text: string): Promise<string> {
  for (let i = 0; i < 60 && !c.frame().includes(text); i++) await c.press('j');
  assert.ok(c.frame().includes(text), `scrolled to ${text}:\n${c.frame()}`);
  return c.frame();
}

/** The page's text, as the screen scrolls it and `v` gives it to the pager (callLines, wide). */
const pageOf = (call: Record<string, unknown>, width = 400) => callLines(THEMES.dark, call as unknown as Call, { assistant: 'A', number: 'N' }, width);

test('the call page shows tool calls and results as lines of their own, in order, apart from speech', async () => {
  const c = await openConsole(service, { initialRoute: { name: 'call', id: CALL.id as string }, target: { kind: 'remote' } });
  try {
    await until(() => c.store.getState().records[`call:${CALL.id as string}`]?.status === 'ready', 'the call record');
    await c.waitFor('Call call_tool_1');
    const frame = await scrollTo(c, 'Assistant:  ご予約を確認しました。');
    const lines = frame.split('\n').map((l) => l.trim());
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    // In the order said: speech, the call, its result, speech.
    const order = [
      /^Caller:\s+明日の予約を変更したいです/,
      /^Tool call:\s+lookupBooking \{"reference":"BK-7731","day":"tomorrow"\}/,
      /^Tool result:\s+lookupBooking: \{"status":"found","order":"ORD-55821"\}/,
      /^Assistant:\s+ご予約を確認しました。/,
    ];
    const positions = order.map(at);
    assert.ok(
      positions.every((p) => p >= 0),
      `every line is there:\n${frame}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      'in order',
    );
  } finally {
    await c.close();
  }
});

test('the call page has the cost breakdown, analysis, latencies, recording and ended reason in sections; unknown fields still listed', () => {
  const lines = pageOf(CALL).map((l) => l.text);
  const text = lines.join('\n');
  for (const title of ['Cost', 'Analysis', 'Latency (ms)', 'Recording', 'Transcript', 'Other fields (as returned)'])
    assert.ok(lines.includes(title), `${title}:\n${text}`);
  assert.ok(lines.indexOf('Transcript') < lines.indexOf('Cost'), 'the dialogue first, then the sections');
  // The cost at the top of the page and the breakdown's total are the same figure, to the same places.
  const cost = /^cost\s+(\S+)$/m.exec(text)?.[1];
  const total = /^\s*total\s+(\$\S+)$/m.exec(text.slice(text.indexOf('\nCost\n')))?.[1];
  assert.ok(cost && total, `a cost and a total:\n${text}`);
  assert.equal(cost, total);
  assert.match(text, /STT\s+\$0\.0213/);
  assert.match(text, /platform\s+\$0\.0200/);
  assert.match(text, /prompt tokens\s+1520/);
  assert.match(text, /costs\.model\s+gpt-4o\s+1520 prompt \+ 86 completion tokens\s+\$0\.0321/);
  assert.match(text, /structured data\s+\{"reference":"BK-7731","moved":true\}/);
  assert.match(text, /success evaluation\s+true/);
  assert.match(text, /#\s+model\s+voice\s+transcriber\s+endpointing\s+turn/);
  assert.match(text, /^\s*2\s+610\s+210\s+110\s+280\s+1210$/m);
  assert.match(text, /average\s+515\s+195\s+103\s+290\s+1103/);
  assert.match(text, /recording\s+https:\/\/example\.invalid\/recordings\/call_tool_1\.wav/);
  assert.match(text, /ended reason\s+assistant-ended-call/);
  assert.match(text, /monitor\s+\{"listenUrl":"wss:\/\/example\.invalid\/listen"\}/);
  assert.doesNotMatch(text, /"turnLatencies"/, 'the artifact’s shown parts are not repeated as JSON');
  // A record with none of those fields has none of those sections.
  const bare = pageOf({ id: 'c1', createdAt: '2026-11-21T09:00:00.000Z', status: 'ended', transcript: 'User: hi' }).map((l) => l.text);
  assert.deepEqual(
    ['Cost', 'Analysis', 'Latency (ms)', 'Recording'].filter((t) => bare.includes(t)),
    [],
  );
});

test('a tool line is dimmed apart from speech, in the page and in the pager’s text; a tool’s text is escaped', async () => {
  const lines = pageOf(CALL);
  const tool = lines.filter((l) => /^Tool (call|result):/.test(l.text));
  assert.equal(tool.length, 2);
  assert.ok(tool.every((l) => l.dim));
  assert.ok(lines.filter((l) => /^(Assistant|Caller):/.test(l.text)).every((l) => !l.dim));
  const c = await openConsole(service, { initialRoute: { name: 'call', id: HOSTILE.id as string }, target: { kind: 'remote' } });
  try {
    await c.waitFor('Call call_tool_2');
    const frame = await scrollTo(c, 'Assistant:  ご予約を確認しました。');
    assert.match(frame, /Tool result:\s+lookupBooking: ok\\x1b\[2J\\x1b\]0;owned\\x07/);
    assert.ok(!frame.includes('\u001b]0;owned'), 'no control reaches the terminal');
  } finally {
    await c.close();
  }
});

test('the Stats screen shows the turn latency’s p50 and p95 per day and per assistant where the records carry them', async () => {
  const c = await openConsole(service, { initialRoute: { name: 'call-stats' }, target: { kind: 'remote' } });
  try {
    // The screen's stats are read from the archive once its sync has the calls.
    await c.store.getState().actions.syncArchive({ backfill: true });
    c.store.getState().actions.loadCallStats({ force: true });
    await until(() => c.store.getState().callStats.data?.total.calls === 2, 'the stats of both calls');
    const frame = await c.waitFor('Turn latency per day (ms)');
    assert.match(frame, /P50 TURN\s+P95 TURN/);
    assert.match(frame, /^\s*total\s+995\s+1210\s*$/m);
    assert.match(frame, /Booking desk\s+2\s+[\d.]+\s+\$?[\d.]+\s+995\s+1210/);
  } finally {
    await c.close();
  }
});
