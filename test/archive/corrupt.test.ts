// An archive file that is no longer a database (its first bytes overwritten, or the file cut in
// half), with the built CLI against a real sandbox: every archive command names the file and says
// `archive clear` fixes it; `archive clear --yes` removes it (it is a cache); the next sync rebuilds it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { builtSkip, runCli } from '../support/cli.js';
import { sandboxForCli } from '../support/sandbox.js';

const on = sandboxForCli();

const run = (args: string[]) => runCli(args, { env: on.env });

const damage = {
  'its first bytes overwritten': (path: string) => {
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
    closeSync(fd);
  },
  'cut in half': (path: string) => truncateSync(path, Math.floor(statSync(path).size / 2)),
};

describe('a corrupt archive', { skip: builtSkip() }, () => {
  for (const [how, spoil] of Object.entries(damage))
    test(`${how}: each command names the file and \`archive clear\`; clear removes it; a sync rebuilds it`, async () => {
      const archive = join(on.home.env.XDG_CACHE_HOME!, 'switchboard', 'archive', 'env.db');
      const synced = await run(['archive', 'sync']);
      assert.equal(synced.code, 0, synced.stderr);
      // The WAL folded in, so the damage is to the only copy of the pages.
      assert.equal((await run(['archive', 'status'])).code, 0);
      for (const p of [`${archive}-wal`, `${archive}-shm`]) if (existsSync(p)) truncateSync(p, 0);
      spoil(archive);
      for (const args of [
        ['archive', 'status'],
        ['calls', 'search', 'hello', '--offline'],
        ['calls', 'stats', '--offline'],
        ['calls', 'search', 'hello'],
        ['archive', 'sync'],
      ]) {
        const r = await run(args);
        assert.notEqual(r.code, 0, `${args.join(' ')}: ${r.stdout}`);
        assert.ok(r.stderr.includes(archive), `${args.join(' ')} names the file: ${r.stderr}`);
        assert.match(r.stderr, /`switchboard archive clear` removes it, and the next sync rebuilds it/, args.join(' '));
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      }
      const refused = await run(['archive', 'clear']);
      assert.equal(refused.code, 2, refused.stderr);
      assert.ok(existsSync(archive));
      const cleared = await run(['archive', 'clear', '--yes']);
      assert.equal(cleared.code, 0, cleared.stderr);
      assert.match(cleared.stdout, /removed the call archive .*env\.db, which could not be read; the next sync rebuilds it/);
      assert.equal(existsSync(archive), false);
      const again = await run(['archive', 'sync']);
      assert.equal(again.code, 0, again.stderr);
      const status = await run(['archive', 'status', '-o', 'json']);
      assert.equal(status.code, 0, status.stderr);
      assert.ok((JSON.parse(status.stdout) as { calls: number }).calls > 0, status.stdout);
    });
});
