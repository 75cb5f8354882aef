// `calls get`, `calls export` and `calls search` on what the platform sends (Vapi's call object,
// served on loopback): a tool's calls and results are lines of the transcript of their own,
// marked (and dimmed where there is color) apart from speech, and found by the search; the cost
// breakdown, analysis, latencies and recording are sections of `calls get`; service text escaped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { startHostedFixture, type HostedFixture } from '../support/hosted-fixture.js';
import { vapiCall, vapiToolCall } from '../support/vapi-records.js';
import { parseCsv } from './csv.js';

const TOOL = vapiToolCall('call_tool_1', '2026-11-21T09:00:00.000Z');
const HOSTILE = vapiToolCall('call_tool_2', '2026-11-21T09:30:00.000Z');
(HOSTILE.messages as Record<string, unknown>[])[4].result = 'ok\u001b[2J\u001b]0;owned\u0007';
const PLAIN = vapiCall('call_plain', '2026-11-21T08:00:00.000Z', { said: 'I would like a refund', summary: 'Refund.' });
const CALLS = [HOSTILE, TOOL, PLAIN] as Record<string, unknown>[];

let fx: HostedFixture;
let home: CliHome;
let env: NodeJS.ProcessEnv;

before(async () => {
  home = tempHome();
  // The hosted service's fixture, holding these records only: they meet its paging, date bounds and
  // ids, not a server written to answer them.
  fx = await startHostedFixture();
  fx.calls.splice(0, fx.calls.length, ...structuredClone(CALLS));
  env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
});

after(async () => {
  await fx.close();
  home.cleanup();
});

