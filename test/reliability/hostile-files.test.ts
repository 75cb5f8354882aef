// Files handed to Switchboard that are not what they claim, with the built CLI against a real
// sandbox: a symlink to /dev/zero, a fifo, a symlink out of the directory walked, a symlinked
// `.switchboard/`, a directory that cannot be made (/proc). Each is refused with one line naming
// the file and why (exit 2), and nothing hangs, grows without bound or writes outside. And two
// pushes of the same directory at once create each new assistant once.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxForCli } from '../support/sandbox.js';
import { builtSkip, runBinary, type CliResult } from '../support/cli.js';

const on = sandboxForCli();
let root: string;
before(() => void (root = mkdtempSync(join(tmpdir(), 'switchboard-hostile-'))));
after(() => rmSync(root, { recursive: true, force: true }));

const unix = process.platform !== 'win32';
const skip = builtSkip() || (!unix && 'fifos and /dev/zero are Unix');

/**
 * Runs the CLI in `cwd`, killed if it has not finished in a generous while: a hang or an endless
 * read must fail the test (with what it printed), not stall the suite.
 */
async function run(args: string[], _cwd?: string): Promise<CliResult & { killed: boolean }> {
  const r = await runBinary(['--no-color', ...args], { env: on.env, timeoutMs: 30_000 });
  return { ...r, killed: r.timedOut === true };
}

function project(name: string): string {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
}

const lines = (s: string) => s.split('\n').filter(Boolean);

describe('files that are not regular files', { skip }, () => {
  test('switchboard test: a /dev/zero symlink, a fifo and a symlink out of the directory are each refused in one line (exit 2)', async () => {
    const d = project('scenarios');
    const tests = join(d, 'tests');
    mkdirSync(tests);
    symlinkSync('/dev/zero', join(tests, 'zero.test.yaml'));
    execFileSync('mkfifo', [join(tests, 'pipe.test.yaml')]);
    writeFileSync(join(d, 'outside.test.yaml'), 'name: outside\nassistant: x\nturns:\n  - user: hi\n');
    symlinkSync(join(d, 'outside.test.yaml'), join(tests, 'out.test.yaml'));
    const r = await run(['test', tests], d);
    assert.equal(r.killed, false, `still running after 30 s: ${r.stderr}`);
    assert.equal(r.code, 2, r.stderr);
    const errs = lines(r.stderr);
    assert.equal(errs.length, 3, r.stderr);
    assert.match(errs[0], /out\.test\.yaml is a symlink to .*outside\.test\.yaml, outside .*tests/);
    assert.match(errs[1], /pipe\.test\.yaml is a named pipe \(fifo\), not a regular file/);
    assert.match(errs[2], /zero\.test\.yaml is a symlink to \/dev\/zero, outside/);
  });

  test('switchboard test naming a /dev/zero symlink directly: refused as a device, not read', async () => {
    const d = project('named');
    symlinkSync('/dev/zero', join(d, 'zero.test.yaml'));
    const r = await run(['test', join(d, 'zero.test.yaml')], d);
    assert.equal(r.killed, false);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /zero\.test\.yaml is a device, not a regular file; a scenario file must be one/);
  });

  for (const cmd of ['diff', 'push', 'pull'] as const)
    test(`assistants ${cmd}: a /dev/zero symlink and a fifo named *.assistant.yaml exit 2 naming the file`, async () => {
      for (const kind of ['zero', 'fifo'] as const) {
        const d = project(`${cmd}-${kind}`);
        const file = join(d, `bad.assistant.yaml`);
        if (kind === 'zero') symlinkSync('/dev/zero', file);
        else execFileSync('mkfifo', [file]);
        const r = await run(['assistants', cmd, '--dir', d, ...(cmd === 'push' ? ['--yes'] : [])], d);
        assert.equal(r.killed, false, `${cmd} ${kind}: still running after 30 s`);
        assert.equal(r.code, 2, `${cmd} ${kind}: ${r.stderr}`);
        assert.match(r.stderr, kind === 'zero' ? /bad\.assistant\.yaml is a symlink to \/dev\/zero, outside/ : /bad\.assistant\.yaml is a named pipe \(fifo\)/);
      }
    });

  test('assistants diff: a base copy that is a /dev/zero symlink is refused, not read', async () => {
    const d = project('base-zero');
    assert.equal((await run(['assistants', 'pull', '--dir', d], d)).code, 0);
    const base = join(d, '.switchboard');
    const copy = readdirSync(base).find((n) => n.endsWith('.assistant.yaml'))!;
    rmSync(join(base, copy));
    symlinkSync('/dev/zero', join(base, copy));
    const r = await run(['assistants', 'diff', '--dir', d], d);
    assert.equal(r.killed, false);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a symlink to /dev/zero`));
  });

  test('assistants pull: a symlinked .switchboard/ is refused and nothing is written where it points', async () => {
    const d = project('base-link');
    const elsewhere = project('elsewhere');
    symlinkSync(elsewhere, join(d, '.switchboard'));
    const r = await run(['assistants', 'pull', '--dir', d], d);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\.switchboard is a symlink; base copies are kept only in a real directory/);
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  test(
    'assistants pull --dir under /proc: one line saying the directory cannot be made, no endless retry',
    { skip: !existsSync('/proc/self') && 'no /proc' },
    async () => {
      const d = project('proc');
      const r = await run(['assistants', 'pull', '--dir', '/proc/switchboard-x/y'], d);
      assert.equal(r.killed, false, 'still running after 30 s');
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /cannot create the directory \/proc\/switchboard-x\/y/);
      assert.equal(lines(r.stderr).length, 1, r.stderr);
    },
  );
});

describe('two pushes at once', { skip: builtSkip() }, () => {
  test('two `assistants push --yes` of the same new files leave exactly one assistant per file', async () => {
    const d = project('twice');
    const stamp = `twice-${process.pid}-${Date.now()}`;
    const names = ['a', 'b', 'c'].map((n) => `${stamp}-${n}`);
    for (const n of names) writeFileSync(join(d, `${n}.assistant.yaml`), `name: ${n}\nfirstMessage: hello\n`);
    const [one, two] = await Promise.all([run(['assistants', 'push', '--dir', d, '--yes'], d), run(['assistants', 'push', '--dir', d, '--yes'], d)]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    const listed = JSON.parse((await run(['assistants', 'list', '-o', 'json'], d)).stdout) as { id: string; name?: string }[];
    for (const n of names) assert.equal(listed.filter((a) => a.name === n).length, 1, `${n} on the service: ${one.stderr}\n---\n${two.stderr}`);
    const ids = names.map((n) => /^id: (.+)$/m.exec(readFileSync(join(d, `${n}.assistant.yaml`), 'utf8'))?.[1]);
    assert.deepEqual(
      ids.map((id) => listed.find((a) => a.id === id)?.name),
      names,
    );
    assert.equal(existsSync(join(d, '.switchboard', 'push.lock')), false, 'the lock is released');
  });
});
