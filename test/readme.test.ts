import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { withKeyTable } from '../src/ui/keymap-doc.js';
import { DEFAULT_ROUTES } from '../src/ui/screens/routes.js';
import { RESULTS_FILE, benchCommand, isFullRun, measuredSection, resultsMarkdown } from './bench/report.js';

/** The user README and the two engineer guides. */
const GUIDES = ['README.md', 'src/README.md', 'test/README.md'];

test('the README key table is the one generated from the keymap (run npm run docs)', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.equal(readme, withKeyTable(readme));
});

test('the key table has a row per help section with every key the help screen lists there', () => {
  const readme = readFileSync('README.md', 'utf8');
  const keymap = DEFAULT_ROUTES.keymap;
  for (const section of keymap.sections) {
    const row = readme.split('\n').find((line) => line.startsWith(`| ${section.title} | `));
    assert.ok(row, `no row for ${section.title}`);
    for (const b of keymap.bindingsFor(section.contexts)) assert.ok(row.includes(`\`${b.keys}\` ${b.hint}`), `${section.title}: ${b.keys} ${b.hint}`);
  }
});

test('the README quick start is the two commands, and .ci/run runs the README test command', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.match(readme, /npm install && npm start/);
  assert.match(readme, /\bnpm test\b/);
  const ci = readFileSync('.ci/run', 'utf8');
  assert.match(ci, /^npm ci$/m);
  assert.match(ci, /^npm test$/m);
});

test('the README says how to run `switchboard` from a checkout', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.match(readme, /npx switchboard/);
  assert.match(readme, /npm link/);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens (repeats get -1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('every relative link in the three guides and the bench results reaches a file, and its #anchor a heading', () => {
  for (const doc of [...GUIDES, 'test/bench/RESULTS.md']) {
    const text = readFileSync(doc, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? doc : normalize(join(dirname(doc), path));
      assert.ok(existsSync(file), `${doc}: ${target} (no ${file})`);
      if (anchor !== undefined) assert.ok(anchors(readFileSync(file, 'utf8')).has(anchor), `${doc}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
});

/** A guide's prose: fenced code blocks and inline code (examples: `--after 2026-11-01`) left out. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** What a backquoted path may be relative to: the repository, src/ (`ui/start.ts`), src/ui/ (`screens/lists.ts`), test/. */
const ROOTS = ['.', 'src', 'src/ui', 'test'];

test('the docs name files that exist (paths in backquotes: `src/…`, `ui/start.ts`, `support/cli.ts`)', () => {
  const missing: string[] = [];
  for (const doc of GUIDES) {
    const text = readFileSync(doc, 'utf8');
    for (const [, path] of text.matchAll(/`((?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|cts|mjs|json|md|txt|yml|yaml|jsonc))`/g)) {
      // A user's own files (`.cursor/mcp.json`) and the product's documents beside the repository.
      if (/^(?:\.|~|shared\/)/.test(path)) continue;
      if (!ROOTS.some((root) => existsSync(join(root, path)) || existsSync(join(dirname(doc), path)))) missing.push(`${doc} names ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});

/** A date in prose: "23 Nov", "Nov 23", "Nov 2026", "2026-11-23", "2026-11-", "28 November". */
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const DATED = new RegExp(`\\b(?:\\d{1,2} ${MONTH}\\b|${MONTH} (?:\\d{1,2}|\\d{4})\\b|20\\d\\d-[01]\\d-)`);

test('the three guides carry no dates and no history: those live in test/bench/RESULTS.md and commit messages', () => {
  const found: string[] = [];
  for (const doc of GUIDES) {
    prose(readFileSync(doc, 'utf8'))
      .split('\n')
      .forEach((line) => {
        const m = DATED.exec(line);
        if (m) found.push(`${doc}: "${m[0]}" in: ${line.trim().slice(0, 120)}`);
        if (/^#{1,6}\s.*\b(?:before and after|history of|changelog)\b/i.test(line)) found.push(`${doc}: a history section: ${line}`);
      });
  }
  assert.deepEqual(found, []);
});

test('the README has one speed table, of targets and the last full run, pointing to the bench results', () => {
  const readme = readFileSync('README.md', 'utf8');
  const speed = readme.slice(readme.indexOf('## Speed and reliability'));
  assert.ok(speed.length < readme.length, 'a Speed and reliability section');
  const section = speed.slice(0, speed.indexOf('\n## ', 4) === -1 ? undefined : speed.indexOf('\n## ', 4));
  const tables = section.split('\n').filter((line) => /^\|[-| ]+\|$/.test(line));
  assert.equal(tables.length, 1, 'one table');
  assert.match(section, /^\| what \| target \| last full run \|$/m);
  assert.match(section, /\]\(test\/bench\/RESULTS\.md\)/);
});

test('the date check sees a dated figure, and not an example in code', () => {
  const lines = (t: string) =>
    prose(t)
      .split('\n')
      .filter((l) => DATED.test(l));
  assert.equal(lines('137 ms (beside the 23 Nov build, 28 Nov)').length, 1);
  assert.equal(lines('measured on Nov 2026').length, 1);
  assert.equal(lines('since 2026-11-30').length, 1);
  assert.equal(lines('`--after 2026-11-01` and\n```sh\ncalls list --before 2026-11-20\n```\n13 November').length, 1);
  assert.equal(lines('12 months, 3 Novas').length, 0);
});

test('the bench keeps the table of a full run only, in the shape it writes', () => {
  assert.equal(isFullRun({ quick: false }), true);
  assert.equal(isFullRun({ quick: true }), false);
  assert.equal(isFullRun({ quick: false, rows: new Set([4]) }), false);
  assert.equal(
    benchCommand({ SWITCHBOARD_BENCH_CONSOLE_CALLS: '10', SWITCHBOARD_BENCH_BUILD: 'x', SWITCHBOARD_BENCH_ARCHIVE_CALLS: '20', HOME: '/h' }, ['--no-build']),
    'SWITCHBOARD_BENCH_ARCHIVE_CALLS=20 SWITCHBOARD_BENCH_CONSOLE_CALLS=10 npm run bench -- --no-build',
  );
  const kept = readFileSync(RESULTS_FILE, 'utf8');
  const m = /^`(.+)` \((\d+) s\):\n\n```text\n([\s\S]*?)\n```\n/m.exec(kept);
  assert.ok(m, 'RESULTS.md: the command line, then the printed table in a text block');
  assert.equal(kept, resultsMarkdown(m[3], m[1], Number(m[2]), measuredSection(kept)));
  // A full run keeps the same-run measurements after its table.
  const again = resultsMarkdown('table', 'npm run bench', 1, measuredSection(kept));
  assert.equal(measuredSection(again), measuredSection(kept));
  assert.match(m[3], /^Switchboard bench — \d{4}-\d\d-\d\dT[\d:]+Z\nmachine: .+, Node v\d+\.\d+\.\d+.*\n\| figure /);
  assert.match(readFileSync('README.md', 'utf8'), /\(test\/bench\/RESULTS\.md\)/);
});
