// The archive keeps each call's turn latencies (the platform's artifact.performanceMetrics), so
// `calls stats` and the console's Stats screen give the median and 95th percentile of the turn
// latency by day, assistant or number, where the records carry them (and nothing where not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '../../src/api/schemas.js';
import { openArchive, type CallArchive } from '../../src/archive/index.js';
import { vapiCall, vapiToolCall } from '../support/vapi-records.js';

/** A call of `assistant` on `day` whose turns took `turns` ms. */
function timed(id: string, at: string, assistant: string, turns: number[]): Call {
  const c = vapiToolCall(id, at);
  c.assistantId = assistant;
  (c.artifact as { performanceMetrics: Record<string, unknown> }).performanceMetrics = {
    turnLatencies: turns.map((t) => ({ modelLatency: t / 2, turnLatency: t })),
    turnLatencyAverage: turns.reduce((a, b) => a + b, 0) / turns.length,
  };
  return c as unknown as Call;
}

const CALLS: Call[] = [
  timed('a1', '2026-11-20T10:00:00.000Z', 'asst_a', [100, 200, 300, 400]),
  timed('a2', '2026-11-21T10:00:00.000Z', 'asst_a', [500, 600, 700, 800, 900, 1000]),
  timed('b1', '2026-11-21T11:00:00.000Z', 'asst_b', [2000]),
  // The platform's metric as a numeric string counts; a turn without a number is left out.
  {
    ...(timed('b2', '2026-11-21T12:00:00.000Z', 'asst_b', []) as unknown as Record<string, unknown>),
    artifact: { performanceMetrics: { turnLatencies: [{ turnLatency: '3000' }, { turnLatency: 'slow' }, 'x'] } },
  } as unknown as Call,
  // No metrics at all.
  { ...vapiCall('c1', '2026-11-21T13:00:00.000Z', { said: 'hi', summary: '' }), assistantId: 'asst_c' } as unknown as Call,
];

function withArchive(fn: (archive: CallArchive) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-latency-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    archive.put(CALLS);
    fn(archive);
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('stats by assistant, day and number give p50 and p95 of the turn latency where the records carry it', () => {
  withArchive((archive) => {
    const by = archive.stats('assistant');
    const of = (key: string) => by.groups.find((g) => g.key === key);
    assert.deepEqual(of('asst_a')?.latency, { p50: 500, p95: 1000, turns: 10 });
    assert.deepEqual(of('asst_b')?.latency, { p50: 2000, p95: 3000, turns: 2 });
    assert.equal(of('asst_c')?.latency, undefined, 'no metrics: no figures');
    assert.equal(of('asst_c')?.calls, 1);
    assert.deepEqual(by.total.latency, { p50: 600, p95: 3000, turns: 12 });
    const days = archive.stats('day');
    const day = (d: string) => days.groups.find((g) => g.key === d)?.latency;
    // Local days: the test's times are mid-day UTC, the same local day in every zone but the far ones.
    const keys = days.groups.map((g) => g.key);
    assert.equal(keys.length, 2, keys.join(','));
    assert.deepEqual(day(keys[0]!), { p50: 200, p95: 400, turns: 4 });
    assert.deepEqual(day(keys[1]!), { p50: 800, p95: 3000, turns: 8 }, 'nearest rank');
    assert.deepEqual(archive.stats('number').groups.find((g) => g.key === 'pn_1')?.latency, by.total.latency);
    // With the log's filters, too.
    assert.deepEqual(archive.stats('assistant', { assistantId: 'asst_b' }).total.latency, { p50: 2000, p95: 3000, turns: 2 });
  });
});

test('a call replaced without metrics, or removed, no longer counts', () => {
  withArchive((archive) => {
    archive.put([{ ...vapiCall('b1', '2026-11-21T11:00:00.000Z', { said: 'hi', summary: '' }), assistantId: 'asst_b' } as unknown as Call]);
    assert.deepEqual(archive.stats('assistant').groups.find((g) => g.key === 'asst_b')?.latency, { p50: 3000, p95: 3000, turns: 1 });
    archive.put([timed('b1', '2026-11-21T11:00:05.000Z', 'asst_b', [10])]);
    assert.deepEqual(archive.stats('assistant').groups.find((g) => g.key === 'asst_b')?.latency, { p50: 10, p95: 3000, turns: 2 }, 'moved in time');
    archive.clear();
    assert.equal(archive.stats('assistant').total.latency, undefined);
  });
});
