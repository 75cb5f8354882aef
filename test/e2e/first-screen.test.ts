// What the console loads before its frames (the built binary in tmux, its loads logged by
// test/support/load-log.mjs with the moments of its two first frames): the steps before the console's
// start load what the refusals need, not the config and zod; with no config file to check, zod waits
// until the frame drawn before Ink is on the screen; Ink's first frame waits for the first route's screen alone (src/ui/run.tsx), the other screens'
// chunks (forms, the chat, the test results, …) load after it, and a key for one waits until it is in.
// On the embedded sandbox, the frame before Ink is out before the sandbox is forked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const skip = tmuxSkip();

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
let run: Promise<{ chunks: string[]; first: number; frame: number }> | undefined;

/** A bare `switchboard` in tmux with `env`, its loads and frames logged (test/support/load-log.mjs) to `log`. */
function startLogged(name: string, env: NodeJS.ProcessEnv, log: string): TmuxSession {
  const hook = pathToFileURL(resolve(root, 'test/support/load-log.mjs')).href;
  const logged = { ...env, NODE_OPTIONS: `--import ${hook}`, SWITCHBOARD_LOAD_LOG: log, SWITCHBOARD_LOAD_LOG_FRAME: '1', TERM: 'xterm-256color' };
  const t = startTmux({ name: `${name}-${process.pid}`, cwd: root, env: logged, command: [process.execPath, CLI].map((a) => JSON.stringify(a)).join(' ') });
  sessions.push(t);
  return t;
}

function loads() {
  run ??= (async () => {
    const log = join(home.dir, 'loads.txt');
    const t = startLogged('sb-first-screen', { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey }, log);
    await t.waitFor(/● online[\s\S]*NAME/);
    t.type('2');
    await t.waitFor(/^Numbers/m);
    t.keys('C-c');
    assert.equal(await t.waitForExit(), 0);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.endsWith('.mjs') || l.endsWith('-frame'));
    const first = lines.findIndex((l) => l.endsWith(' #first-frame'));
    const frame = lines.findIndex((l) => l.endsWith(' #ink-frame'));
    assert.ok(first > 0 && frame > first, "the log marks the first frame, then Ink's");
    const chunks = lines.map((l) => (l.endsWith('-frame') ? '' : readFileSync(fileURLToPath(l.slice(l.indexOf(' ') + 1)), 'utf8')));
    return { chunks, first, frame };
  })();
  return run;
}

/** The console's own marks (`#first-frame`, `#sandbox-fork`, `#ink-frame`), in order, from a bare `switchboard` on the embedded sandbox. */
async function embeddedMarks(): Promise<string[]> {
  const embedded = tempHome();
  try {
    const log = join(embedded.dir, 'loads.txt');
    const t = startLogged('sb-first-fork', embedded.env, log);
    await t.waitFor(/● online[\s\S]*NAME/);
    t.keys('C-c');
    assert.equal(await t.waitForExit(), 0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    // The console is the first process in the log; the sandbox child logs its own loads under its pid.
    const pid = lines[0].slice(0, lines[0].indexOf(' '));
    return lines.filter((l) => l.startsWith(`${pid} #`)).map((l) => l.slice(pid.length + 1));
  } finally {
    embedded.cleanup();
  }
}

describe('what the console loads before its frames', { skip }, () => {
  test('on the embedded sandbox, the frame before Ink is drawn first, then the sandbox forked, then Ink draws', { timeout: 10 * 60_000 }, async () => {
    assert.deepEqual(await embeddedMarks(), ['#first-frame', '#sandbox-fork', '#ink-frame']);
  });

  test('with no config file, zod loads after the first frame, not before it or the console start', { timeout: 10 * 60_000 }, async () => {
    const { chunks, first } = await loads();
    const start = chunks.findIndex((c) => c.includes('function startConsole('));
    const zod = chunks.findIndex((c) => c.includes('$constructor("$ZodError"'));
    assert.ok(start >= 0 && zod >= 0, 'the log saw the console start and zod');
    assert.ok(start < first, 'the console start is loaded before the first frame');
    assert.ok(zod > first, 'zod is loaded after the frame drawn before Ink');
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
