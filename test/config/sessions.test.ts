// The console's memory of chat sessions it started, per profile.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSessions, rememberSession, updateSession } from '../../src/config/sessions.js';
import { ConfigError } from '../../src/config/config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-data-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('remembered sessions are listed most recent first, per profile, in a 0600 file', () => {
  assert.deepEqual(listSessions('sandbox', dir), []);
  rememberSession('sandbox', { id: 's1', name: 'Try prompt', assistantId: 'a1', createdAt: '2026-11-21T10:00:00.000Z' }, dir);
  rememberSession(
    'sandbox',
    { id: 's2', name: null, assistantId: 'a2', createdAt: null, messages: [{ content: 'hello' }, { content: 'Hi! How can I help?' }] },
    dir,
  );
  rememberSession('prod', { id: 'p1', assistantId: 'a9' }, dir);
  const list = listSessions('sandbox', dir);
  assert.deepEqual(
    list.map((s) => s.id),
    ['s2', 's1'],
  );
  assert.equal(list[0].messageCount, 2);
  assert.equal(list[0].lastMessage, 'Hi! How can I help?');
  assert.equal(list[0].name, undefined, 'null from the service is not stored');
  assert.deepEqual(
    listSessions('prod', dir).map((s) => s.id),
    ['p1'],
  );
  assert.equal(statSync(join(dir, 'sessions', 'sandbox.json')).mode & 0o777, 0o600);
});

test('updating a session moves it to the top and keeps what the update does not mention', () => {
  rememberSession('sandbox', { id: 's1', name: 'First', assistantId: 'a1' }, dir);
  rememberSession('sandbox', { id: 's2', name: 'Second', assistantId: 'a1' }, dir);
  const updated = updateSession('sandbox', 's1', { lastMessage: 'x'.repeat(500), messageCount: 7, variableValues: { name: 'Ada' } }, dir);
  assert.ok(updated);
  const [top] = listSessions('sandbox', dir);
  assert.equal(top.id, 's1');
  assert.equal(top.name, 'First');
  assert.equal(top.messageCount, 7);
  assert.equal(top.lastMessage?.length, 200, 'previews are trimmed');
  assert.deepEqual(top.variableValues, { name: 'Ada' });
  assert.equal(updateSession('sandbox', 'unknown', { messageCount: 1 }, dir), undefined);
  rememberSession('sandbox', { id: 's2', name: 'Second again' }, dir);
  assert.deepEqual(
    listSessions('sandbox', dir).map((s) => `${s.id}:${s.name}`),
    ['s2:Second again', 's1:First'],
  );
});

test('a damaged sessions file is a clear error naming it', () => {
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  const path = join(dir, 'sessions', 'sandbox.json');
  writeFileSync(path, 'not json');
  assert.throws(
    () => listSessions('sandbox', dir),
    (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${path} is not valid JSON`),
  );
  writeFileSync(path, '{"sessions": {}}');
  assert.throws(() => rememberSession('sandbox', { id: 's' }, dir), /not a list of chat sessions; delete it/);
});

test("the console's writer: nothing is written on the caller's turn; two writers on one file merge, never losing an entry", async () => {
  const { SessionIndexWriter } = await import('../../src/config/sessions.js');
  const path = join(dir, 'sessions', 'sandbox.json');
  const a = new SessionIndexWriter('sandbox', dir, { delayMs: 1 });
  const b = new SessionIndexWriter('sandbox', dir, { delayMs: 1 });
  a.queue({ mode: 'remember', session: { id: 'a0' } });
  assert.throws(() => statSync(path), 'the queue writes later, off the render path');
  for (let i = 1; i < 30; i++) {
    a.queue({ mode: 'remember', session: { id: `a${i}` } });
    b.queue({ mode: 'remember', session: { id: `b${i}` } });
    if (i % 5 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all([a.flush(), b.flush()]);
  const ids = new Set(listSessions('sandbox', dir).map((s) => s.id));
  assert.equal(ids.size, 30 + 29, 'other processes writing meanwhile: test/commands/sessions-index.test.ts');
  // Counts and totals add to what the file holds when the patch lands.
  rememberSession('sandbox', { id: 'n', messageCount: 1 }, dir);
  a.queue({ mode: 'update', session: { id: 'n' }, addMessages: 2, addCost: 0.1 });
  b.queue({ mode: 'update', session: { id: 'n' }, addMessages: 2, addCost: 0.2 });
  a.queue({ mode: 'update', session: { id: 'not-remembered' }, addMessages: 2 });
  await Promise.all([a.flush(), b.flush()]);
  const n = listSessions('sandbox', dir).find((s) => s.id === 'n')!;
  assert.equal(n.messageCount, 5);
  assert.equal(n.totalCost, 0.3);
  assert.ok(!listSessions('sandbox', dir).some((s) => s.id === 'not-remembered'), 'an update never adds a session');
  // What is still queued when the console exits is written by flushSync.
  a.queue({ mode: 'remember', session: { id: 'last' } });
  a.flushSync();
  assert.equal(listSessions('sandbox', dir)[0].id, 'last');
});

test('a lock left by a process that died is taken over', async () => {
  const { writeFileSync: write } = await import('node:fs');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  write(join(dir, 'sessions', 'sandbox.json.lock'), '999999999');
  rememberSession('sandbox', { id: 'after-crash' }, dir);
  assert.equal(listSessions('sandbox', dir)[0].id, 'after-crash');
});

test('a process that exits with changes queued, or a write under way, still leaves them in the index', async () => {
  const { spawnSync } = await import('node:child_process');
  const module = new URL('../../src/config/sessions.ts', import.meta.url).href;
  const code = `
    const { SessionIndexWriter } = await import(${JSON.stringify(module)});
    const w = new SessionIndexWriter('sandbox', ${JSON.stringify(dir)});
    w.queue({ mode: 'remember', session: { id: 'queued' }, addCost: 0.5 });
    // a write under way: started, not finished, when the process exits
    const underWay = new SessionIndexWriter('sandbox', ${JSON.stringify(dir)}, { delayMs: 0 });
    underWay.queue({ mode: 'remember', session: { id: 'under-way' }, addCost: 0.25 });
    setTimeout(() => { underWay.flush(); setImmediate(() => process.exit(0)); }, 5);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const all = listSessions('sandbox', dir);
  assert.deepEqual(all.map((s) => s.id).sort(), ['queued', 'under-way']);
  assert.equal(all.find((s) => s.id === 'queued')?.totalCost, 0.5);
  assert.equal(all.find((s) => s.id === 'under-way')?.totalCost, 0.25, 'written once, not twice');
  assert.ok(!existsSync(join(dir, 'sessions', 'sandbox.json.lock')), 'no lock left behind');
});
