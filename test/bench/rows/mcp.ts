// Row 20: `switchboard mcp` as an agent meets it, over stdio through the SDK's client, on the
// 100,000-call sandbox (homeWithManyCalls, served by `switchboard sandbox`): the first search
// (the archive's whole first sync included), then the median and p95 of repeated tool calls —
// assistants_list and calls_list (a round trip to the service each), calls_search and calls_stats
// (the archive, synced first: a sync with nothing new). The baseline is the same list read by the
// same process's HTTP client with no MCP around it: fetch of GET /assistants.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { atMost, fromSummary, type Figure } from '../report.js';
import type { BenchContext } from '../fixtures.js';
import { homeWithManyCalls, startSandbox, BIG_CALLS } from '../sandbox.js';
import { msSince, percentile, summarize } from '../stats.js';

const TARGET_MS = 100;

export async function mcpRows(ctx: BenchContext): Promise<Figure[]> {
  const home = await homeWithManyCalls(ctx);
  const sb = await startSandbox(ctx, home.sandboxDir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ctx.cli, 'mcp'],
    env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey } as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(transport);
    const timed = async (name: string, args: Record<string, unknown>) => {
      const t0 = process.hrtime.bigint();
      // The first search syncs the whole log: its progress keeps the request's timeout from running out.
      const r = await client.callTool({ name, arguments: args }, undefined, { onprogress: () => undefined, resetTimeoutOnProgress: true });
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 200)}`);
      return msSince(t0);
    };
    ctx.log(`row 20: first calls_search (syncs ${BIG_CALLS.toLocaleString('en-US')} calls into the archive)…`);
    const first = await timed('calls_search', { text: 'refund', limit: 20 });
    const runs = ctx.quick ? 10 : 40;
    const sample = async (name: string, args: Record<string, unknown>) => {
      const xs: number[] = [];
      for (let i = 0; i < runs; i++) xs.push(await timed(name, args));
      return xs;
    };
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${sb.url}/assistants`, { headers: { 'x-api-key': sb.apiKey } });
      await res.arrayBuffer();
      bare.push(msSince(t0));
    }
    const rows: [string, string, Record<string, unknown>][] = [
      ['assistants_list', 'mcp: assistants_list', {}],
      ['calls_list', 'mcp: calls_list, 20 calls', { limit: 20 }],
      ['calls_search', `mcp: calls_search over ${BIG_CALLS.toLocaleString('en-US')} archived calls`, { text: 'refund', limit: 20 }],
      ['calls_stats', 'mcp: calls_stats by day', { by: 'day' }],
    ];
    const figures: Figure[] = [
      {
        row: 20,
        name: `mcp: first calls_search, ${BIG_CALLS.toLocaleString('en-US')}-call sync included`,
        unit: 'ms',
        value: first,
        runs: 1,
        note: 'the archive is empty at the start: this is the first sync of the whole log, then the search',
      },
    ];
    for (const [name, title, args] of rows) {
      const xs = await sample(name, args);
      figures.push({
        row: 20,
        name: title,
        unit: 'ms',
        ...fromSummary(summarize(xs)),
        target: atMost(TARGET_MS, 'ms'),
        note: `p95 ${percentile(xs, 95).toFixed(1)} ms; bare GET /assistants in the same run: median ${summarize(bare).median.toFixed(1)} ms`,
      });
    }
    return figures;
  } finally {
    await client.close().catch(() => undefined);
    await sb.stop();
  }
}
