// Keys typed before a screen has its first data wait for it and then apply in order, on every
// screen (not only the call log): the service here answers through a real proxy that holds each
// response back, so the keys surely arrive first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole, startTestSandbox } from './support.js';
import { tick } from '../support/ink.js';
import { seedCalls } from '../../src/sandbox/seed.js';
import { sandboxForFile, withLatency, type SlowService } from '../support/sandbox.js';
/** More rows than the first screen (and the first window of rows the store holds) shows. */
const CALLS_PAGE_SIZE = 50;

const sb = sandboxForFile();
let slow: SlowService;
let slowUrl: string;
const DELAY_MS = 400;

before(async () => {
  await sb.started;
  slow = await withLatency(sb.url, DELAY_MS);
  slowUrl = slow.url;
});
after(() => slow.close());

test('j j Enter typed before the assistants arrive open the third assistant', async () => {
  const c = await openConsole({ ...sb, url: slowUrl });
  try {
    assert.equal(c.store.getState().assistants.data, undefined, 'typed before the list is in');
    for (const k of ['j', 'j', '\r']) {
      c.stdin.write(k);
      await tick();
    }
    await c.waitFor('System prompt');
    const third = c.store.getState().assistants.data![2];
    assert.deepEqual(c.store.getState().stack.at(-1), { name: 'assistant', id: third.id });
  } finally {
    await c.close();
  }
});

test('2 then j typed ahead land on the second number; 5 j on the second file', async () => {
  const c = await openConsole({ ...sb, url: slowUrl });
  try {
    for (const k of ['2', 'j']) {
      c.stdin.write(k);
      await tick();
    }
    await c.waitFor('DID');
    await c.waitFor(/\+\d{6}/);
    await tick();
    assert.equal(c.store.getState().stack.at(-1)!.name, 'numbers');
    assert.equal(c.store.getState().views['numbers']?.cursor, 1);
    for (const k of ['5', 'j']) {
      c.stdin.write(k);
      await tick();
    }
    assert.equal(c.store.getState().files.data, undefined, 'typed before the files are in');
    await c.waitFor(/\.txt|\.md|\.pdf/);
    await tick();
    assert.equal(c.store.getState().views['files']?.cursor, 1);
  } finally {
    await c.close();
  }
});

test('on the call log, / inbound ⏎ j ⏎ in one write opens the second inbound call (the list is filtered before j moves)', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor('calls/day');
    await c.waitFor(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    const inbound = c.store.getState().callLog.calls.filter((x) => x.type === 'inboundPhoneCall');
    assert.ok(inbound.length >= 2, 'the sandbox has inbound calls');
    c.stdin.write('/inbound\rj\r');
    await tick();
    await c.waitFor(`call ${inbound[1].id}`);
    assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: inbound[1].id });
  } finally {
    await c.close();
  }
});

test('50 j in one write on the call log go 50 rows down: the keys past the first page wait for the next one', async () => {
  const big = await startTestSandbox();
  seedCalls(big.dataDir, 300);
  const c = await openConsole(big, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    await tick();
    c.stdin.write('j'.repeat(CALLS_PAGE_SIZE + 10));
    await tick();
    for (let i = 0; i < 500 && (c.store.getState().views['calls']?.cursor ?? 0) < CALLS_PAGE_SIZE + 10; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(c.store.getState().views['calls']?.cursor, CALLS_PAGE_SIZE + 10);
    assert.ok(c.store.getState().callLog.total > CALLS_PAGE_SIZE + 10);
  } finally {
    await c.close();
    await big.close();
  }
});

test('typing into the call log filter shows the text at once and the filtered list right after', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
  try {
    await c.waitFor(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    const total = c.store.getState().callLog.total;
    await c.press('/');
    await c.type('inbound');
    await c.waitFor(/^\/inbound/m);
    // The filter walks the whole archive in slices; the count settles when the walk ends.
    for (let i = 0; i < 500 && c.store.getState().callLog.filtering; i++) await new Promise((r) => setTimeout(r, 10));
    const inbound = c.store.getState().callLog.total;
    assert.ok(inbound > 0 && inbound < total, `${inbound} of ${total} calls are inbound`);
    await c.waitFor(new RegExp(`\\b${inbound.toLocaleString('en-US')} calls`));
    assert.match(c.frame(), /^\/inbound/m);
  } finally {
    await c.close();
  }
});

test('a service that never answers keeps no key for long: 2 goes to Numbers after a few seconds, q quits at once', async () => {
  const { startFaultyServer } = await import('../support/faulty-server.js');
  const hung = await startFaultyServer({ mode: 'slow' });
  const c = await openConsole({ ...sb, url: hung.url });
  try {
    c.stdin.write('2');
    await tick();
    for (let i = 0; i < 800 && c.store.getState().stack.at(-1)!.name !== 'numbers'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(c.store.getState().stack.at(-1)!.name, 'numbers', 'the held 2 went on once the wait ran out');
    c.stdin.write('q');
    await tick();
    assert.equal(c.store.getState().quitting, true);
  } finally {
    await c.close();
    await hung.close();
  }
});
