// Counts are written as en-US writes them, without Intl (src/format/words.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { count, grouped } from '../../src/format/words.js';

test('grouped writes a number as toLocaleString("en-US") does', () => {
  for (const n of [
    0,
    1,
    -1,
    999,
    1000,
    -1000,
    12345,
    999999,
    1000000,
    1000300,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1.5,
    -0.25,
    1e21,
    NaN,
    Infinity,
  ]) {
    assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  }
  fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => grouped(n) === n.toLocaleString('en-US')));
});

test('count says one and many', () => {
  assert.equal(count(1, 'call'), '1 call');
  assert.equal(count(0, 'call'), '0 calls');
  assert.equal(count(1000300, 'call'), '1,000,300 calls');
  assert.equal(count(2, 'entry', 'entries'), '2 entries');
});
