// A scenario's `matches` pattern cannot hold a run: a catastrophic pattern fails its expectation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTurn } from '../../src/scenarios/run.js';
import { matchWithin } from '../../src/scenarios/pattern.js';

test('a pattern that backtracks without end fails its expectation with a clear message, and the check returns', { timeout: 10 * 60_000 }, () => {
  const failures = checkTurn({ matches: '(a+)+$' }, { reply: `${'a'.repeat(40)}!`, latencyMs: 1 });
  assert.equal(failures.length, 1);
  assert.match(failures[0], /^matches \/\(a\+\)\+\$\/i \(gave up after \d+ ms: the pattern backtracks too much/);
});

test('ordinary patterns still match and fail as before, case-insensitively', () => {
  assert.deepEqual(checkTurn({ matches: 'zephyr costs \\d+' }, { reply: 'The Zephyr costs 42 dollars.', latencyMs: 1 }), []);
  assert.deepEqual(checkTurn({ matches: '^refund' }, { reply: 'No refunds.', latencyMs: 1 }), ['matches /^refund/i']);
  assert.equal(matchWithin('a.c', 'ABC'), true);
  assert.equal(matchWithin('(x+x+)+y', 'x'.repeat(50), 50), 'timeout');
});
