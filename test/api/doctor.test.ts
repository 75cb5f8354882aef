// switchboard doctor's probes (src/api/doctor.ts) against our sandbox and against the hosted-service
// fixture in its variants: what each finds, what it would remember, and that it only ever reads.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { namedLimit, runDoctor, type DoctorCheck, type DoctorReport } from '../../src/api/doctor.js';
import { startHostedFixture, type FixtureVariant, type HostedFixture } from '../support/hosted-fixture.js';
import { sandboxForFile } from '../support/sandbox.js';

function check(report: DoctorReport, name: string): DoctorCheck {
  const found = report.checks.find((c) => c.check === name);
  assert.ok(found, `a "${name}" check in ${report.checks.map((c) => c.check).join(', ')}`);
  return found;
}

async function withFixture(variant: Partial<FixtureVariant>, fn: (f: HostedFixture, report: DoctorReport) => void | Promise<void>): Promise<void> {
  const f = await startHostedFixture(variant);
  try {
    const report = await runDoctor({ baseUrl: f.url, apiKey: f.apiKey, retries: 0 });
    // Read-only: GETs, and the one HEAD for the clock; never a write.
    assert.deepEqual(new Set(f.requests.map((r) => r.method)), new Set(['GET', 'HEAD']));
    await fn(f, report);
  } finally {
    await f.close();
  }
}

describe('doctor against the sandbox', () => {
  const sb = sandboxForFile();
  let report: DoctorReport;
  before(async () => {
    report = await runDoctor({ baseUrl: sb.url, apiKey: sb.apiKey });
  });

  test("every check passes: the key, the spec's envelopes, inclusive createdAtGt/Lt, no cap below the whole log", () => {
    assert.equal(report.failed, undefined, JSON.stringify(report.checks, null, 2));
    assert.equal(check(report, 'key').status, 'ok');
    assert.equal(check(report, 'envelope GET /calls').facts.envelope, '{calls}');
    assert.equal(check(report, 'envelope GET /phone-numbers').facts.envelope, '{phoneNumbers}');
    assert.equal(check(report, 'envelope GET /files').facts.envelope, '{files}');
    for (const c of report.checks.filter((k) => k.check.startsWith('envelope '))) assert.equal(c.status, 'ok', c.check);
    const filters = check(report, 'date filters');
    assert.equal(filters.status, 'ok');
    assert.deepEqual([filters.facts.after, filters.facts.before, filters.facts.inclusive], ['createdAtGt', 'createdAtLt', true]);
    const cap = check(report, 'calls page cap');
    assert.equal(cap.status, 'ok');
    assert.equal(cap.facts.cap, null);
    assert.deepEqual(report.learned?.callDateFilter, { after: 'createdAtGt', before: 'createdAtLt', inclusive: true });
    assert.equal(report.learned?.callPageCap, undefined);
  });

  test('the call fields are found, and the clock is in step', () => {
    for (const name of ['transcript', 'summary', 'duration', 'cost']) assert.notEqual(check(report, name).status, 'warning', name);
    assert.equal(check(report, 'clock').status, 'ok');
  });

  test('a refused key fails the key check and probes nothing else', async () => {
    const r = await runDoctor({ baseUrl: sb.url, apiKey: 'sk-wrong-key-0000' });
    assert.equal(r.failed, 'auth');
    assert.deepEqual(
      r.checks.map((c) => [c.check, c.status]),
      [['key', 'failed']],
    );
    assert.match(r.checks[0].finding, /refused: GET \/assistants answered 401/);
    assert.equal(r.learned, undefined);
  });
});

