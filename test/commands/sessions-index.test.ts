// The chat-session index has many writers: commands in parallel, `chat send` counting
// its turns, and `sessions list` reading counts from the service. Built binary, real sandbox.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSessions, SessionIndexWriter } from '../../src/config/sessions.js';
import { sandboxForCli, startTestSandbox } from '../support/sandbox.js';
import { runBinary } from '../support/cli.js';

const on = sandboxForCli();
/** The env profile's index (commands pointed at the sandbox by SWITCHBOARD_BASE_URL). */
const index = () => listSessions('env', join(on.home.env.XDG_DATA_HOME!, 'switchboard'));

async function ok(args: string[]): Promise<string> {
  const r = await runBinary(args, { env: on.env });
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function firstAssistant(): Promise<string> {
  return (JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as { id: string }[])[0].id;
}

describe('the session index with many writers', () => {
  test('20 `sessions create` in parallel, while a console writes its own entries, lose no entry', async () => {
    const assistant = await firstAssistant();
    const before = index().length;
    // A console's writer on the same file, queueing as the commands run.
    const console = new SessionIndexWriter('env', join(on.home.env.XDG_DATA_HOME!, 'switchboard'), { delayMs: 1 });
    const mine = Array.from({ length: 20 }, (_, i) => `console-session-${i}`);
    const queueing = (async () => {
      for (const id of mine) {
        console.queue({ mode: 'remember', session: { id, assistantId: assistant } });
        await new Promise((r) => setTimeout(r, 5));
      }
      await console.flush();
    })();
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runBinary(['sessions', 'create', '--assistant', assistant, '--name', `parallel ${i}`, '-o', 'ids'], { env: on.env }),
      ),
    );
    await queueing;
    // A bookkeeping failure exits 0 with a warning (the session exists): any stderr is a failure here.
    assert.deepEqual(
      runs.filter((r) => r.code !== 0 || r.stderr.trim()).map((r) => r.stderr),
      [],
    );
    const ids = runs.map((r) => r.stdout.trim());
    const remembered = new Set(index().map((s) => s.id));
    assert.deepEqual(
      ids.filter((id) => !remembered.has(id)),
      [],
      'every created session is in the index',
    );
    assert.deepEqual(
      mine.filter((id) => !remembered.has(id)),
      [],
      "every one of the console's entries is in the index",
    );
    assert.equal(remembered.size, before + 40);
  });

  test('turns sent with `chat send` count in the index: messages and total cost', async () => {
    const assistant = await firstAssistant();
    const id = (await ok(['sessions', 'create', '--assistant', assistant, '--name', 'counted', '-o', 'ids'])).trim();
    const start = index().find((s) => s.id === id)!;
    assert.ok(start, 'sessions create remembers the session');
    let cost = 0;
    for (const text of ['When are you open?', 'Do you have parking?']) {
      const chat = JSON.parse(await ok(['chat', 'send', '--session', id, text, '-o', 'json'])) as { cost?: number; output: { role: string }[] };
      cost += chat.cost ?? 0;
    }
    const entry = index().find((s) => s.id === id)!;
    const service = JSON.parse(await ok(['sessions', 'show', id, '-o', 'json'])) as { messages: unknown[] };
    assert.equal(entry.messageCount, service.messages.length, 'the count follows the service');
    assert.ok(cost > 0, 'the sandbox prices each turn');
    assert.equal(entry.totalCost, Math.round(cost * 1e9) / 1e9, 'the total is the sum of the turn costs');
    assert.match(entry.lastMessage ?? '', /\w/);
  });

  test('`sessions list`: the sessions this profile started, with message counts from the service', async () => {
    const assistant = await firstAssistant();
    const id = (await ok(['sessions', 'create', '--assistant', assistant, '--name', 'listed', '-o', 'ids'])).trim();
    // A turn sent past this machine's index (another tool): the count comes from the service.
    const res = await fetch(`${on.sb.url}/chats`, {
      method: 'POST',
      headers: { 'x-api-key': on.sb.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: id, input: 'hello from elsewhere' }),
    });
    assert.equal(res.status, 201);
    const service = JSON.parse(await ok(['sessions', 'show', id, '-o', 'json'])) as { messages: unknown[] };
    const rows = JSON.parse(await ok(['sessions', 'list', '-o', 'json'])) as { id: string; name?: string; messageCount?: number; status?: string }[];
    const row = rows.find((r) => r.id === id);
    assert.ok(row, 'the session is listed');
    assert.equal(row.name, 'listed');
    assert.equal(row.messageCount, service.messages.length);
    assert.ok(service.messages.length > (index().find((s) => s.id === id)?.messageCount ?? 0), 'more than the index knew');
    assert.equal(rows.length, index().length, 'one row per remembered session');
    const ids = (await ok(['sessions', 'list', '-o', 'ids'])).split('\n').filter(Boolean);
    assert.deepEqual(
      ids,
      rows.map((r) => r.id),
    );
    const table = await ok(['sessions', 'list']);
    assert.match(table.split('\n')[0], /^ID\tNAME\tASSISTANT\tSTATUS\tMESSAGES/);
  });

  test('a session made whose bookkeeping then fails exits 0 with a warning: a retrying script makes no second one', async () => {
    const file = join(on.home.env.XDG_DATA_HOME!, 'switchboard', 'sessions', 'env.json');
    const kept = readFileSync(file, 'utf8');
    writeFileSync(file, '{"sessions": [ not json');
    try {
      const assistant = (JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as { id: string }[])[0].id;
      const r = await runBinary(['sessions', 'create', '--assistant', assistant, '-o', 'json'], { env: on.env });
      assert.equal(r.code, 0, r.stderr);
      assert.ok((JSON.parse(r.stdout) as { id?: string }).id, 'the session is printed');
      assert.match(r.stderr, /warning: the session was created, but the local session index was not updated/);
    } finally {
      writeFileSync(file, kept);
    }
  });

  test("a profile pointed at another service lists none of the first service's sessions", async () => {
    const other = await startTestSandbox();
    try {
      const assistant = (JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as { id: string }[])[0].id;
      const made = JSON.parse(await ok(['sessions', 'create', '--assistant', assistant, '--name', 'first service', '-o', 'json'])) as { id: string };
      const here = JSON.parse(await ok(['sessions', 'list', '-o', 'json'])) as { id: string }[];
      assert.ok(
        here.some((s) => s.id === made.id),
        'listed on its own service',
      );
      // The same profile name ('env'), another base URL.
      const elsewhere = await runBinary(['sessions', 'list', '-o', 'json'], {
        env: { ...on.env, SWITCHBOARD_BASE_URL: other.url, SWITCHBOARD_API_KEY: other.apiKey },
      });
      assert.equal(elsewhere.code, 0, elsewhere.stderr);
      assert.ok(!(JSON.parse(elsewhere.stdout) as { id: string }[]).some((s) => s.id === made.id), "the first service's session is not listed for the other");
    } finally {
      await other.close();
    }
  });
});
