// The built console in a real terminal (tmux), moving through the call log. Once the frame
// fills the terminal, frames after the first are written as diffs of the previous one (only the
// changed rows; a one-row scroll through the terminal's scroll region, see
// src/patches, scroll), so this checks what the terminal really shows
// after each move: the table rows are consecutive calls of the log, newest first, exactly one of
// them is highlighted and it is the cursor's call, and header and footer are where they belong
// (also across resizes, which go back to Ink's full redraw).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, homeEnv, removeTree } from '../support/cli.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { sandboxForFile } from '../support/sandbox.js';
import { createClient } from '../../src/api/client.js';
import type { Call } from '../../src/api/schemas.js';

const skip = tmuxSkip();
if (skip) console.log(`# skipping the terminal frames test: ${skip}`);

const sb = sandboxForFile({}, { skip });
let home: string;
let term: TmuxSession | undefined;
/** The log as the console orders it (newest first), each call's customer number. */
let numbers: string[];

before(async () => {
  if (skip) return;
  await sb.started;
  home = mkdtempSync(join(tmpdir(), 'sb-frames-'));
  const api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  try {
    // Newest first, as the archive orders them (by creation time; the sandbox's are all apart).
    const calls: Call[] = (await api.listCalls({ limit: 1000 })).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    numbers = calls.map((c) => c.customer?.number ?? '—');
  } finally {
    await api.close();
  }
});
after(async () => {
  term?.kill();
  if (home) removeTree(home);
});

const INVERSE = /\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m/;
const DIM = /\x1b\[(?:[0-9;]*;)?2(?:;[0-9;]*)?m/;
/** The key hints, dimmed: one of the SGR sequences in front of them sets dim. */
const dimHints = (line: string) => DIM.test(/^((?:\x1b\[[0-9;]*m)*)\/ filter · Enter open/.exec(line)?.[1] ?? '');
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** The first frames (drawn before the terminal's size is known) must leave nothing behind. */
function leftovers(screen: string): string | undefined {
  const n = screen.split('\n').filter((l) => /Switchboard │|\/ filter · Enter open/.test(l)).length;
  return n === 2 ? undefined : `${n} header and key-hint rows, not 2: rows left over from an earlier frame`;
}

/** Table body rows for a terminal of `rows` rows: header 2, flash 1, footer 1; chart 4, status 1, table header 1. */
const bodyRows = (rows: number) => rows - 4 - 5 - 1;

/**
 * Whether the screen shows the log with the cursor on call `cursor`: every body row is the call
 * at some window start plus its row (by customer number), the highlighted row is the cursor's,
 * and the frame's first and last rows are the header and the key hints. Returns why not.
 */
function mismatch(screen: string, cursor: number, rows: number): string | undefined {
  const lines = screen.split('\n').slice(0, rows);
  if (!plain(lines[0]).startsWith('Switchboard │')) return 'no header on the first row';
  if (!dimHints(lines[rows - 1])) return 'no dimmed key hints on the last row';
  const left = leftovers(screen);
  if (left) return left;
  const head = lines.findIndex((l) => /CREATED +(?:ID +)?TYPE +STATUS/.test(plain(l)));
  if (head !== 7) return `the table header is on row ${head}, not 7`;
  const body = lines.slice(head + 1, head + 1 + bodyRows(rows));
  const marked = body.flatMap((l, i) => (INVERSE.test(l) ? [i] : []));
  if (marked.length !== 1) return `${marked.length} rows highlighted`;
  const scroll = cursor - marked[0];
  if (scroll < 0) return `the highlight is on row ${marked[0]} with the cursor at ${cursor}`;
  for (const [i, l] of body.entries()) {
    const want = numbers[scroll + i];
    if (want !== undefined && !plain(l).includes(want)) return `row ${i} should be call ${scroll + i} (${want}): ${plain(l)}`;
  }
  return undefined;
}

async function showsCursor(t: TmuxSession, cursor: number, rows: number): Promise<void> {
  let screen = '';
  let why: string | undefined;
  for (let i = 0; i < 100; i++) {
    screen = t.screen({ colours: true });
    why = mismatch(screen, cursor, rows);
    if (!why) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`cursor ${cursor}: ${why}\n${plain(screen)}`);
}

test('moving through the call log: the terminal shows the right rows and one highlight after every key', { skip }, async () => {
  assert.ok(numbers.length >= 80, `the seeded sandbox has ${numbers.length} calls; the test pages past the first 50`);
  const env = {
    ...homeEnv(home),
    TERM: 'xterm-256color',
    SWITCHBOARD_BASE_URL: sb.url,
    SWITCHBOARD_API_KEY: sb.apiKey,
  };
  term = startTmux({ name: `sb-frames-${process.pid}`, cwd: home, env, command: `${JSON.stringify(process.execPath)} ${CLI}` });
  const t = term;
  // The Assistants screen has few rows: a row left over from the first frames would show.
  await t.waitFor('● online');
  for (let i = 0; leftovers(t.screen()) !== undefined; i++) {
    if (i === 100) assert.fail(`${leftovers(t.screen())}:\n${t.screen()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  t.keys('3');
  await t.waitFor('calls/day');
  let rows = 40;
  let cursor = 0;
  await showsCursor(t, cursor, rows);
  const press = async (key: string, to: number) => {
    t.keys(key);
    cursor = to;
    await showsCursor(t, cursor, rows);
  };
  // Down past the bottom of the window (each key scrolls by one there), back up, a page down.
  for (let i = 0; i < bodyRows(rows) + 6; i++) await press('j', cursor + 1);
  for (let i = 0; i < 3; i++) await press('k', cursor - 1);
  // A page down stops at the last call loaded so far (older pages load as the cursor nears it).
  const loaded = Number(/(\d+) calls\+?(?! loaded)/.exec(plain(t.screen()))?.[1]);
  await press('C-f', Math.min(cursor + bodyRows(rows), loaded - 1));
  // Up past the top of the window: each key scrolls the other way.
  for (let i = 0; i < bodyRows(rows) + 3; i++) await press('k', cursor - 1);
  await press('g', 0);
  await press('j', 1);
  // A smaller terminal and back: Ink redraws whole, then diffs again.
  t.resize(100, 30);
  rows = 30;
  await showsCursor(t, cursor, rows);
  for (let i = 0; i < bodyRows(rows) + 2; i++) await press('j', cursor + 1);
  t.resize(120, 40);
  rows = 40;
  await showsCursor(t, cursor, rows);
  await press('k', cursor - 1);
  await press('j', cursor + 1);
});
