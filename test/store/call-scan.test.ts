// The call log's `/` scan on its own (src/store/call-scan.ts): when what it found is drawn (at the
// end, while the screen lacks rows, every thousand matches in the archive's order, by time and
// growth in a sorted one), that a stopped scan runs no more slices, and a walk of a real archive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type CallOrder } from '../../src/archive/index.js';
import { CallScan, sortsFound, type ScanRun } from '../../src/store/call-scan.js';

/** A walk that finds `per` matches a slice for `slices` slices. */
function walk(per: number, slices: number) {
  let taken = 0;
  let each = per;
  const orders: (CallOrder | undefined)[] = [];
  let found = 0;
  const run: ScanRun = {
    done: false,
    get count() {
      return found;
    },
    step() {
      taken++;
      found += each;
      if (taken >= slices) run.done = true;
      return run.done;
    },
    reorder: (order) => void orders.push(order),
    positions: () => [],
    indexOf: () => undefined,
  };
  return { run, orders, taken: () => taken, per: (n: number) => (each = n) };
}

const full = (total: number) => ({ rows: 60, total, window: 60 });

test('sortsFound: only newest first finds matches in the order shown', () => {
  assert.equal(sortsFound(undefined), false);
  assert.equal(sortsFound({ by: 'created', desc: true }), false);
  assert.equal(sortsFound({ by: 'created', desc: false }), true);
  assert.equal(sortsFound({ by: 'cost', desc: true }), true);
});

test("in the archive's order a full screen is drawn again every thousand matches, and at the end", () => {
  const { run } = walk(300, 5);
  const scan = new CallScan('x', run, undefined);
  assert.deepEqual(scan.step(full(0), 1), { done: false, draw: false }, '300 found, the screen full');
  assert.deepEqual(scan.step(full(0), 2), { done: false, draw: false });
  assert.deepEqual(scan.step(full(0), 3), { done: false, draw: false });
  assert.deepEqual(scan.step(full(0), 4), { done: false, draw: true }, '1,200 found, 0 shown');
  assert.deepEqual(scan.step(full(1200), 5), { done: true, draw: true }, 'the end is drawn');
  assert.equal(scan.count, 1500);
  assert.equal(scan.done, true);
});

test('a screen short of rows is drawn as soon as a slice finds more', () => {
  const { run } = walk(5, 3);
  const scan = new CallScan('x', run, undefined);
  assert.equal(scan.step({ rows: 0, total: 0, window: 60 }, 1).draw, true);
  assert.equal(scan.step({ rows: 5, total: 5, window: 60 }, 2).draw, true);
  const none = walk(0, 3);
  const idle = new CallScan('x', none.run, undefined);
  assert.equal(idle.step({ rows: 0, total: 0, window: 60 }, 1).draw, false, 'a slice that found nothing draws nothing');
});

test('in a sorted order matches are drawn again after a tenth of a second with a quarter more, or after a second', () => {
  const { run, orders, per } = walk(100, 100);
  const scan = new CallScan('x', run, { by: 'cost', desc: true });
  assert.equal(scan.step(full(0), 50).draw, false, '100 found, not yet a tenth of a second');
  assert.equal(scan.step(full(0), 100).draw, true, '200 found over 0 shown, at a tenth');
  assert.equal(scan.step(full(200), 250).draw, true, '300 over 200 shown: more than a quarter more');
  assert.equal(scan.step(full(300), 300).draw, false, 'a twentieth of a second since the last draw');
  per(10);
  assert.equal(scan.step(full(400), 500).draw, false, '410 over 400: not a quarter more');
  assert.equal(scan.step(full(400), 1100).draw, false, 'not yet a second');
  assert.equal(scan.step(full(400), 1300).draw, true, 'a second since the last draw');
  per(0);
  assert.equal(scan.step(full(run.count), 3000).draw, false, 'nothing found past what is shown');
  scan.reorder(undefined);
  assert.deepEqual(orders, [undefined], 'the walk is told');
  assert.equal(scan.step(full(400), 9000).draw, false, "newest first: the archive's order draws by count, not time");
});

test('a stopped scan runs no more slices', async () => {
  const { run } = walk(1, 10);
  const scan = new CallScan('x', run, undefined);
  let slices = 0;
  const slice = () => {
    slices++;
    scan.step(full(0));
    if (!scan.done) scan.next(slice);
  };
  scan.next(slice);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.ok(slices >= 1 && slices < 10, `${slices} slices`);
  scan.stop();
  const at = slices;
  for (let i = 0; i < 12; i++) await new Promise((r) => setImmediate(r));
  assert.equal(slices, at, 'none after stop()');
  scan.next(slice);
  await new Promise((r) => setImmediate(r));
  assert.equal(slices, at, 'nor when asked again');

  const whole = walk(1, 10);
  const on = new CallScan('x', whole.run, undefined);
  const go = () => {
    on.step(full(0));
    if (!on.done) on.next(go);
  };
  on.next(go);
  for (let i = 0; i < 15; i++) await new Promise((r) => setImmediate(r));
  assert.equal(whole.taken(), 10, 'left alone, a scan walks to the end');
});

test('a scan of a real archive finds every match, a slice at a time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-scan-'));
  const archive = openArchive(join(dir, 'calls.db'), { service: 'test' });
  try {
    const calls = Array.from(
      { length: 9000 },
      (_, i) =>
        ({
          id: `c${i}`,
          createdAt: new Date(1_700_000_000_000 - i * 1000).toISOString(),
          status: 'ended',
          customer: { number: '+1415', name: i % 3 ? 'Ann' : 'Bob' },
        }) as Call,
    );
    archive.put(calls);
    const scan = new CallScan('bob', archive.filterScan({ text: 'bob', assistantIds: [], numberIds: [] }), undefined);
    let draws = 0;
    await new Promise<void>((done) => {
      const slice = () => {
        if (scan.step({ rows: 0, total: 0, window: 60 }).draw) draws++;
        if (scan.done) done();
        else scan.next(slice);
      };
      slice();
    });
    assert.equal(scan.count, 3000);
    assert.ok(draws >= 1);
    assert.deepEqual(
      archive.byPositions(scan.run.positions(0, 3)).map((r) => r.call.id),
      ['c0', 'c3', 'c6'],
    );
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
