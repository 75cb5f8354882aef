import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withKeyTable } from '../src/ui/keymap-doc.js';
import { HELP_SECTIONS, bindingsFor } from '../src/ui/keymap.js';

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