describe('doctor against the hosted-service fixture', () => {
  test('as documented (Vapi bounds): bare assistants, {calls}, strict createdAtGt/Lt beside inclusive Ge/Le, Vapi call fields', () =>
    withFixture({}, (_f, report) => {
      assert.equal(report.failed, undefined);
      assert.equal(check(report, 'envelope GET /assistants').facts.envelope, 'bare');
      assert.equal(check(report, 'envelope GET /assistants').status, 'adapted');
      assert.equal(check(report, 'envelope GET /calls').facts.envelope, '{calls}');
      const filters = check(report, 'date filters');
      assert.equal(filters.status, 'adapted');
      const tried = filters.facts.tried as { name: string; result: string; inclusive?: boolean }[];
      assert.deepEqual(
        tried.map((t) => [t.name, t.result, t.inclusive]),
        [
          ['createdAtGt', 'honoured', false],
          ['createdAtLt', 'honoured', false],
          ['createdAtGe', 'honoured', true],
          ['createdAtLe', 'honoured', true],
        ],
      );
      // An inclusive pair needs no overlap at a page boundary: that one is kept.
      assert.deepEqual(report.learned?.callDateFilter, { after: 'createdAtGe', before: 'createdAtLe', inclusive: true });
      assert.match(filters.finding, /createdAtGt, createdAtLt strict/);
      assert.deepEqual(check(report, 'transcript').facts.forms, ['transcript', 'messages[].message']);
      assert.deepEqual(check(report, 'summary').facts.forms, ['analysis.summary']);
      assert.equal(check(report, 'summary').status, 'ok');
      assert.deepEqual(check(report, 'duration').facts.forms, ['startedAt/endedAt']);
      assert.deepEqual(check(report, 'cost').facts.forms, ['cost', 'costBreakdown.total']);
      assert.match(check(report, 'calls page cap').finding, /not enough calls to tell/);
      assert.equal(report.learned?.envelopes?.['GET /assistants'], 'bare');
    }));

  test('bare lists and records, a silent cap of 100: the cap is found past the page and kept', () =>
    withFixture({ list: 'bare', single: 'bare', pageCap: 'silent', pageCapSize: 100, calls: 250, dateFilters: 'inclusive' }, (_f, report) => {
      assert.equal(report.failed, undefined);
      for (const endpoint of [
        'GET /assistants',
        'GET /assistants/{id}',
        'GET /phone-numbers',
        'GET /calls',
        'GET /calls/details',
        'GET /files',
        'GET /files/{id}',
      ]) {
        assert.equal(report.learned?.envelopes?.[endpoint], 'bare', endpoint);
      }
      const cap = check(report, 'calls page cap');
      assert.equal(cap.status, 'adapted');
      assert.deepEqual([cap.facts.cap, cap.facts.how], [100, 'silent']);
      assert.equal(report.learned?.callPageCap, 100);
      assert.equal(check(report, 'date filters').status, 'ok');
    }));

  test('a refused limit: the limit the 400 names is asked again, and kept', () =>
    withFixture({ list: 'data', single: 'messageData', pageCap: 'refuse', pageCapSize: 50, calls: 120 }, (f, report) => {
      assert.equal(report.failed, undefined);
      const cap = check(report, 'calls page cap');
      assert.equal(cap.status, 'adapted');
      assert.deepEqual([cap.facts.cap, cap.facts.how], [50, 'refused']);
      assert.match(cap.finding, /limit must not be greater than 50/);
      assert.equal(report.learned?.callPageCap, 50);
      assert.ok(f.requestsTo('/calls').some((r) => r.query.limit === '50'));
      assert.equal(report.learned?.envelopes?.['GET /calls'], '{data}');
      assert.equal(report.learned?.envelopes?.['GET /assistants/{id}'], '{message,data}');
    }));

  test('renamed filters: createdAfter/createdBefore are found and kept, the createdAt* names seen ignored', () =>
    withFixture({ list: 'items', dateFilters: 'renamed' }, (_f, report) => {
      const filters = check(report, 'date filters');
      assert.equal(filters.status, 'adapted');
      assert.deepEqual(report.learned?.callDateFilter, { after: 'createdAfter', before: 'createdBefore', inclusive: true });
      assert.match(filters.finding, /createdAtGt, createdAtLt, createdAtGe, createdAtLe ignored/);
      assert.equal(report.learned?.envelopes?.['GET /calls'], '{items}');
    }));

  test('ignored filters: none is kept (the client filters), and a silent cap is still told through assistantId', () =>
    withFixture({ list: 'results', dateFilters: 'ignored', pageCap: 'silent', pageCapSize: 100, calls: 250 }, (_f, report) => {
      const filters = check(report, 'date filters');
      assert.equal(filters.status, 'warning');
      assert.equal(report.learned?.callDateFilter, 'none');
      assert.equal(report.learned?.callPageCap, 100);
      assert.equal(report.failed, undefined);
    }));

  test('too few calls to tell: the filters and cap say so, and nothing is kept for them', () =>
    withFixture({ calls: 2 }, (_f, report) => {
      assert.match(check(report, 'date filters').finding, /not enough calls to tell/);
      assert.match(check(report, 'calls page cap').finding, /not enough calls to tell/);
      assert.equal('callDateFilter' in (report.learned ?? {}), false);
      assert.equal('callPageCap' in (report.learned ?? {}), false);
    }));

  test('a refused key: failed, nothing else asked', async () => {
    const f = await startHostedFixture();
    try {
      const r = await runDoctor({ baseUrl: f.url, apiKey: 'hq_wrong' });
      assert.equal(r.failed, 'auth');
      assert.equal(r.checks.length, 1);
      assert.match(r.checks[0].finding, /Invalid or missing API key/);
      assert.deepEqual(
        f.requests.filter((q) => q.method === 'GET').map((q) => q.path),
        ['/assistants'],
      );
    } finally {
      await f.close();
    }
  });

  test("a failing endpoint fails its check (with the service's words) and the others still run", () =>
    withFixture({}, async (f) => {
      f.faults.push({ method: 'GET', path: '/phone-numbers', status: 500, message: 'numbers are down' });
      const r = await runDoctor({ baseUrl: f.url, apiKey: f.apiKey, retries: 0 });
      assert.equal(r.failed, 'check');
      const numbers = check(r, 'envelope GET /phone-numbers');
      assert.equal(numbers.status, 'failed');
      assert.match(numbers.finding, /numbers are down/);
      assert.equal(check(r, 'envelope GET /calls').status, 'ok');
    }));

  test('the clock: a Date header minutes off, and calls dated in the future, are warnings', () =>
    withFixture({ newest: new Date(Date.now() + 3_600_000).toISOString() }, async (f) => {
      const r = await runDoctor({ baseUrl: f.url, apiKey: f.apiKey, now: () => Date.now() - 600_000 });
      const clock = check(r, 'clock');
      assert.equal(clock.status, 'warning');
      assert.match(clock.finding, /the service's clock is 10 min ahead of this machine's/);
      assert.match(clock.finding, /the newest call is dated .* in the future/);
      assert.equal(r.failed, undefined);
    }));
});

