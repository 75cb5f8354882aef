// What the console loads before its frames (the built binary in tmux, its loads logged by
// test/support/load-log.mjs with the moment of Ink's first frame): the steps before the console's
// start load what the refusals need, not the config and zod (those come with the start, in one go);
// Ink's first frame waits for the first route's screen alone (src/ui/run.tsx), the other screens'
// chunks (forms, the chat, the test results, …) load after it, and a key for one waits until it is in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { hasTmux, startTmux, type TmuxSession } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const skip = !hasTmux() ? 'tmux is not installed' : !existsSync(CLI) ? `${CLI} is missing (npm run build)` : false;

const sb = sandboxForFile();
let home: CliHome;
const sessions: TmuxSession[] = [];

before(async () => {
  await sb.started;
  home = tempHome();
});
after(async () => {
  sessions.forEach((s) => s.kill());
  home.cleanup();
});

/** The screens' components, by the declaration each one's chunk holds. */
const SCREENS = ['AssistantsList', 'Numbers', 'Calls', 'Conversation', 'Files', 'TestResults', 'Profiles', 'AssistantCreate'];
const declares = (code: string, name: string) => code.includes(`function ${name}(`);

/**
 * A bare `switchboard` on a terminal, to the Assistants rows, then `2` (Numbers) and quit: the code
 * of each chunk loaded, in order, and where Ink's first frame came among them.
 */
let run: Promise<{ chunks: string[]; frame: number }> | undefined;
function loads() {
  run ??= (async () => {
    const log = join(home.dir, 'loads.txt');
    const hook = pathToFileURL(resolve(root, 'test/support/load-log.mjs')).href;
    const env = {
      ...home.env,
      SWITCHBOARD_BASE_URL: sb.url,
      SWITCHBOARD_API_KEY: sb.apiKey,
      NODE_OPTIONS: `--import ${hook}`,
      SWITCHBOARD_LOAD_LOG: log,
      SWITCHBOARD_LOAD_LOG_FRAME: '1',
      TERM: 'xterm-256color',
    };
    const t = startTmux({ name: `sb-first-screen-${process.pid}`, cwd: root, env, command: [process.execPath, CLI].map((a) => JSON.stringify(a)).join(' ') });
    sessions.push(t);
    await t.waitFor(/● online[\s\S]*NAME/);
    t.type('2');
    await t.waitFor(/^Numbers/m);
    t.keys('C-c');
    assert.equal(await t.waitForExit(), 0);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.endsWith('.mjs') || l.endsWith(' #ink-frame'));
    const frame = lines.findIndex((l) => l.endsWith(' #ink-frame'));
    assert.ok(frame > 0, "the log marks Ink's first frame");
    const chunks = lines.map((l) => (l.endsWith(' #ink-frame') ? '' : readFileSync(fileURLToPath(l.slice(l.indexOf(' ') + 1)), 'utf8')));
    return { chunks, frame };
  })();
  return run;
}

describe('what the console loads before its frames', { skip }, () => {
  test("the config and zod load with the console's start, not in a step of their own before it", { timeout: 10 * 60_000 }, async () => {
    const { chunks } = await loads();
    const start = chunks.findIndex((c) => c.includes('function startConsole('));
    const zod = chunks.findIndex((c) => c.includes('$constructor("$ZodError"'));
    assert.ok(start >= 0 && zod >= 0, 'the log saw the console start and zod');
    assert.ok(zod > start, 'zod is loaded after the module that starts the console, in its graph');
  });

  test("Ink's first frame waits for the first screen's chunk only; the others load after it", { timeout: 10 * 60_000 }, async () => {
    const { chunks, frame } = await loads();
    const before = chunks.slice(0, frame);
    assert.deepEqual(
      SCREENS.filter((s) => before.some((c) => declares(c, s))),
      ['AssistantsList'],
      "before the first frame, the first route's screen alone",
    );
    assert.deepEqual(
      SCREENS.filter((s) => !chunks.some((c) => declares(c, s))),
      [],
      'every screen is loaded after it',
    );
  });
});
