// Service text is data in every command's terminal output: names, prompts, messages, transcripts
// and service error messages carrying ESC/CSI/OSC 52/OSC 8, BEL, BS, CR, C1 and newlines are
// printed escaped — in the aligned terminal tables (the command functions with a TTY target),
// in the built binary's pipe output, and on every error line. -o json stays exact JSON.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { listAssistants, showAssistant } from '../../src/commands/assistants.js';
import { listCalls, showCall, watchCalls } from '../../src/commands/calls.js';
import { sendChat } from '../../src/commands/chat.js';
import { listFiles } from '../../src/commands/files.js';
import { linkNumber, listNumbers } from '../../src/commands/numbers.js';
import type { OutputTarget } from '../../src/commands/output.js';
import { showSession } from '../../src/commands/sessions.js';
import { crashLine, debugLogWriter, writeCrashLog } from '../../src/crash.js';
import { sandboxForFile } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

const HOSTILE = 'Evil\u001b[31mRED\u001b]52;c;cHduZWQ=\u0007\u001b]8;;http://x.test\u001b\\LINK\u001b]8;;\u001b\\B\bS\rC\u009b2JN\u0085L\nX';
const RAW: RegExp[] = [/\u001b\[31mRED/, /\u001b\]52/, /\u001b\]8;/, /\u0007/, /\u0008/, /S\rC/, /[\u0080-\u009f]/];
const rawIn = (text: string) => RAW.filter((re) => re.test(text)).map(String);

const sb = sandboxForFile({ callPace: 20 });
let api: VoiceAgentApi;
let home: CliHome;
let env: NodeJS.ProcessEnv;
const ids = { assistant: '', session: '', number: '', call: '' };
before(async () => {
  await sb.started;
  api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  home = tempHome();
  env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
  const a = (await api.createAssistant({ name: HOSTILE, firstMessage: HOSTILE, description: HOSTILE })).record!;
  ids.assistant = a.id;
  const s = (await api.createSession({ assistantId: a.id, name: HOSTILE })).record!;
  ids.session = s.id;
  await api.sendChat({ sessionId: s.id, input: HOSTILE });
  ids.number = (await api.listPhoneNumbers())[0].id;
  await api.linkNumber({ phoneNumberId: ids.number, assistantId: a.id });
  ids.call = (await api.placeOutboundCall({ assistantId: a.id, phoneNumberId: ids.number, customer: { number: '+14155550123', name: HOSTILE } })).record!.id;
});
after(async () => {
  await api.close();
  home.cleanup();
});

function terminal(color = true): OutputTarget & { text(): string } {
  let text = '';
  return { format: 'table', tty: true, color, write: (t) => void (text += t), text: () => text };
}

test('commands on a terminal: tables, records, sessions show, chat send, numbers link and calls watch print service text escaped', async () => {
  const runs: [string, (out: OutputTarget) => Promise<void>][] = [
    ['assistants list', (o) => listAssistants(api, o)],
    ['assistants get', (o) => showAssistant(api, o, ids.assistant)],
    ['numbers list', (o) => listNumbers(api, o)],
    ['calls list', (o) => listCalls(api, o, {})],
    ['calls get', (o) => showCall(api, o, ids.call)],
    ['files list', (o) => listFiles(api, o, {})],
    ['sessions show', (o) => showSession(api, o, ids.session)],
    ['chat send', async (o) => void (await sendChat(api, o, ids.session, HOSTILE))],
    ['numbers link', (o) => linkNumber({ ...api, linkNumber: async () => ({ message: HOSTILE }) } as VoiceAgentApi, o, ids.number, ids.assistant)],
    [
      'calls watch',
      async (o) => {
        const stop = new AbortController();
        const watching = watchCalls(api, o, { interval: 0.05 }, stop.signal);
        await new Promise((r) => setTimeout(r, 150));
        await api.placeOutboundCall({ assistantId: ids.assistant, phoneNumberId: ids.number, customer: { number: '+14155550124', name: HOSTILE } });
        await new Promise((r) => setTimeout(r, 400));
        stop.abort();
        await watching;
      },
    ],
  ];
  for (const [name, run] of runs) {
    const out = terminal();
    await run(out);
    if (!/^(numbers|calls|files) list$/.test(name)) assert.match(out.text(), /Evil/, `${name} shows the text`);
    assert.deepEqual(rawIn(out.text()), [], `${name} printed raw control text: ${JSON.stringify(out.text())}`);
  }
});

