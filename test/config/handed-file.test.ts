// The one reader for files people hand to Switchboard (src/config/files.ts, readHandedFile): what
// it refuses, in one line naming the file, and that its bound holds whatever the size says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHandedFile, readHandedFileIfAny, UnreadableFileError } from '../../src/config/files.js';

const unix = process.platform !== 'win32';

test('a regular file is read; a missing one is undefined for readHandedFileIfAny and a refusal for readHandedFile', () => {
  const d = mkdtempSync(join(tmpdir(), 'sb-handed-'));
  try {
    writeFileSync(join(d, 'a.yaml'), 'name: a\n');
    assert.equal(readHandedFile(join(d, 'a.yaml'), 'a scenario file'), 'name: a\n');
    assert.equal(readHandedFileIfAny(join(d, 'none.yaml'), 'a base copy'), undefined);
    assert.throws(() => readHandedFile(join(d, 'none.yaml'), 'a scenario file'), /cannot read .*none\.yaml: no such file/);
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test('a device, a fifo and a directory are refused without being read; a symlink out of `within` is refused', { skip: !unix && 'Unix files' }, () => {
  const d = mkdtempSync(join(tmpdir(), 'sb-handed-'));
  try {
    execFileSync('mkfifo', [join(d, 'pipe')]);
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'out.yaml'), 'x: 1\n');
    mkdirSync(join(d, 'walked'));
    symlinkSync(join(d, 'out.yaml'), join(d, 'walked', 'link.yaml'));
    const refused = (path: string, re: RegExp, within?: string) =>
      assert.throws(
        () => readHandedFile(path, 'a scenario file', { within }),
        (err: unknown) => err instanceof UnreadableFileError && re.test(err.message),
      );
    refused('/dev/zero', /^\/dev\/zero is a device, not a regular file; a scenario file must be one$/);
    refused(join(d, 'pipe'), /pipe is a named pipe \(fifo\), not a regular file/);
    refused(join(d, 'sub'), /sub is a directory, not a regular file/);
    refused(join(d, 'walked', 'link.yaml'), /link\.yaml is a symlink to .*out\.yaml, outside .*walked; copy the file into/, join(d, 'walked'));
    // Named directly (no directory walked), the same symlink is read.
    assert.equal(readHandedFile(join(d, 'walked', 'link.yaml'), 'a scenario file'), 'x: 1\n');
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test(
  'the bound holds whatever fstat says: a kernel file (size 0) is read whole, and stops at the cap',
  { skip: !existsSync('/proc/self/status') && 'no /proc' },
  () => {
    const text = readHandedFile('/proc/self/status', 'a file');
    assert.match(text, /^Name:/);
    assert.throws(
      () => readHandedFile('/proc/self/status', 'a file', { maxBytes: 64 }),
      /status: more than 64 bytes is too large for a file \(at most 64 bytes\)/,
    );
  },
);
