// Rows 2 and 3: the console on a pseudo-terminal, spawn → first screen text, and spawn → the
// Assistants rows on screen (embedded sandbox, existing data dir). The ratio compares like with
// like: bare node printing one line through the same pty path, with the path's own cost (a
// program that prints at once, measured the same way) taken off both sides.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { atMostRatio, fromSummary, type Figure, type Target } from '../report.js';
import { tempHome, type BenchContext, type Home } from '../fixtures.js';
import { COLS, PtySession, ROWS } from '../pty.js';
import { sandboxJson, startSandbox } from '../sandbox.js';
import { summarize, type Summary } from '../stats.js';

const hasText = (t: string) => /\S/.test(t);

/** Opens the console (`args`: e.g. `calls`, to open it on the call log), runs `during`, quits with Ctrl-C; the session is closed either way. */
export async function withConsole<T>(ctx: BenchContext, home: Home, during: (pty: PtySession) => Promise<T>, args: string[] = []): Promise<T> {
  const pty = new PtySession([process.execPath, ctx.cli, ...args], home.env);
  try {
    return await during(pty);
  } finally {
    pty.type('\x03');
    await Promise.race([new Promise((d) => pty.child.once('exit', d)), new Promise((d) => setTimeout(d, 3000))]);
    await pty.close();
  }
}

/** Spawn → first visible text of a program that prints one line at once. */
export async function firstTextOf(argv: string[], home: Home): Promise<number> {
  const pty = new PtySession(argv, home.env);
  try {
    return await pty.waitFor(hasText, 10_000, 0, 'output');
  } finally {
    await pty.close();
  }
}

const INK_HELLO = 'hello from ink';

/**
 * The first screen's rows are held to the floor, not to bare node: Ink, React and yoga cost what
 * they cost before any frame, and what the console adds on top (its sandbox, client, request and
 * screen) is what this judges. The figure's ratio is to the one-<Text> app's first frame, the pty
 * path taken off both sides.
 */
export const WITHIN_INK_FLOOR: Target = atMostRatio(1.5, 'the one-<Text> Ink app');

/** A median's ratio to a baseline's, both measured through the pty, with the pty path's own cost taken off both sides. */
export const ratioOffPath = (s: Summary, base: Summary, path: Summary): number => (s.median - path.median) / (base.median - path.median);

/**
 * The floor under rows 2-3: a minimal Ink app (one <Text>) bundled like the console (the same
 * esbuild settings and Ink patches, src/scripts/esm-bundle.mjs), beside the bench's build so it
 * resolves the same packages.
 */
export async function buildInkHello(ctx: BenchContext): Promise<string> {
  const dir = join(dirname(ctx.cli), '..', 'ink-hello');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'app.mjs');
  const { esmBundleOptions } = (await import(new URL('../../../src/scripts/esm-bundle.mjs', import.meta.url).href)) as { esmBundleOptions: () => BuildOptions };
  writeFileSync(
    entry,
    `import { createElement } from 'react';\nimport { render, Text } from 'ink';\nrender(createElement(Text, null, ${JSON.stringify(INK_HELLO)}));\n`,
  );
  await build({ ...esmBundleOptions(), entryPoints: { hello: entry }, outdir: join(dir, 'out') });
  return join(dir, 'out', 'hello.mjs');
}

/** The seeded assistants' names, read over HTTP from the data dir the console will use. */
async function assistantNames(ctx: BenchContext, home: Home): Promise<string[]> {
  const sb = await startSandbox(ctx, home.sandboxDir);
  try {
    const body = (await sandboxJson(sb, '/assistants')) as { assistants?: Array<{ name?: string }> };
    const names = (body.assistants ?? []).map((a) => a.name ?? '').filter((n) => n.length >= 4);
    if (names.length === 0) throw new Error('the seeded data dir has no named assistants');
    // A narrow column may cut a long name; its start is enough to know the rows are drawn.
    return names.map((n) => n.slice(0, 12));
  } finally {
    await sb.stop();
  }
}

