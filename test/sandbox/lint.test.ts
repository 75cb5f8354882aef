// The served OpenAPI document passes Redocly's linter (@redocly/openapi-core, the engine of
// `redocly lint`) with its recommended rules: 0 errors, 0 warnings. Offline: the document is
// linted from the string the sandbox served, with no external references.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { sandboxForFile } from '../support/sandbox.js';

describe('the OpenAPI document passes an established linter', () => {
  const sb = sandboxForFile({ seed: false });

  test('Redocly recommended rules: no errors, no warnings', async () => {
    const source = await (await fetch(`${sb.url}/openapi.json`)).text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: `${sb.url}/openapi.json`, config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    assert.deepEqual(lines, []);
  });
});
