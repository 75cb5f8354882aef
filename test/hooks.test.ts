// Running one test by name (`--test-name-pattern`) over files where it matches nothing: Node's
// runner then starts a file's set-up without waiting for it before its tear-down. A file whose
// set-up starts a server must still end (test/support/hooks.ts), not hang with the server open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeTree } from './support/cli.js';

/** A hang's bound, not a speed check: the file ends in about a second. */
const HANG_MS = 60_000;

test('a file none of whose tests the name pattern picks ends, its set-up torn down once that set-up has ended', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-hooks-'));
  try {
    const hooks = pathToFileURL(resolve(import.meta.dirname, 'support/hooks.ts')).href;
    const file = join(dir, 'server.test.ts');
    writeFileSync(
      file,
      [
        `import { test } from 'node:test';`,
        `import { createServer, type Server } from 'node:net';`,
        `import { setUpAndTearDown } from ${JSON.stringify(hooks)};`,
        `let server: Server | undefined;`,
        `setUpAndTearDown(`,
        `  async () => {`,
        `    await new Promise((r) => setTimeout(r, 100));`,
        `    server = createServer().listen(0, '127.0.0.1');`,
        `  },`,
        `  () => new Promise<void>((done) => (server ? server.close(() => done()) : done())),`,
        `);`,
        `test('the one test', () => {});`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-name-pattern', 'matches nothing', file], {
      cwd: resolve(import.meta.dirname, '..'),
      // Its own run, not a part of this one (the runner marks its files' processes).
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')),
      stdio: 'pipe',
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('close', (c, s) => done([c, s])));
    clearTimeout(guard);
    assert.equal(signal, null, `the file never ended (killed after ${HANG_MS / 1000} s):\n${out}`);
    assert.equal(code, 0, out);
    assert.doesNotMatch(out, /the one test/, 'the pattern picked no test');
  } finally {
    removeTree(dir);
  }
});
