// Row 8: a chat round trip on the sandbox — send → reply printed — through the command path
// (`switchboard chat send`, process start included), beside the bare HTTP round trip it contains.
import { fromSummary, type Figure } from '../report.js';
import { firstErrorLine, tempHome, type BenchContext } from '../fixtures.js';
import { run } from '../procs.js';
import { sandboxJson, startSandbox } from '../sandbox.js';
import { summarize } from '../stats.js';

const QUESTIONS = ['What are your opening hours?', 'Can I book an appointment for Tuesday?', 'How much does a cleaning cost?', 'Do you take insurance?'];

export async function chatRows(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('chat');
  const sb = await startSandbox(ctx, home.sandboxDir);
  try {
    const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const { assistants } = (await sandboxJson(sb, '/assistants')) as { assistants: Array<{ id: string }> };
    if (!assistants?.length) throw new Error('the sandbox has no assistants to chat with');
    const created = await run(process.execPath, [ctx.cli, 'sessions', 'create', '--assistant', assistants[0].id, '-o', 'ids'], { env });
    const sessionId = created.stdout.trim();
    if (created.code !== 0 || !sessionId) throw new Error(`sessions create failed (${created.code}): ${firstErrorLine(created.stderr || created.stdout)}`);

    const runs = ctx.quick ? 3 : 7;
    const command: number[] = [];
    const http: number[] = [];
    const node: number[] = [];
    for (let i = -1; i < runs; i++) {
      const question = QUESTIONS[(i + QUESTIONS.length) % QUESTIONS.length];
      const n = await run(process.execPath, ['-e', '0'], { env: home.env });
      const c = await run(process.execPath, [ctx.cli, 'chat', 'send', '--session', sessionId, question], { env });
      if (c.code !== 0 || !c.stdout.trim()) throw new Error(`chat send failed (${c.code}): ${firstErrorLine(c.stderr || c.stdout)}`);
      const t0 = performance.now();
      await sandboxJson(sb, '/chats', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId, input: question }),
      });
      const h = performance.now() - t0;
      if (i < 0) continue; // the first round warms the file cache and the sandbox
      node.push(n.ms);
      command.push(c.ms);
      http.push(h);
    }
    const nodeS = summarize(node);
    const cmdS = summarize(command);
    const httpS = summarize(http);
    return [
      {
        row: 8,
        name: 'chat round trip, `switchboard chat send` (command path)',
        unit: 'ms',
        ...fromSummary(cmdS),
        ratio: cmdS.median / nodeS.median,
        note:
          `spawn → reply printed, process start included; bare node ${nodeS.median.toFixed(0)} ms in the same runs; the console chat screen is not measured ` +
          `(no target; command path first)`,
      },
      { row: 8, name: 'chat round trip, POST /chats alone (HTTP)', unit: 'ms', ...fromSummary(httpS) },
    ];
  } finally {
    await sb.stop();
  }
}