test('calls get: tool calls and results are transcript lines of their own, in order, dimmed with color', async () => {
  const r = await runCli(['calls', 'get', 'call_tool_1'], { env });
  assert.equal(r.code, 0, r.stderr);
  const transcript = r.stdout.slice(r.stdout.indexOf('\ntranscript\n'));
  assert.deepEqual(transcript.trim().split('\n').slice(1), [
    '  Assistant: こんにちは、ご用件をどうぞ。',
    '  Caller: 明日の予約を変更したいです',
    '  Tool call: lookupBooking {"reference":"BK-7731","day":"tomorrow"}',
    '  Tool result: lookupBooking: {"status":"found","order":"ORD-55821"}',
    '  Assistant: ご予約を確認しました。',
  ]);
  const colored = await runCli(['calls', 'get', 'call_tool_1'], { env: { ...env, FORCE_COLOR: '1' } });
  assert.equal(colored.code, 0, colored.stderr);
  assert.match(colored.stdout, /\u001b\[2m {2}Tool call: lookupBooking/);
  assert.match(colored.stdout, /\n {2}Caller: 明日/, 'speech is not dimmed');
});

test('calls get: the cost breakdown, analysis, latencies and recording in sections; unknown fields still listed', async () => {
  const r = await runCli(['calls', 'get', 'call_tool_1'], { env });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  const section = (name: string) => {
    const from = out.indexOf(`\n${name}\n`);
    assert.ok(from >= 0, `${name}:\n${out}`);
    const rest = out.slice(from + name.length + 2);
    return rest.slice(0, rest.search(/\n\S|$/));
  };
  const cost = section('cost');
  assert.match(cost, /^ {2}STT\t\$0\.0213$/m);
  assert.match(cost, /^ {2}platform\t\$0\.0200$/m);
  assert.match(cost, /^ {2}prompt tokens\t1520$/m);
  assert.match(cost, /^ {2}costs\.voice\t11labs {2}412 characters {2}\$0\.0400$/m);
  const analysis = section('analysis');
  assert.match(analysis, /^ {2}summary\tThe caller moved a booking to another day\.$/m);
  assert.match(analysis, /^ {2}structured data\t\{"reference":"BK-7731","moved":true\}$/m);
  assert.match(analysis, /^ {2}success evaluation\ttrue$/m);
  const latency = section('latency (ms)');
  assert.match(latency, /^ {2}1 +420 +180 +95 +300 +995$/m);
  assert.match(latency, /^ {2}average +515 +195 +103 +290 +1103$/m);
  assert.match(section('recording'), /recording\thttps:\/\/example\.invalid\/recordings\/call_tool_1\.wav/);
  assert.match(out, /^endedReason\tassistant-ended-call$/m);
  assert.match(out, /^monitor\t\{"listenUrl":"wss:\/\/example\.invalid\/listen"\}$/m);
  assert.doesNotMatch(out, /^(costBreakdown|costs|analysis|artifact)\t/m, 'shown in their sections, not again as JSON');
  // The record as received is still there to read whole.
  const json = await runCli(['calls', 'get', 'call_tool_1', '-o', 'json'], { env });
  assert.deepEqual(JSON.parse(json.stdout), TOOL);
});

test('a tool’s text is escaped in calls get and the export', async () => {
  const r = await runCli(['calls', 'get', 'call_tool_2'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Tool result: lookupBooking: ok\\x1b\[2J\\x1b\]0;owned\\x07/);
  assert.ok(!r.stdout.includes('\u001b'));
});

test('calls search finds a word only in a tool’s arguments or result, and a word inside Japanese; the CSV export has the tool lines', async () => {
  const booking = await runCli(['calls', 'search', 'BK-7731', '-o', 'ids'], { env });
  assert.equal(booking.code, 0, booking.stderr);
  assert.deepEqual(booking.stdout.trim().split('\n').sort(), ['call_tool_1', 'call_tool_2']);
  const order = await runCli(['calls', 'search', 'ORD-55821', '--offline'], { env });
  assert.equal(order.code, 0, order.stderr);
  assert.match(order.stdout, /call_tool_1|call_too/);
  assert.match(order.stdout, /ORD-55821/);
  const ja = await runCli(['calls', 'search', '予約', '--offline', '-o', 'ids'], { env });
  assert.equal(ja.code, 0, ja.stderr);
  assert.deepEqual(ja.stdout.trim().split('\n').sort(), ['call_tool_1', 'call_tool_2']);
  const refund = await runCli(['calls', 'search', 'refund', '--offline', '-o', 'ids'], { env });
  assert.deepEqual(refund.stdout.trim().split('\n'), ['call_plain']);
  const csv = await runCli(['calls', 'export', '--offline', '--format', 'csv'], { env });
  assert.equal(csv.code, 0, csv.stderr);
  const rows = parseCsv(csv.stdout);
  const head = rows[0];
  const tool = rows.find((row) => row[0] === 'call_tool_1')!;
  assert.deepEqual(tool[head.indexOf('transcript')].split('\n'), [
    'Assistant: こんにちは、ご用件をどうぞ。',
    'Caller: 明日の予約を変更したいです',
    'Tool call: lookupBooking {"reference":"BK-7731","day":"tomorrow"}',
    'Tool result: lookupBooking: {"status":"found","order":"ORD-55821"}',
    'Assistant: ご予約を確認しました。',
  ]);
  const hostile = rows.find((row) => row[0] === 'call_tool_2')!;
  assert.ok(!hostile[head.indexOf('transcript')].includes('\u001b'), 'escaped in the CSV');
});

test('calls stats has p50 and p95 turn latency columns where the records carry performance metrics', async () => {
  const table = await runCli(['calls', 'stats', '--by', 'assistant'], { env });
  assert.equal(table.code, 0, table.stderr);
  const [head, ...rows] = table.stdout.trim().split('\n');
  assert.match(head, /\tP50 TURN \(MS\)\tP95 TURN \(MS\)$/);
  assert.match(
    rows.find((r) => r.startsWith('asst_1'))!,
    /\t995\t1210$/,
  );
  const json = await runCli(['calls', 'stats', '--by', 'day', '--offline', '-o', 'json'], { env });
  assert.equal(json.code, 0, json.stderr);
  const days = JSON.parse(json.stdout) as Record<string, unknown>[];
  assert.deepEqual(
    days.map((d) => [d.turnLatencyP50Ms, d.turnLatencyP95Ms, d.turns]),
    [[995, 1210, 4]],
  );
});
