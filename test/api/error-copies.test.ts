// The commands' CommonJS file and the console's and sandbox's ESM entries are bundled apart, so
// each holds its own copy of the error classes: an error thrown by one copy is still the other's
// kind (a bad keys file the console refuses exits 2, as a usage error, not 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tsImport } from 'tsx/esm/api';
import { ApiError, InputError, NetworkError, ReadOnlyError, RequestError, failure } from '../../src/api/errors.js';
import { UsageError } from '../../src/commands/exit.js';
import { ConfigError } from '../../src/config/files.js';

type Errors = typeof import('../../src/api/errors.js');
type Files = typeof import('../../src/config/files.js');

test("an error made by a second copy of the classes is the first copy's kind, and only that kind", async () => {
  const copy = (await tsImport('../../src/api/errors.ts', import.meta.url)) as Errors;
  const files = (await tsImport('../../src/config/files.ts', import.meta.url)) as Files;
  assert.notEqual(copy.InputError, InputError, 'a second copy, as the ESM entries hold');

  const config = new files.ConfigError('keys.yaml: f is bound twice');
  assert.ok(config instanceof ConfigError && config instanceof InputError);
  assert.ok(!(config instanceof UsageError) && !(config instanceof ReadOnlyError) && !(config instanceof RequestError));
  assert.equal(failure(config).kind, 'input');

  const down = new copy.NetworkError('connection refused', 'ECONNREFUSED', 'GET', '/assistants', 'http://127.0.0.1:9');
  assert.ok(down instanceof NetworkError && down instanceof RequestError && !(down instanceof ApiError));
  assert.equal(failure(down).kind, 'unreachable');
  assert.ok(!(new Error('plain') instanceof InputError));
  for (const x of [null, 'text', 42] as unknown[]) assert.ok(!(x instanceof InputError));
});