test('the built binary: pipe output and -o json; json stays exact JSON with C1 as \\u escapes', async () => {
  for (const args of [
    ['assistants', 'list'],
    ['assistants', 'get', ids.assistant],
    ['calls', 'list'],
    ['calls', 'get', ids.call],
    ['sessions', 'show', ids.session],
    ['chat', 'send', '--session', ids.session, HOSTILE],
    ['assistants', 'list', '-o', 'csv'],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    if (args.join(' ') !== 'calls list') assert.match(r.stdout, /Evil/, `${args.join(' ')} shows the text`);
    assert.deepEqual(rawIn(r.stdout + r.stderr), [], `${args.join(' ')} printed raw control text: ${JSON.stringify(r.stdout)}`);
  }
  // -o json: exact JSON (the value parses back unchanged) with DEL and C1 written as \u escapes.
  for (const args of [
    ['assistants', 'get', ids.assistant],
    ['assistants', 'list'],
    ['sessions', 'show', ids.session],
    ['calls', 'get', ids.call],
  ]) {
    const r = await runCli([...args, '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(rawIn(r.stdout), [], `${args.join(' ')} -o json printed raw control text`);
    assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes(JSON.stringify(HOSTILE).slice(1, -1)), `${args.join(' ')} -o json keeps the exact value`);
  }
});

test('error lines: a service error message carrying control text is printed escaped on one line', async () => {
  const server: Server = createServer((_req, res) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message: HOSTILE }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const args of [
      ['assistants', 'list'],
      ['numbers', 'link', 'pn_1', '--assistant', 'a_1'],
      ['chat', 'send', '--session', 's_1', 'hi'],
    ]) {
      const r = await runCli(args, { env: { ...home.env, SWITCHBOARD_BASE_URL: url, SWITCHBOARD_API_KEY: 'sk-untrusted-test-0000' } });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Evil/, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(rawIn(r.stderr), [], `${args.join(' ')} printed raw control text: ${JSON.stringify(r.stderr)}`);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one error line: ${JSON.stringify(r.stderr)}`);
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('usage errors quote the argument escaped: an OSC 52 pasted into a flag does not reach the terminal', async () => {
  const r = await runCli(['calls', 'list', '--limit', `5${HOSTILE}`], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /switchboard: .*5Evil/);
  assert.deepEqual(rawIn(r.stderr), [], `raw control text in ${JSON.stringify(r.stderr)}`);
});

test('the debug log people are told to read holds flash, request and crash text escaped', () => {
  const own = tempHome();
  try {
    const write = debugLogWriter(own.env);
    const path = write(`error: ${HOSTILE}`);
    assert.ok(path);
    writeCrashLog(new Error(HOSTILE), 'test', own.env);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /Evil/);
    assert.deepEqual(rawIn(text), [], `raw control text in the debug log: ${JSON.stringify(text)}`);
    assert.deepEqual(rawIn(crashLine(new Error(HOSTILE), path, own.env)), []);
  } finally {
    own.cleanup();
  }
});

test('calls export: csv and ndjson hold no raw control text, and ndjson still parses to the service record', async () => {
  // The call's customer name is the hostile text; the call ends within a second at this pace.
  for (const format of ['csv', 'ndjson']) {
    const r = await runCli(['calls', 'export', '--format', format], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Evil/, `${format} export holds the call`);
    assert.deepEqual(rawIn(r.stdout), [], `${format} export printed raw control text: ${JSON.stringify(r.stdout.slice(0, 400))}`);
    if (format === 'ndjson') {
      const mine = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; customer?: { name?: string } })
        .find((c) => c.id === ids.call);
      assert.equal(mine?.customer?.name, HOSTILE, 'the exported record keeps the exact value');
    }
  }
});
