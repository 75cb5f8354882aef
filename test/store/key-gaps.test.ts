// Background work and keys (src/store/key-gaps.ts): with no key lately, work runs at once; while
// keys come, it waits for the gap just after the next key is drawn (before the next read of the
// terminal), or for the pause once they stop; disposing drops what waits, but a gap() awaited
// resolves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyGaps } from '../../src/store/key-gaps.js';
import { until } from '../support/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const turn = () => new Promise((r) => setImmediate(r));

test('no key lately: the work runs at once, in the caller', () => {
  const gaps = new KeyGaps(150);
  let ran = 0;
  gaps.run(() => ran++);
  assert.equal(ran, 1);
  gaps.dispose();
});

test('while keys come: the work waits for the next key, then runs right after it is drawn, once', async () => {
  const gaps = new KeyGaps(1000);
  const order: string[] = [];
  gaps.keyDrawn();
  gaps.run(() => order.push('work'));
  gaps.run(() => order.push('more'));
  await sleep(20);
  assert.equal(order.length, 0, 'not in front of the next key');
  order.push('key');
  gaps.keyDrawn();
  assert.deepEqual(order, ['key'], 'not inside the key either');
  await turn();
  assert.deepEqual(order, ['key', 'work', 'more'], 'in the gap after it, in order');
  gaps.keyDrawn();
  await turn();
  assert.deepEqual(order, ['key', 'work', 'more'], 'each once');
  gaps.dispose();
});

test('when the keys stop, what waits runs once the pause is long enough', async () => {
  const gaps = new KeyGaps(300);
  let ranAt = 0;
  const keyAt = Date.now();
  gaps.keyDrawn();
  gaps.run(() => (ranAt = Date.now()));
  await sleep(20);
  assert.equal(ranAt, 0, 'keys may still come');
  await until(() => ranAt > 0, 'the work after the pause');
  assert.ok(ranAt - keyAt >= 295, `not before the pause (${ranAt - keyAt} ms)`);
  gaps.dispose();
});

test('a held key: what is asked for between two keys runs in the gap after the next one', async () => {
  // A pause of a second counts as the keys stopping: these keys, 25 ms apart, never make one.
  const gaps = new KeyGaps(1000);
  const ran: number[] = [];
  for (let i = 0; i < 8; i++) {
    gaps.keyDrawn();
    if (i === 2) gaps.run(() => ran.push(i));
    await sleep(25);
    if (i === 2) assert.deepEqual(ran, [], 'queued at the third key');
    if (i === 3) assert.deepEqual(ran, [2], 'ran in the gap after the fourth');
  }
  gaps.dispose();
});

test('disposed: what waits is dropped, a gap() awaited resolves, new work is refused', async () => {
  const gaps = new KeyGaps(150);
  let ran = 0;
  gaps.keyDrawn();
  gaps.run(() => ran++);
  const waited = gaps.gap();
  gaps.dispose();
  await waited;
  gaps.run(() => ran++);
  await sleep(200);
  assert.equal(ran, 0);
  await gaps.gap(); // resolves at once
});
