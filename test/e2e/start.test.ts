// One start-up path: the global options open the console on a terminal (the built binary in
// tmux) exactly as a bare `switchboard` does, and mean there what they mean for the commands:
// --profile picks the target, --no-color turns colour off, --debug logs each request (to the
// debug log: stderr is the screen). Off a terminal each of them gets the one-line refusal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { debugLogPath } from '../../src/crash.js';
import { CLI, runCli } from '../support/cli.js';
import { labForFile } from '../support/lab.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const skip = tmuxSkip();

const lab = labForFile();
const { sb, sessions } = lab;

function open(name: string, args: string[], env: NodeJS.ProcessEnv = lab.home.env): TmuxSession {
  const t = startTmux({
    name: `sb-start-${name}-${process.pid}`,
    cwd: root,
    env: { ...env, TERM: 'xterm-256color' },
    command: [process.execPath, CLI, ...args].map((a) => JSON.stringify(a)).join(' '),
  });
  sessions.push(t);
  return t;
}

/** The screen with its SGR sequences (tmux capture-pane -e). */
const coloured = (t: TmuxSession) => t.screen({ colours: true });
/**
 * A foreground or background colour: 30–37, 40–47, 90–97, 100–107, 38;… or 48;… in any SGR (39
 * and 49, the default colours, are what tmux writes before a text style such as bold or inverse).
 */
