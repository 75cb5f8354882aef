// Numbers linked by DID, out-of-range values refused before any request, a list of any size in
// every format, and CSV cells that a spreadsheet would run as formulas.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli } from '../support/cli.js';
import { parseCsv } from './csv.js';

const on = sandboxForCli();

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await runCli(args, { env: on.env, stdin });
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

describe('numbers by DID, values out of range, a very long list, CSV formulas', () => {
  test('numbers link accepts a DID as well as an id', async () => {
    const numbers = JSON.parse(await ok(['numbers', 'list', '-o', 'json'])) as { id: string; did: string; assistantId?: string | null }[];
    const [assistant] = JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as { id: string }[];
    const target = numbers.find((n) => n.did.startsWith('+'))!;
    await ok(['numbers', 'link', target.did, '--assistant', assistant.id]);
    const after = JSON.parse(await ok(['numbers', 'list', '-o', 'json'])) as { id: string; assistantId?: string | null }[];
    assert.equal(after.find((n) => n.id === target.id)?.assistantId, assistant.id);
    const unknown = await runCli(['numbers', 'link', '+19995550100', '--assistant', assistant.id], { env: on.env });
    // No such number: bad input (exit 2), named, with how many numbers there are.
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no phone number "\+19995550100" by id, short id or DID \(\d+ numbers on this service/);
  });

  test('out-of-range values exit 2 before any request', async () => {
    const cases: [string[], RegExp][] = [
      [['calls', 'list', '--after', '100000000d'], /--after .*too far back/],
      [['calls', 'list', '--before', '100000000w'], /--before .*too far back/],
      [['calls', 'list', '--limit', '1000000'], /--limit .*at most 1000/],
      [['files', 'list', '--limit', '1000000'], /--limit .*at most 100\b/],
      [['calls', 'watch', '--interval', '99999999999'], /--interval .*at most/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['--debug', ...args], { env: on.env });
      assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /debug:/, `${args.join(' ')} made a request`);
    }
  });

  test('numbers list prints a 200,000-record answer in every format', async () => {
    const count = 200_000;
    const body = JSON.stringify(
      Array.from({ length: count }, (_, i) => ({
        id: `pn_${i}`,
        did: `+1212${String(i).padStart(7, '0')}`,
        provider: 'twilio',
        status: true,
        assistantId: null,
      })),
    );
    const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const big = { ...on.env, SWITCHBOARD_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      for (const format of ['table', 'csv', 'ids', 'json']) {
        const r = await runCli(['numbers', 'list', '-o', format], { env: big });
        assert.equal(r.code, 0, `-o ${format}: ${r.stderr}`);
        if (format === 'ids') assert.equal(r.stdout.split('\n').filter(Boolean).length, count);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test('csv written to a pipe neutralises cells a spreadsheet would run as formulas', async () => {
    const names = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-2+3', '@SUM(A1)', 'plain'];
    for (const name of names) await ok(['assistants', 'create', '--file', '-', '-o', 'ids'], JSON.stringify({ name }));
    const rows = parseCsv(await ok(['assistants', 'list', '-o', 'csv']));
    const col = rows[0].indexOf('name');
    const shown = rows.slice(1).map((r) => r[col]);
    for (const name of names.slice(0, 4)) assert.ok(shown.includes(`'${name}`), `${name} is prefixed: ${shown.join(' | ')}`);
    assert.ok(shown.includes('plain'));
    assert.ok(!shown.some((s) => /^[=+\-@]/.test(s)), 'no cell starts a formula');
    // JSON stays the data as the service has it.
    const json = JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as { name: string }[];
    assert.ok(json.some((a) => a.name === names[0]));
  });
});
