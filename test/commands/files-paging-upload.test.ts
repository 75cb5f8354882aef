// files list says when more pages exist and bounds --page; files upload checks before sending,
// with the console's own check. Built binary, real sandbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkUploadPath } from '../../src/ui/screens/files/pathInput.js';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

const on = sandboxForCli();
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-upload-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('files list pages', () => {
  test('more pages: a note on stderr in every format, stdout unchanged; --page out of range exits 2 before any request', async () => {
    const total = (JSON.parse((await runCli(['files', 'list', '--limit', '100', '-o', 'json'], { env: on.env })).stdout) as unknown[]).length;
    assert.ok(total >= 3, 'the seeded files');
    const pages = Math.ceil(total / 2);
    for (const format of ['table', 'json', 'csv', 'ids']) {
      const r = await runCli(['files', 'list', '--limit', '2', '-o', format], { env: on.env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, `more files: this is page 1 of ${pages} (${total} files); --page 2 for the next\n`, `-o ${format}`);
      if (format === 'json') assert.equal((JSON.parse(r.stdout) as unknown[]).length, 2);
      if (format === 'ids') assert.equal(r.stdout.split('\n').filter(Boolean).length, 2);
    }
    const last = await runCli(['files', 'list', '--limit', '2', '--page', String(pages)], { env: on.env });
    assert.equal(last.code, 0);
    assert.equal(last.stderr, '', 'the last page has nothing to add');
    const past = await runCli(['files', 'list', '--limit', '2', '--page', String(pages + 5)], { env: on.env });
    assert.match(past.stderr, new RegExp(`page ${pages + 5} is past the last page \\(${pages}`));
    for (const page of ['1000001', '99999999999999999999', '0']) {
      const r = await runCli(['--debug', 'files', 'list', '--page', page], { env: on.env });
      assert.equal(r.code, 2, `--page ${page}: ${r.stderr}`);
      assert.match(r.stderr, /--page/);
      assert.doesNotMatch(r.stderr, /debug:/, 'no request was made');
    }
  });
});

describe('files upload checks before sending, as the console does', () => {
  let home: CliHome;
  before(() => {
    home = tempHome(); // the embedded sandbox: its upload limit is known
  });
  after(() => home.cleanup());

  test('0-byte files, fifos, /proc files, directories and missing paths: exit 2, nothing sent, the console says the same', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const cases = [empty, fifo, '/proc/self/status', dir, join(dir, 'missing.txt')];
    for (const path of cases) {
      const started = performance.now();
      const r = await runCli(['--debug', 'files', 'upload', path], { env: on.env });
      const problem = checkUploadPath(path);
      assert.ok(problem, `the console refuses ${path}`);
      assert.equal(r.code, 2, `${path}: ${r.stderr}`);
      assert.equal(r.stderr.trim(), `switchboard: ${problem}.`, 'the same words as the console');
      assert.doesNotMatch(r.stderr, /debug:/, `${path}: nothing sent`);
      assert.ok(performance.now() - started < 20_000, 'a fifo is never opened (it would block)');
    }
    const fine = join(dir, 'fine.txt');
    writeFileSync(fine, 'Open 9 to 5.\n');
    assert.equal(checkUploadPath(fine), null);
    const ok = await runCli(['files', 'upload', fine, '-o', 'ids'], { env: on.env });
    assert.equal(ok.code, 0, ok.stderr);
  });

  test("over the embedded sandbox's limit: exit 2 before the upload, with the console's words", async () => {
    const big = join(dir, 'big.bin');
    const fd = openSync(big, 'w');
    closeSync(fd);
    execFileSync('truncate', ['-s', String(26 * 1024 * 1024), big]); // sparse: no 26 MB written
    const r = await runCli(['--debug', 'files', 'upload', big], { env: home.env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /big\.bin is 26 MB; the limit is 25 MB/);
    assert.doesNotMatch(r.stderr, /debug: POST/, 'nothing sent');
    assert.equal(
      checkUploadPath(big, 25 * 1024 * 1024),
      r.stderr
        .trim()
        .replace(/^switchboard: /, '')
        .replace(/\.$/, ''),
    );
  });
});