const hasColour = (screen: string) =>
  [...screen.matchAll(/\x1b\[([\d;]*)m/g)].some((m) => m[1].split(';').some((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)));

async function quit(t: TmuxSession) {
  t.keys('C-c');
  assert.equal(await t.waitForExit(), 0);
}

describe('the global options open the console on a terminal', { skip }, () => {
  test('--profile NAME: the console on that profile, online', { timeout: 10 * 60_000 }, async () => {
    const t = open('profile', ['--profile', 'lab']);
    const screen = await t.waitFor(/profile lab │ ● online[\s\S]*NAME/);
    assert.match(screen, new RegExp(`^Switchboard │ ${sb.url.replace(/[.]/g, '\\.')}`, 'm'), "the header names the profile's service");
    await quit(t);
  });

  test('--no-color: the console without a single colour (and with colour when not given)', { timeout: 10 * 60_000 }, async () => {
    const env = { ...lab.home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const plain = open('nocolor', ['--no-color'], env);
    await plain.waitFor(/● online[\s\S]*NAME/);
    const screen = coloured(plain);
    assert.ok(!hasColour(screen), `no colour codes on the screen:\n${JSON.stringify(screen.slice(0, 400))}`);
    await quit(plain);

    const bright = open('color', [], env);
    await bright.waitFor(/● online[\s\S]*NAME/);
    assert.ok(hasColour(coloured(bright)), 'the same console is coloured without --no-color');
    await quit(bright);
  });

  test('--debug: the console, with each request line in the debug log', { timeout: 10 * 60_000 }, async () => {
    const env = { ...lab.home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    const t = open('debug', ['--debug'], env);
    await t.waitFor(/● online[\s\S]*NAME/);
    const log = readFileSync(debugLogPath(env), 'utf8');
    assert.match(log, /GET \/assistants → 200/);
    assert.ok(!log.includes(sb.apiKey), 'the key is never logged');
    await quit(t);
  });

  test('chat --assistant ID goes the same way: its profile, no colour', { timeout: 10 * 60_000 }, async () => {
    const listed = await runCli(['--profile', 'lab', 'assistants', 'list', '-o', 'json'], { env: lab.home.env });
    assert.equal(listed.code, 0, listed.stderr);
    const riley = (JSON.parse(listed.stdout) as { id: string; name?: string }[]).find((a) => a.name?.startsWith('Riley'));
    assert.ok(riley, 'the seed has Riley');
    const t = open('chat', ['--no-color', '--profile', 'lab', 'chat', '--assistant', riley.id]);
    const screen = await t.waitFor(/profile lab │ ● online[\s\S]*Riley — Northwind support/);
    assert.match(screen, /^Chat/m);
    assert.ok(!hasColour(coloured(t)), 'no colour');
    await quit(t);
  });

  test('-o FORMAT is for the commands: the console refuses it in one line, exit 2, before taking the terminal', { timeout: 10 * 60_000 }, async () => {
    // The shell stays after the program (which ends at once), so the pane is there to read.
    const t = startTmux({
      name: `sb-start-output-${process.pid}`,
      cwd: root,
      env: { ...lab.home.env, TERM: 'xterm-256color' },
      command: `sh -c '${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} -o json; echo EXIT=$?; sleep 60'`,
    });
    sessions.push(t);
    const screen = await t.waitFor('EXIT=');
    assert.match(screen, /^switchboard: --output is for the commands; the console has no output format\nEXIT=2$/m);
  });

  // A bare `switchboard` is the root command with every option at its default (src/cli.ts opens
  // it without the commands' parser): the same console, sooner.
  test('a bare switchboard loads neither commander nor the commands; with an option it goes through them', { timeout: 10 * 60_000 }, async () => {
    const hook = pathToFileURL(resolve(root, 'test/support/load-log.mjs')).href;
    const loaded = (args: string[]) => async () => {
      const log = join(lab.home.dir, `loads-${args.length}.txt`);
      const env = {
        ...lab.home.env,
        SWITCHBOARD_BASE_URL: sb.url,
        SWITCHBOARD_API_KEY: sb.apiKey,
        NODE_OPTIONS: `--import ${hook}`,
        SWITCHBOARD_LOAD_LOG: log,
      };
      const t = open(`loads-${args.length}`, args, env);
      await t.waitFor(/● online[\s\S]*NAME/);
      await quit(t);
      const files = [
        ...new Set(
          readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((l) => fileURLToPath(l.slice(l.indexOf(' ') + 1))),
        ),
      ];
      return files.filter((f) => f.endsWith('.mjs'));
    };
    const code = (files: string[]) => files.map((f) => readFileSync(f, 'utf8'));
    const bareFiles = await loaded([])();
    const bare = code(bareFiles);
    assert.ok(
      bare.some((code) => code.includes('function startConsole(')),
      'the load log saw the console start',
    );
    assert.ok(!bare.some((code) => code.includes('CommanderError = class')), 'commander is not loaded');
    assert.ok(!bare.some((code) => code.includes('function buildProgram(')), 'the commands are not loaded');
    assert.ok(
      bareFiles.some((f) => f.endsWith('/main.mjs')),
      'the bare console starts from the ESM main',
    );
    // With an option, the commands (dist/commands.cjs, read by the entry, not through the loader) parse it and open the console.
    const withOption = await loaded(['--no-color'])();
    assert.ok(!withOption.some((f) => f.endsWith('/main.mjs')), 'with an option, the ESM main is not loaded');
    assert.ok(
      code(withOption).some((c) => c.includes('function startConsole(')),
      'with an option, the commands open the console',
    );
  });

  test('switchboard calls opens the console on the call log, from the archive', { timeout: 10 * 60_000 }, async () => {
    const env = { ...lab.home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey };
    // An archive to open on: the command syncs it.
    const synced = await runCli(['archive', 'sync'], { env });
    assert.equal(synced.code, 0, synced.stderr);
    const t = open('calls', ['calls'], env);
    const screen = await t.waitFor(/● online[\s\S]*^Calls[\s\S]*calls\/day[\s\S]*CREATED/m);
    assert.match(screen, /^● live {2}no filters \(f\) {2}\d[\d,]* calls /m);
    await quit(t);
  });

  test('the options in any order, with a profile: --no-color --profile NAME --debug', { timeout: 10 * 60_000 }, async () => {
    const t = open('all', ['--no-color', '--profile', 'lab', '--debug']);
    await t.waitFor(/profile lab │ ● online[\s\S]*NAME/);
    assert.ok(!hasColour(coloured(t)));
    await quit(t);
  });
});

describe('off a terminal the console refuses in one line, exit 2', () => {
  for (const args of [['--profile', 'lab'], ['--debug'], ['--no-color'], []]) {
    test(`switchboard ${args.join(' ')}`.trim(), async () => {
      const r = await runCli(args, { env: lab.home.env });
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'switchboard: the console needs an interactive terminal; for scripts use the commands (switchboard --help)\n');
    });
  }

  test('switchboard calls off a terminal is the help, exit 2, as before', async () => {
    const r = await runCli(['calls'], { env: lab.home.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^Usage: switchboard calls/);
  });

  test('chat --assistant ID: its own refusal, through the same path', async () => {
    const r = await runCli(['--no-color', 'chat', '--assistant', 'a1'], { env: lab.home.env });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'switchboard: the chat console needs an interactive terminal; for scripts use switchboard sessions create and switchboard chat send.\n',
    );
  });

  test('an unknown command is still an unknown command, and --help still prints the help', async () => {
    const r = await runCli(['asistants'], { env: lab.home.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^switchboard: unknown command 'asistants' \(Did you mean assistants\?\)\n$/);
    const help = await runCli(['--help'], { env: lab.home.env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: switchboard /);
    const word = await runCli(['help'], { env: lab.home.env });
    assert.equal(word.code, 0);
    assert.match(word.stdout, /^Usage: switchboard /);
  });
});