test('nothing answering: the key is not checked and the report says the service is unreachable', async () => {
  const port = await new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
  const r = await runDoctor({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k-123456', retries: 0 });
  assert.equal(r.failed, 'unreachable');
  assert.equal(r.checks[0].status, 'failed');
  assert.match(r.checks[0].finding, /did not answer/);
});

test('namedLimit reads the largest limit a refusal names, below what was asked', () => {
  assert.equal(namedLimit('limit must not be greater than 100', 1000), 100);
  assert.equal(namedLimit('limit must be a whole number from 1 to 1000', 5000), 1000);
  assert.equal(namedLimit('limit must be a whole number from 1 to 1000', 1000), undefined);
  assert.equal(namedLimit('bad request 123', 1000), undefined);
});

test('a service that is not the Voice Agent Service: its web page fails the envelope checks, saying what came back', async () => {
  const { startServer, json } = await import('./servers.js');
  const server = await startServer((req, res) => {
    if (req.url === '/assistants' && req.method === 'GET') return json(res, 200, []);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Welcome to nginx</body></html>');
  });
  try {
    const r = await runDoctor({ baseUrl: server.url, apiKey: 'k-123456', retries: 0 });
    assert.equal(r.failed, 'check');
    const numbers = check(r, 'envelope GET /phone-numbers');
    assert.equal(numbers.status, 'failed');
    assert.match(numbers.finding, /text\/html/);
    assert.match(numbers.finding, /Welcome to nginx/);
    assert.deepEqual(new Set(server.requests.map((q) => q.method)), new Set(['GET', 'HEAD']));
  } finally {
    await server.close();
  }
});

test('date filters that fail (a 500) are not taken for ignored: nothing is kept about them', () =>
  withFixture({}, async (f) => {
    // The first page is read; every GET /calls after it fails.
    const busy = { method: 'GET', path: '/calls', status: 500, message: 'database busy' };
    const report = await runDoctor({
      baseUrl: f.url,
      apiKey: f.apiKey,
      retries: 0,
      debug: (line) => {
        if (line.startsWith('GET /calls?limit=1000 →')) f.faults.push(busy);
      },
    });
    const filters = check(report, 'date filters');
    assert.equal(filters.status, 'warning');
    assert.match(filters.finding, /cannot tell \(.*failed/);
    assert.equal('callDateFilter' in (report.learned ?? {}), false);
  }));
