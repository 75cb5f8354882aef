import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { withKeyTable } from '../src/ui/keymap-doc.js';
import { HELP_SECTIONS, bindingsFor } from '../src/ui/keymap.js';
import { RESULTS_FILE, benchCommand, isFullRun, resultsMarkdown } from './bench/report.js';

/** The user README and the two engineer guides. */
const GUIDES = ['README.md', 'src/README.md', 'test/README.md'];

test('the README key table is the one generated from the keymap (run npm run docs)', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.equal(readme, withKeyTable(readme));
});

test('the key table has a row per help section with every key the help screen lists there', () => {
  const readme = readFileSync('README.md', 'utf8');
  for (const section of HELP_SECTIONS) {
    const row = readme.split('\n').find((line) => line.startsWith(`| ${section.title} | `));
    assert.ok(row, `no row for ${section.title}`);
    for (const b of bindingsFor(section.contexts)) assert.ok(row.includes(`\`${b.keys}\` ${b.hint}`), `${section.title}: ${b.keys} ${b.hint}`);
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

test('the README says how to run `switchboard` from a checkout, in at most 450 lines', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.match(readme, /npx switchboard/);
  assert.match(readme, /npm link/);
  const lines = readme.trimEnd().split('\n').length;
  assert.ok(lines <= 450, `README.md has ${lines} lines; the details belong in src/README.md or test/README.md`);
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

test('the docs name files that exist (src/…, test/…, assets/… in backquotes)', () => {
  for (const doc of GUIDES) {
    const text = readFileSync(doc, 'utf8');
    for (const [, path] of text.matchAll(/`((?:src|test|assets)\/[\w./-]+\.(?:ts|tsx|cts|mjs|json|md|txt))`/g)) {
      assert.ok(existsSync(path), `${doc} names ${path}, which does not exist`);
    }
  }
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
  const m = /^`(.+)` \((\d+) s\):\n\n```text\n([\s\S]*?)\n```\n$/m.exec(kept);
  assert.ok(m, 'RESULTS.md: the command line, then the printed table in a text block');
  assert.equal(kept, resultsMarkdown(m[3], m[1], Number(m[2])));
  assert.match(m[3], /^Switchboard bench — \d{4}-\d\d-\d\dT[\d:]+Z\nmachine: .+, Node v\d+\.\d+\.\d+.*\n\| figure /);
  assert.match(readFileSync('README.md', 'utf8'), /\(test\/bench\/RESULTS\.md\)/);
});
