// Ink's first frame waits for the first route's screen alone (src/ui/run.tsx): the other screens'
// chunks (forms, the chat, the test results, …) load after it; a key for one of them waits until it is in.
// The built binary in tmux, its loads logged (test/support/load-log.mjs) with the moment of Ink's first frame.
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

describe("Ink's first frame", { skip }, () => {
  test("waits for the first screen's chunk only; the others load after it, and a key opens one", { timeout: 10 * 60_000 }, async () => {
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

    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const frame = lines.findIndex((l) => l.endsWith(' #ink-frame'));
    assert.ok(frame > 0, "the log marks Ink's first frame");
    const code = (ls: string[]) =>
      ls.filter((l) => l.includes(' file:') && l.endsWith('.mjs')).map((l) => readFileSync(fileURLToPath(l.slice(l.indexOf(' ') + 1)), 'utf8'));
    const before = code(lines.slice(0, frame));
    const all = code(lines);
    const loadedBefore = SCREENS.filter((s) => before.some((c) => declares(c, s)));
    assert.deepEqual(loadedBefore, ['AssistantsList'], "before the first frame, the first route's screen alone");
    assert.deepEqual(
      SCREENS.filter((s) => !all.some((c) => declares(c, s))),
      [],
      'every screen is loaded after it',
    );
  });
});
