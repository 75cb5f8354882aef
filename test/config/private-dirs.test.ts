// Cache and state dirs that already exist world-writable (an old install, a careless umask) are
// tightened to 0700 when Switchboard writes into them, as the config dir is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeCrashLog } from '../../src/crash.js';
import { openArchive } from '../../src/archive/index.js';
import { writeCachedList } from '../../src/config/cached-lists.js';
import { cacheDir, stateDir } from '../../src/config/paths.js';
import { tempHome } from '../support/cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

test('a world-writable state dir is made private when the debug log is written into it', () => {
  const home = tempHome();
  try {
    const state = stateDir(home.env);
    mkdirSync(state, { recursive: true });
    chmodSync(state, 0o777);
    assert.ok(writeCrashLog(new Error('boom'), 'test', home.env));
    assert.equal(mode(state), 0o700);
  } finally {
    home.cleanup();
  }
});

test('a world-writable cache dir is made private by the call archive and by the lists cache', async () => {
  const home = tempHome();
  try {
    const cache = cacheDir(home.env);
    mkdirSync(join(cache, 'archive'), { recursive: true });
    chmodSync(cache, 0o777);
    chmodSync(join(cache, 'archive'), 0o777);
    openArchive(join(cache, 'archive', 'sandbox.db'), { service: 'sandbox:test' }).close();
    assert.equal(mode(join(cache, 'archive')), 0o700);
    assert.equal(mode(cache), 0o700);

    chmodSync(cache, 0o777);
    await writeCachedList(cache, 'sandbox', 'sandbox:test', 'assistants', []);
    assert.equal(mode(cache), 0o700);
    assert.equal(mode(join(cache, 'lists')), 0o700);
  } finally {
    home.cleanup();
  }
});
