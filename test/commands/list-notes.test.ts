// A list cut at its limit says so on stderr, and only there: what was shown and how to get the
// rest (calls list, calls search, files list alike), so a pipe's records stay whole. Built binary,
// a real sandbox and the hosted-service fixture (a silent page cap).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, tempHome } from '../support/cli.js';
import { startHostedFixture } from '../support/hosted-fixture.js';

const on = sandboxForCli();
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('a list cut at its limit says so on stderr', () => {
  test('calls list: the newest 100 of the log, then how to get more; nothing said when all were shown', async () => {
    const all = await runCli(['calls', 'list', '--all', '-o', 'ids'], { env: on.env });
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stderr, '');
    const total = lines(all.stdout).length;
    assert.ok(total > 100, `the seed has more than a page: ${total}`);
    for (const format of ['table', 'json', 'csv', 'ids']) {
      const r = await runCli(['calls', 'list', '-o', format], { env: on.env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, 'more calls: showed the newest 100; --all for every one, or --limit up to 1,000\n', `-o ${format}`);
      if (format === 'ids') assert.deepEqual(lines(r.stdout), lines(all.stdout).slice(0, 100));
      if (format === 'json') assert.equal((JSON.parse(r.stdout) as unknown[]).length, 100);
    }
    const exact = await runCli(['calls', 'list', '--limit', String(total), '-o', 'ids'], { env: on.env });
    assert.equal(lines(exact.stdout).length, total);
    assert.equal(exact.stderr, '', 'every call shown: nothing to add');
    const oneShort = await runCli(['calls', 'list', '--limit', String(total - 1), '-o', 'ids'], { env: on.env });
    assert.equal(oneShort.stderr, `more calls: showed the newest ${total - 1}; --all for every one, or --limit up to 1,000\n`);
  });

  test('calls search: how many of how many matched, and the --limit that shows them all', async () => {
    // --complete: the whole history first, so the count is of every call (without it, new calls only, and a note).
    // "help": in the seeded assistants' first messages ("How can I help?"), so well over a page of
    // matches whatever the seed's conversations drew ("refund" matched 17 to 32 of them from one
    // sandbox to the next, and the test needs more than 20).
    const every = await runCli(['calls', 'search', 'help', '--limit', '100000', '-o', 'ids', '--complete'], { env: on.env });
    assert.equal(every.code, 0, every.stderr);
    assert.equal(every.stderr, '');
    const total = lines(every.stdout).length;
    assert.ok(total > 20, `more than the default 20 match: ${total}`);
    const r = await runCli(['calls', 'search', 'help', '-o', 'ids'], { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lines(r.stdout).length, 20);
    assert.equal(r.stderr, `more calls match: showed 20 of ${total}; --limit ${total} for every one\n`);
    const whole = await runCli(['calls', 'search', 'help', '--limit', String(total), '-o', 'ids', '--offline'], { env: on.env });
    assert.equal(whole.stderr, '');
    assert.equal(lines(whole.stdout).length, total);
  });

  test('calls list on a service that caps its pages without a word: more calls are still noticed', async () => {
    const fx = await startHostedFixture({ calls: 250, pageCap: 'silent' });
    const home = tempHome();
    try {
      const env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
      const r = await runCli(['calls', 'list', '-o', 'ids'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(lines(r.stdout).length, 100);
      assert.match(r.stderr, /^more calls: showed the newest 100; --all for every one/m);
      const small = await startHostedFixture({ calls: 40 });
      try {
        const few = await runCli(['calls', 'list', '-o', 'ids'], { env: { ...env, SWITCHBOARD_BASE_URL: small.url, SWITCHBOARD_API_KEY: small.apiKey } });
        assert.equal(lines(few.stdout).length, 40);
        assert.equal(few.stderr, '');
      } finally {
        await small.close();
      }
    } finally {
      await fx.close();
      home.cleanup();
    }
  });
});
