import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

test('the built binary prints the package version', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const out = execFileSync(process.execPath, ['dist/cli.js', '--version'], { encoding: 'utf8' });
  assert.equal(out.trim(), pkg.version);
});
