// The escape corpus against everything Switchboard shows: a hostile service (the hosted fixture
// with `hostile`: every string it sends ends in ESC, SGR, OSC 52/8/0, DCS, C1, bidi overrides and
// isolates, U+2028/U+2029, CR, BS and BEL) and every command of the program (enumerated from
// buildProgram, so a new command fails here until it has an argument fixture or a reason to be
// skipped), in every output format piped, and on a pseudo-terminal in the formats that look at
// one; the files the tool writes or tells people to read; and every console screen. No raw
// sequence may get through; -o json may carry them only as \u escapes and must parse back to the
// exact text. Success or error alike.
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../../src/ui/screens/routes.js';
import type { Route, RouteName } from '../../src/store/index.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { CLI, leafCommandMap, leafCommands, runCli, startCli, tempHome, type CliHome, removeTree } from '../support/cli.js';
import { ESCAPE_CORPUS, ID_CORPUS, startHostedFixture, type HostedFixture } from '../support/hosted-fixture.js';
import { KEYS } from '../support/ink.js';
import { openConsole } from '../ui/support.js';

// Anything that can drive a terminal: C0 but TAB and LF, DEL, C1, bidi controls, U+2028/2029; a CR
// only before an LF. For pipes and files, where the tool itself writes no control at all.
const STRICT = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|\r(?!\n)/g;
// On a terminal the tool may colour and move the cursor itself (CSI), and the pty turns LF into
// CR LF: there, what it never writes (C1, bidi, separators, BEL, BS, OSC, DCS, ESC 7) and the
// corpus's own CSI and CR next to their marker words.
const ON_TTY = [/[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\u0007\u0008]/g, /\u001b[\]P7c]/g, /\u001b\[35;7mSGR|\u001b\[2JCLR|C\rRET/g];

const show = (c: string) => (c.length === 1 ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(c));
/** The raw sequences in `text` (as U+XXXX, with a few characters of context), at most a few. */
function leaks(text: string, tty: boolean): string[] {
  const found = new Set<string>();
  for (const re of tty ? ON_TTY : [STRICT]) {
    for (const m of text.matchAll(re)) {
      found.add(`${show(m[0])} near ${JSON.stringify(text.slice(Math.max(0, m.index - 12), m.index + 12))}`);
      if (found.size >= 4) return [...found];
    }
  }
  return [...found];
}

/** Every string in a parsed JSON value. */
/** The strings of a JSON value, but a search hit's `snippet`: an excerpt Switchboard cuts from the service's text, not the text itself. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => (k === 'snippet' ? [] : strings(x)));
  return [];
}

let fx: HostedFixture;
let home: CliHome;
let env: NodeJS.ProcessEnv;
let scratch: string;
const problems: string[] = [];
/** Per command: how many of its runs printed the service's text (escaped): the runs that showed something. */
const shown = new Map<string, { runs: number; shown: number }>();
// A word of the corpus that survives escaping: where it is, the service's text got through.
const MARKER = 'Q0xJUEJPQVJE';
const P: Record<string, string> = {};

setUpAndTearDown(
  async () => {
    fx = await startHostedFixture({ hostile: true, calls: 12 });
    home = tempHome();
    env = { ...home.env, SWITCHBOARD_BASE_URL: fx.url, SWITCHBOARD_API_KEY: fx.apiKey };
    scratch = mkdtempSync(join(tmpdir(), 'sb-escapes-'));
    const a = fx.assistants[0].id as string;
    P.A = a;
    P.AH = fx.assistants.find((r) => String(r.id).includes(ID_CORPUS))!.id as string;
    P.N = fx.phoneNumbers[1].id as string;
    P.NH = fx.phoneNumbers.find((r) => String(r.id).includes(ID_CORPUS))!.id as string;
    P.C = fx.calls[1].id as string;
    P.CH = fx.calls.find((r) => String(r.id).includes(ID_CORPUS))!.id as string;
    P.F = fx.files[0].id as string;
    P.FH = fx.files.find((r) => String(r.id).includes(ID_CORPUS))!.id as string;
    P.FDEL = fx.files[3].id as string;
    P.S = fx.sessions[0].id as string;
    P.URL = fx.url;
    // The user's own arguments may carry the corpus too (pasted from anywhere): errors echo them.
    P.BAD = `nope-${ID_CORPUS}`;
    P.SCEN = join(scratch, 'hostile.test.yaml');
    writeFileSync(
      P.SCEN,
      `name: Hostile replies\nassistant: ${a}\nturns:\n  - user: hello\n    expect:\n      contains: ["not in the reply"]\n  - user: again\n`,
    );
    P.NEW = join(scratch, 'new-assistant.json');
    writeFileSync(
      P.NEW,
      JSON.stringify({
        name: 'From a file',
        voice: { provider: '11labs', voiceId: 'burt' },
        transcriber: { provider: 'deepgram', model: 'nova-3' },
        model: { provider: 'openai', model: 'gpt-4o' },
      }),
    );
    P.KEY = fx.apiKey;
    P.UP = join(scratch, `kb-${ID_CORPUS}.txt`);
    writeFileSync(P.UP, 'hello');
    // A pulled directory for diff and push (each run gets its own copy).
    P.PULLED = join(scratch, 'pulled');
    await runCli(['assistants', 'pull', '--dir', P.PULLED], { env });
    // The archive the offline commands read.
    await runCli(['archive', 'sync'], { env });
  },
  async () => {
    await fx?.close();
    home?.cleanup();
    if (scratch) removeTree(scratch);
  },
);

interface Fixture {
  /** Argument lists after the command's own words; {X} is replaced from P, {DIR} by the run's own dir, {PULLCOPY} by a copy of the pulled dir. */
  args?: string[][];
  /** Output formats to try (default: every -o format). */
  formats?: string[];
  /** Runs until stopped: stopped after a few seconds; `during` is called twice meanwhile. */
  longRunning?: boolean;
  during?: () => void;
  stdin?: string;
  /** Variables set for the run, {X} filled as in args: what a user may paste into the environment. */
  env?: Record<string, string>;
  /** Why this command is not run against the service. */
  skip?: string;
}

const FIXTURES: Record<string, Fixture> = {
  'assistants create': { args: [['--file', '{NEW}']] },
  'assistants update': {
    args: [
      ['{A}', '--description', 'updated'],
      ['{BAD}', '--name', 'x'],
    ],
  },
  'assistants pull': {
    args: [
      ['{A}', '{AH}', '--dir', '{DIR}'],
      ['--dir', '{DIR}'],
    ],
  },
  'assistants diff': { args: [['--dir', '{PULLCOPY}']] },
  'assistants push': {
    args: [
      ['--dir', '{PULLCOPY}', '--dry-run'],
      ['--dir', '{PULLCOPY}', '--yes'],
    ],
  },
  'assistants clone': { args: [['{A}', '--name', 'Copy']] },
  'numbers link': {
    args: [
      ['{N}', '--assistant', '{A}'],
      ['{NH}', '--assistant', '{AH}'],
      ['{BAD}', '--assistant', '{A}'],
    ],
  },
  'calls list': { args: [[], ['--all'], ['--id', '{CH}']] },
  'calls outbound': { args: [['--assistant', '{A}', '--number', '{N}', '--to', '+14155550123', '--name', 'Out']] },
  // watch prints what changes after its first poll: a new call arrives while it runs.
  'calls watch': {
    args: [['--interval', '1']],
    longRunning: true,
    during: () => void fx.calls.unshift({ ...structuredClone(fx.calls[1]), id: `ca11da7a-watch-${++runNo}`, createdAt: new Date().toISOString() }),
  },
  'calls search': { args: [['refund'], ['SGR', '--offline']] },
  'calls stats': { args: [[], ['--offline']] },
  'calls export': {
    args: [
      ['--format', 'ndjson'],
      ['--format', 'csv'],
      ['--format', 'csv', '--out', '{DIR}/calls.csv'],
      ['--format', 'ndjson', '--out', '{DIR}/calls.ndjson'],
      ['--offline', '--format', 'csv'],
      ['--offline', '--format', 'ndjson'],
    ],
    formats: ['table', 'json'],
  },
  'archive sync': { args: [[]] },
  'archive clear': { skip: 'local only: it empties the archive the other commands read, and prints no service text' },
  'files list': { args: [[], ['--page', '1', '--limit', '50']] },
  'files upload': { args: [['{UP}']] },
  'files delete': { args: [['{FDEL}', '--yes']] },
  'sessions create': { args: [['--assistant', '{A}', '--name', 'New']] },
  'chat send': { args: [['hello', '--session', '{S}']] },
  'sandbox ring': { skip: 'talks to the local sandbox only' },
  'sandbox seed': { skip: 'writes a local sandbox data dir only' },
  login: { args: [['--profile', 'hostile', '--base-url', '{URL}']], stdin: '{KEY}\n', formats: ['table', 'json'] },
  'profiles use': { args: [['{BAD}']], formats: ['table', 'json'] },
  'profiles remove': { args: [['{BAD}']], formats: ['table', 'json'] },
  'profiles read-only': { args: [['{BAD}', 'on']], formats: ['table', 'json'] },
  'profiles allow-http': { args: [['{BAD}', 'on']], formats: ['table', 'json'] },
  // A base URL holding the corpus (pasted into the environment): whoami prints it back.
  whoami: { args: [[]], env: { SWITCHBOARD_BASE_URL: '{URL}/{BAD}' } },
  doctor: { args: [[]], formats: ['table', 'json', 'csv'] },
  test: { args: [['{SCEN}'], ['{SCEN}', '--out', '{DIR}/report']], formats: ['text', 'json', 'junit', 'tap', 'github'] },
  'test from-call': { args: [['{C}', '--out', '{DIR}/from-call.test.yaml'], ['{CH}', '--judge', '--out', '{DIR}/judged.test.yaml'], ['{BAD}']] },
  // A protocol server on stdio, not a command that prints: test/mcp/mcp.test.ts holds its results to this corpus.
  mcp: { skip: 'serves the protocol on stdio; its results are checked against the corpus in test/mcp/mcp.test.ts' },
  completion: { skip: 'prints a fixed shell script' },
};

/** The leaf commands of the program, as their words ("calls export"). */
const ptyKind = spawnSync('script', ['-qfec', 'true', '/dev/null']).status === 0 ? 'script' : undefined;

/** Runs the binary on a pseudo-terminal (util-linux `script`): what the terminal received, stdout and stderr together. */
function runOnPty(args: string[], opts: { stdin?: string; stopAfterMs?: number; env?: NodeJS.ProcessEnv }): Promise<string> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
    env: { ...env, ...opts.env, COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
  if (opts.stdin) child.stdin.write(opts.stdin);
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  const timer = setTimeout(stop, opts.stopAfterMs ?? 60_000);
  return new Promise((done) => {
    child.on('close', () => {
      clearTimeout(timer);
      done(out);
    });
  });
}

/** Every file under `dir` (the run's own outputs), path → text. */
function filesUnder(dir: string): [string, string][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => [f, readFileSync(f, 'utf8')]);
}

