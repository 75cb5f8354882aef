// The console on a service that sends calls in the hosted platform's shape (Vapi's: words in
// messages[].message, roles bot/user, no durationSeconds, analysis.summary): the call's page
// shows its transcript, duration, cost and summary, and its raw JSON is the record as sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { VAPI_CALL } from '../support/vapi-records.js';
import { openConsole, type Sandbox } from './support.js';

let server: Server;
let service: Sandbox;

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/calls' || url.pathname === '/calls/details') res.end(JSON.stringify(!id || id === VAPI_CALL.id ? [VAPI_CALL] : []));
    else if (url.pathname === '/assistants') res.end(JSON.stringify([{ id: 'asst_9', name: 'Night desk' }]));
    else if (url.pathname === '/assistants/asst_9') res.end(JSON.stringify({ id: 'asst_9', name: 'Night desk' }));
    // The platform's number: its service object is `organization`, and it names no assistant.
    else if (url.pathname === '/phone-numbers')
      res.end(JSON.stringify({ phoneNumbers: [{ id: 'pn_1', did: '+14155550123', status: true, organization: { id: 'org_1', name: 'Harbourview' } }] }));
    else if (url.pathname === '/phone-numbers/inbound/setup' && req.method === 'POST')
      res.end(JSON.stringify({ message: 'Inbound agent configured successfully' }));
    else if (url.pathname === '/files') res.end('[]');
    else {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'Not Found' }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  // Only the address and key of the "sandbox" are used by openConsole.
  service = { url: `http://127.0.0.1:${port}`, apiKey: 'sk-records-ui-0000' } as Sandbox;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

test('the call page shows the transcript text, duration, cost and summary of a Vapi-shaped call', async () => {
  const c = await openConsole(service, { initialRoute: { name: 'call', id: VAPI_CALL.id }, target: { kind: 'remote' } });
  try {
    await until(() => c.store.getState().records[`call:${VAPI_CALL.id}`]?.status === 'ready', 'the call record');
    const frame = await c.waitFor('Assistant:');
    assert.match(frame, /Assistant:\s+Hello, Harbourview dental, how can I help\?/);
    assert.match(frame, /duration\s+1m24s/);
    assert.match(frame, /cost\s+\$0\.150/);
    assert.match(frame, /The caller moved a cleaning appointment to Thursday\./);
    await c.press('G');
    const end = await c.waitFor('Caller:');
    assert.match(end, /Caller:\s+I would like to move my appointment to Thursday\./);
    assert.ok(!end.includes('You are the front desk.'), 'the system prompt is not a turn of the dialogue');
    // The record as held is the record as sent.
    assert.deepEqual(c.store.getState().records[`call:${VAPI_CALL.id}`]!.data, VAPI_CALL);
    await c.press(KEYS.escape);
  } finally {
    await c.close();
  }
});

test('a number whose record names no assistant shows the one this profile linked, "(linked here)", in this console and the next', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'switchboard-state-'));
  try {
    const target = { kind: 'remote' as const, profile: 'hosted', stateDir };
    const c = await openConsole(service, { initialRoute: { name: 'numbers' }, target });
    try {
      await c.waitFor('+14155550123');
      assert.ok(await c.store.getState().actions.linkNumber('pn_1', 'asst_9'));
      await c.waitFor(/Night desk \(linked h/); // cut to the column's width
    } finally {
      await c.close();
    }
    assert.match(readFileSync(join(stateDir, 'links.json'), 'utf8'), /"pn_1": "asst_9"/);
    const again = await openConsole(service, { initialRoute: { name: 'assistant', id: 'asst_9' }, target });
    try {
      await again.store.getState().actions.loadNumbers();
      await again.waitFor(/phone numbers\s+\+14155550123 \(linked here\)/);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});
