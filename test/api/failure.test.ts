// failure(): the one way an error becomes the user's words, and its kind, which the commands
// turn into an exit code and the console into a flash or an error state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AbortedError, ApiError, InputError, NetworkError, TimeoutError, failure } from '../../src/api/errors.js';
import { ConfigError } from '../../src/config/files.js';
import { UsageError } from '../../src/commands/runtime.js';

const at = ['GET', '/assistants', 'http://127.0.0.1:9'] as const;

test('each kind of error, in one line, with its next step', () => {
  assert.deepEqual(failure(new ApiError(401, 'Invalid API key', ...at)), {
    kind: 'auth',
    message: 'GET /assistants failed (401): Invalid API key',
    hint: 'the API key was refused; run `switchboard login` or set SWITCHBOARD_API_KEY',
  });
  assert.equal(failure(new ApiError(404, 'nope', ...at)).kind, 'service');
  assert.equal(failure(new NetworkError('nothing is answering', 'ECONNREFUSED', ...at)).kind, 'unreachable');
  assert.match(failure(new NetworkError('nothing is answering', 'ECONNREFUSED', ...at)).hint ?? '', /running at http:\/\/127\.0\.0\.1:9/);
  assert.equal(failure(new TimeoutError('headers', 1000, ...at)).kind, 'unreachable');
  assert.equal(failure(new AbortedError(...at)).kind, 'cancelled');
  assert.equal(failure(new DOMException('stop', 'AbortError')).kind, 'cancelled');
  assert.deepEqual(failure(new Error('first\n  second')), { kind: 'unexpected', message: 'first second', hint: undefined });
  assert.equal(failure('a string').message, 'a string');
});

test("the user's own input, whichever layer refused it, is one kind: input", () => {
  for (const err of [new InputError('bad date'), new ConfigError('no profile named "x"'), new UsageError('the message is empty.')]) {
    assert.equal(failure(err).kind, 'input', err.name);
    assert.equal(failure(err).hint, undefined);
  }
  assert.equal(new ConfigError('x').name, 'ConfigError');
  assert.equal(new UsageError('x').name, 'UsageError');
});