let runNo = 0;
async function runOne(words: string[], args: string[], format: string, fixture: Fixture, tty: boolean): Promise<void> {
  const dir = join(scratch, `run-${++runNo}`);
  mkdirSync(dir);
  const fill = (a: string) =>
    a.replace(/\{(\w+)\}/g, (_m, k: string) => {
      if (k === 'DIR') return join(dir, 'out');
      if (k === 'PULLCOPY') {
        cpSync(P.PULLED, join(dir, 'pulled'), { recursive: true });
        return join(dir, 'pulled');
      }
      return P[k];
    });
  const argv = [...(format === 'table' || format === 'text' ? [] : ['-o', format]), ...words, ...args.map(fill)];
  const asRun = argv.join(' ').replaceAll(ID_CORPUS, '<corpus>').replaceAll(fx.url, '<url>').replaceAll(scratch, '<tmp>');
  const label = `${tty ? 'pty' : 'pipe'}: switchboard ${asRun}`;
  const stopAfterMs = fixture.longRunning ? 6000 : undefined;
  const stdin = fixture.stdin === undefined ? undefined : fill(fixture.stdin);
  const runEnv = Object.fromEntries(Object.entries(fixture.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const timers = fixture.during ? [setTimeout(fixture.during, 2000), setTimeout(fixture.during, 3500)] : [];
  const tally = shown.get(words.join(' ')) ?? { runs: 0, shown: 0 };
  shown.set(words.join(' '), tally);
  tally.runs++;
  if (tty) {
    const out = await runOnPty(argv, { stdin, stopAfterMs, env: runEnv });
    if (out.includes(MARKER)) tally.shown++;
    for (const l of leaks(out, true)) problems.push(`${label}: on the terminal: ${l}`);
  } else {
    // In this process, as the commands' tests run them; what runs until stopped (calls watch) is a
    // process of its own, stopped as Ctrl-C would.
    const r = await (async () => {
      if (!stopAfterMs) return runCli(argv, { env: { ...env, ...runEnv }, stdin: stdin ?? '' });
      const started = startCli(argv, { env: { ...env, ...runEnv }, stdin: stdin ?? '' });
      const timer = setTimeout(() => started.child.kill('SIGTERM'), stopAfterMs);
      return started.result.finally(() => clearTimeout(timer));
    })();
    if ((r.stdout + r.stderr).includes(MARKER)) tally.shown++;
    for (const l of leaks(r.stdout, false)) problems.push(`${label}: stdout: ${l}`);
    for (const l of leaks(r.stderr, false)) problems.push(`${label}: stderr: ${l}`);
    if (format === 'json' && r.code === 0 && r.stdout.trim() !== '') {
      // -o json stays exact: it parses, and wherever the service's text is, it is there whole.
      try {
        // One document, or one per line (calls watch, export --format ndjson).
        let docs: unknown[];
        try {
          docs = [JSON.parse(r.stdout)];
        } catch {
          docs = r.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown);
        }
        const mangled = docs.flatMap(strings).filter((s) => /[\u001b\u009b\u202e]/.test(s) && !s.includes(ESCAPE_CORPUS) && !s.includes(ID_CORPUS));
        if (mangled.length) problems.push(`${label}: the JSON changed the service's text: ${JSON.stringify(mangled[0]).slice(0, 120)}`);
      } catch (err) {
        // Some commands print lines whatever -o says (pull: the files it wrote); JSON must parse.
        if (/^[[{]/.test(r.stdout.trim())) problems.push(`${label}: stdout is not JSON: ${String(err)}`);
      }
    }
  }
  timers.forEach(clearTimeout);
  for (const [file, text] of filesUnder(dir)) for (const l of leaks(text, false)) problems.push(`${label}: file ${file.slice(dir.length)}: ${l}`);
}

/** Each resource's `<id>`: its record named with the corpus, its hostile twin where the fixture has one, and an id it does not have. */
const IDS: Record<string, string[]> = {
  assistants: ['{A}', '{AH}', '{BAD}'],
  numbers: ['{N}', '{NH}', '{BAD}'],
  calls: ['{C}', '{CH}', '{BAD}'],
  files: ['{F}', '{FH}', '{BAD}'],
  sessions: ['{S}', '{BAD}'],
};
/**
 * The verbs that only read. The default below is for them alone: a write run on the shared records
 * (a delete on {A}, say) would change what the other commands' runs, four at a time, read.
 */
const READ_VERBS = new Set(['list', 'get', 'show', 'status']);
const COMMANDS = leafCommandMap();
/**
 * A command's fixture: its line in FIXTURES, or, for a read without one, the default that a new
 * read needs no line for: run bare when it requires nothing, on each of its resource's ids when
 * its one required argument is `<id>`. Anything else (a write, a required option, an argument that
 * is not the id, a resource without ids here) has none, and the check below names it.
 */
function fixtureOf(name: string): Fixture | undefined {
  if (FIXTURES[name]) return FIXTURES[name];
  const command = COMMANDS.get(name);
  const [resource, verb] = name.split(' ');
  if (!command || !verb || !READ_VERBS.has(verb) || command.options.some((o) => o.mandatory)) return undefined;
  const required = command.registeredArguments.filter((a) => a.required);
  if (required.length === 0) return { args: [[]] };
  const ids = IDS[resource];
  return required.length === 1 && required[0].name() === 'id' && ids ? { args: ids.map((id) => [id]) } : undefined;
}

test('every command of the program has an escape-corpus fixture (its own or the default) or a reason to be skipped', () => {
  const missing = leafCommands().filter((c) => !fixtureOf(c));
  assert.deepEqual(missing, [], 'add these commands to FIXTURES in test/reliability/escape-corpus.test.tsx');
});

test('the default fixture: a read taking nothing runs bare, one taking its resource id runs on each of its ids', () => {
  // Commands whose lines the default stands for (they have none in FIXTURES).
  assert.deepEqual(fixtureOf('assistants list'), { args: [[]] });
  assert.deepEqual(fixtureOf('calls get'), { args: [['{C}'], ['{CH}'], ['{BAD}']] });
  assert.deepEqual(fixtureOf('sessions show'), { args: [['{S}'], ['{BAD}']] });
});

test('every command run against the corpus is run with -o json too', () => {
  const withoutJson = leafCommands().filter((c) => {
    const f = fixtureOf(c);
    return f && !f.skip && f.formats && !f.formats.includes('json');
  });
  assert.deepEqual(withoutJson, [], 'add json to these fixtures: every JSON output goes through the escaping writer');
});

// The formats whose output asks whether stdout is a terminal (colour, width, the aligned table,
// csv's formula guard). json, ids, junit and tap are written the same to a pipe and a terminal, so
// their pty run would repeat the piped one; what a terminal on stderr or stdin changes (progress
// lines, prompts) does not depend on -o and is seen in the table or text run on the pty. A run on
// an id that is not there fails before printing anything, and its error goes out one way whatever
// -o says: the first format and json are enough there.
const TTY_FORMATS = new Set(['table', 'text', 'csv']);
/** Runs `jobs`, `width` at a time. */
async function pool(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  const next = async (): Promise<void> => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  };
  await Promise.all(Array.from({ length: width }, next));
}

const EVERY_COMMAND_MS = 20 * 60_000;
// Each run piped, and on a pseudo-terminal where the format looks at the terminal.
test('every command, every format: no raw sequence from the service reaches the terminal or a file', { timeout: EVERY_COMMAND_MS }, async () => {
  if (!ptyKind) console.log('no pseudo-terminal: util-linux `script` is missing; only the piped runs are checked');
  const jobs: (() => Promise<void>)[] = [];
  for (const name of leafCommands()) {
    const fixture = fixtureOf(name);
    if (!fixture || fixture.skip) continue;
    const words = name.split(' ');
    const formats = fixture.formats ?? ['table', 'json', 'csv', 'ids'];
    for (const args of fixture.args ?? [[]])
      for (const format of args.some((a) => a.includes('{BAD}')) ? formats.filter((f, i) => i === 0 || f === 'json') : formats)
        for (const tty of ptyKind && TTY_FORMATS.has(format) ? [false, true] : [false]) jobs.push(() => runOne(words, args, format, fixture, tty));
  }
  // A few at a time: the machine is shared. Each command's runs are queued together, in the program's order.
  await pool(jobs, 4);
  const modes = ptyKind ? [false, true] : [false];
  // Usage errors quote the user's own words; --debug prints each request and response line.
  const extra = [
    [`asistants${ID_CORPUS}`],
    ['calls', 'list', '--limit', P.BAD],
    ['-o', P.BAD, 'whoami'],
    ['--profile', P.BAD, 'whoami'],
    ['--debug', 'calls', 'list'],
    ['--debug', 'files', 'get', P.FH],
    ['--debug', 'assistants', 'get', P.BAD],
  ];
  for (const argv of extra) {
    for (const tty of modes) await runOne(argv, [], 'table', {}, tty);
  }
  // The log every error line points to, if anything was written to it.
  const log = join(env.XDG_STATE_HOME!, 'switchboard', 'debug.log');
  if (existsSync(log)) for (const l of leaks(readFileSync(log, 'utf8'), false)) problems.push(`${log}: ${l}`);
  const runs = [...shown.values()].reduce((n, t) => n + t.runs, 0);
  const withText = [...shown.values()].reduce((n, t) => n + t.shown, 0);
  console.log(
    `${runs} runs of ${shown.size} commands; ${withText} printed the service's text (escaped); none printed ` +
      `it: ${
        [...shown]
          .filter(([, t]) => t.shown === 0)
          .map(([c]) => c)
          .join(', ') || '-'
      }`,
  );
  assert.ok(withText > runs / 2, 'most runs must print the service text, or the test shows nothing');
  assert.deepEqual(problems, []);
});

const noPty = !ptyKind && 'no pseudo-terminal (util-linux `script` is missing)';
test('the console on a pseudo-terminal, with --debug: no raw sequence on the terminal or in the debug log it points to', { skip: noPty }, async () => {
  const quoted = [process.execPath, CLI, '--debug'].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
    env: { ...env, COLUMNS: '120', LINES: '40', TERM: 'xterm-256color' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await pause(4000);
    // Through the sections (1–6 on the top line), into the first record of each, and back.
    for (const key of [
      '1',
      '\r',
      'y',
      '\u001b',
      '\u001b',
      '2',
      '\r',
      '\u001b',
      '3',
      '\r',
      '\u001b',
      '4',
      '\r',
      '\u001b',
      '5',
      '\r',
      '\u001b',
      '6',
      '?',
      '\u001b',
    ]) {
      child.stdin.write(key);
      await pause(600);
    }
    child.stdin.write('q');
    await Promise.race([closed, pause(5000)]);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* ended */
    }
  }
  assert.ok(out.length > 0, 'the console drew nothing');
  assert.deepEqual(leaks(out, true), [], 'raw sequences on the terminal');
  const log = join(env.XDG_STATE_HOME!, 'switchboard', 'debug.log');
  assert.ok(existsSync(log), 'the console wrote no debug log');
  assert.deepEqual(leaks(readFileSync(log, 'utf8'), false), [], `raw sequences in ${log}`);
});

test('every console screen against the hostile service: no raw sequence in any frame', { timeout: 10 * 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-escapes-ui-'));
  const id = (r: Record<string, unknown>) => r.id as string;
  const a = fx.assistants[0];
  // One route of each kind. A route with a digit opens with no params, so one not listed is driven
  // as `{ name }` by itself (a new top-level screen needs no line here); any other fails until added.
  const listed: Partial<Record<RouteName, Route[]>> = {
    assistants: [{ name: 'assistants' }, { name: 'assistants', usingFile: P.BAD }],
    assistant: [
      { name: 'assistant', id: id(a) },
      { name: 'assistant', id: P.AH },
      { name: 'assistant', id: P.BAD },
    ],
    'assistant-new': [{ name: 'assistant-new' }, { name: 'assistant-new', from: id(a) }],
    'assistant-edit': [{ name: 'assistant-edit', id: id(a) }],
    'assistant-kb': [{ name: 'assistant-kb', id: id(a) }],
    'assistant-yaml': [{ name: 'assistant-yaml', id: id(a) }],
    numbers: [{ name: 'numbers' }, { name: 'numbers', assistantId: id(a) }],
    number: [{ name: 'number', id: P.NH }],
    'number-link': [{ name: 'number-link', id: P.NH }],
    call: [
      { name: 'call', id: P.C },
      { name: 'call', id: P.CH },
    ],
    'call-search': [
      { name: 'call-search', text: 'refund' },
      { name: 'call-search', text: `refund${ESCAPE_CORPUS}` },
    ],
    'call-stats': [{ name: 'call-stats' }],
    'call-filters': [{ name: 'call-filters' }],
    'call-outbound': [{ name: 'call-outbound', assistantId: id(a) }],
    chat: [{ name: 'chat' }, { name: 'chat', sessionId: P.S, assistantId: id(a) }],
    'chat-new': [{ name: 'chat-new' }],
    'chat-session': [
      { name: 'chat-session', sessionId: P.S },
      { name: 'chat-session', sessionId: P.BAD },
    ],
    file: [
      { name: 'file', id: P.F },
      { name: 'file', id: P.FH },
    ],
    'file-upload': [{ name: 'file-upload' }],
    tests: [{ name: 'tests', path: scratch }],
    'test-result': [{ name: 'test-result', id: P.BAD, scenario: `s${ESCAPE_CORPUS}` }],
    help: [{ name: 'help' }],
    json: [{ name: 'json', title: ESCAPE_CORPUS, value: { name: ESCAPE_CORPUS } }],
    message: [{ name: 'message', text: ESCAPE_CORPUS }],
    pick: [{ name: 'pick', title: ESCAPE_CORPUS, items: [{ id: id(a), label: ESCAPE_CORPUS, detail: ESCAPE_CORPUS }], open: 'assistant' }],
    profiles: [{ name: 'profiles' }],
    'profile-new': [{ name: 'profile-new' }],
  };
  const routes: Partial<Record<RouteName, Route[]>> = { ...listed };
  for (const [name, spec] of Object.entries(ROUTES) as [RouteName, { jump?: string }][]) if (!routes[name] && spec.jump) routes[name] = [{ name } as Route];
  assert.deepEqual(
    Object.keys(ROUTES).filter((r) => !(r in routes)),
    [],
    'add these routes to the screens test',
  );
  const found: string[] = [];
  // Requests the screens have made and not yet had answered: a screen has shown what the service
  // sent once none is left, the archive's sync is done and no frame has come for a while.
  let inflight = 0;
  /** Routes whose frames showed the service's text (escaped). */
  let showed = 0;
  const counted = (api: VoiceAgentApi): VoiceAgentApi =>
    new Proxy(api, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out: unknown = Reflect.apply(value, target, args);
          if (out instanceof Promise) {
            inflight++;
            const done = () => void inflight--;
            out.then(done, done);
          }
          return out;
        };
      },
    });
  /** Until nothing is in flight and no frame has come for 60 ms; a screen that never settles (a spinner) is read after 5 s. */
  const settled = async (c: Awaited<ReturnType<typeof openConsole>>) => {
    let frames = -1;
    let quiet = 0;
    for (let waited = 0; quiet < 6 && waited < 5000; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
      const still = inflight === 0 && !c.store.getState().archiveSync.running && c.frames.length === frames;
      frames = c.frames.length;
      quiet = still ? quiet + 1 : 0;
    }
  };
  try {
    for (const route of Object.values(routes).flat()) {
      let c: Awaited<ReturnType<typeof openConsole>> | undefined;
      try {
        c = await openConsole(fx as never, {
          initialRoute: route,
          target: { kind: 'remote', profile: 'hostile', baseUrl: fx.url, dataDir } as never,
          debugLog: () => undefined,
          wrapApi: counted,
        });
        await settled(c);
        // The raw-JSON view of what the screen shows, and an opened row.
        await c.press('y');
        await settled(c);
        await c.press(KEYS.escape);
        await c.press(KEYS.enter);
        await settled(c);
        if (c.frames.join('\n').includes(MARKER)) showed++;
        for (const l of leaks(c.frames.join('\n'), true))
          found.push(`${route.name} ${JSON.stringify(route).replaceAll(JSON.stringify(ESCAPE_CORPUS).slice(1, -1), '<corpus>')}: ${l}`);
      } catch (err) {
        // A screen that cannot open with these params still must not have leaked before failing.
        if (c) for (const l of leaks(c.frames.join('\n'), true)) found.push(`${route.name}: ${l}`);
        found.push(`${route.name}: could not be driven: ${String(err).split('\n')[0]}`);
      } finally {
        await c?.close();
      }
    }
  } finally {
    removeTree(dataDir);
  }
  const all = Object.values(routes).flat().length;
  console.log(`${showed} of ${all} screens showed the service's text (escaped)`);
  assert.ok(showed > all / 2, 'most screens must show the service text, or the test shows nothing');
  assert.deepEqual(found, []);
});