export async function startupRows(ctx: BenchContext): Promise<Figure[]> {
  const home = tempHome('console');
  // The first run creates and seeds the data dir (and warms the file cache); it is not counted.
  ctx.log('rows 2-3: warm-up run (seeds the data dir)…');
  await withConsole(ctx, home, async (pty) => {
    await pty.waitFor(hasText, 30_000, 0, 'a first frame');
    await pty.settle(1000, 20_000);
  });
  const names = await assistantNames(ctx, home);
  const inkHello = await buildInkHello(ctx);
  const showsAssistant = (t: string) => names.some((n) => t.includes(n));

  const runs = ctx.quick ? 3 : 7;
  const path: number[] = [];
  const node: number[] = [];
  const frame: number[] = [];
  const hello: number[] = [];
  const app: number[] = [];
  const rows: number[] = [];
  for (let i = 0; i < runs; i++) {
    ctx.log(`rows 2-3: run ${i + 1}/${runs}…`);
    path.push(await firstTextOf(['/bin/echo', 'ready'], home));
    node.push(await firstTextOf([process.execPath, '-e', 'process.stdout.write("ready\\n")'], home));
    hello.push(await firstTextOf([process.execPath, inkHello], home));
    await withConsole(ctx, home, async (pty) => {
      frame.push(await pty.waitFor(hasText, 30_000, 0, 'a first frame'));
      // The frame before Ink (src/ui/start.ts) may hold the cached rows; the app's own is Ink's first.
      app.push(await pty.waitForInkFrame(30_000));
      rows.push(await pty.waitFor(showsAssistant, 30_000, 0, `an assistant's name (${names[0]}…)`));
    });
  }
  const pathS = summarize(path);
  const nodeS = summarize(node);
  const ratio = (s: Summary, base = nodeS) => ratioOffPath(s, base, pathS);
  const frameS = summarize(frame);
  const rowsS = summarize(rows);
  const appS = summarize(app);
  const helloS = summarize(hello);
  // The samples too, with bare node's from the same runs: two builds' runs can be pooled (one run's 7 samples spread widely).
  const detail = { ptyPathMs: pathS, bareNodeOnPtyMs: nodeS, samples: frame, bareNodeSamples: node };
  const note =
    `pty via util-linux script (${COLS}×${ROWS}, TERM=xterm-256color, CI unset); bare node on the same pty ${nodeS.median.toFixed(0)} ms, pty path ` +
    `alone ${pathS.median.toFixed(1)} ms (taken off both sides of the ratio)`;
  return [
    { row: 2, name: 'console first frame (pty)', unit: 'ms', ...fromSummary(frameS), ratio: ratio(frameS), target: atMostRatio(2), note, detail },
    {
      row: 2,
      name: 'a one-<Text> Ink app, first frame (the floor)',
      unit: 'ms',
      ...fromSummary(helloS),
      ratio: ratio(helloS),
      note: "render(<Text>hello</Text>) bundled like the console: what Ink, React and yoga alone cost before any frame; row 3's baseline",
    },
    {
      row: 2,
      name: "console app's first frame (Ink, screen body)",
      unit: 'ms',
      ...fromSummary(appS),
      ratio: ratio(appS),
      note:
        "the first frame above is drawn before React and Ink load (the chrome and a loading line); this one is Ink's first (a synchronized update), the " +
        'app itself taking keys',
    },
    {
      row: 3,
      name: 'Assistants rows on screen (embedded sandbox)',
      unit: 'ms',
      ...fromSummary(rowsS),
      ratio: ratio(rowsS, helloS),
      target: WITHIN_INK_FLOOR,
      note: `the ratio is to the one-<Text> Ink app above (${ratio(rowsS).toFixed(2)}× bare node)`,
      detail,
    },
  ];
}
