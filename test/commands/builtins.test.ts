// Which of Node's own modules a command loads: a request over HTTP/1.1 does not load node:http2
// (undici's HTTP/2 client takes it on its first HTTP/2 connection, src/patches/undici+…+lazy-http2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { sandboxForCli } from '../support/sandbox.js';

const on = sandboxForCli();

/** Node's modules a run of `args` loaded (process.moduleLoadList at exit, through a --require hook). */
async function builtinsOf(args: string[]): Promise<string[]> {
  const hook = join(on.home.dir, 'builtins-hook.cjs');
  const out = join(on.home.dir, 'builtins.txt');
  writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  const r = await runCli(args, { env: { ...on.env, NODE_OPTIONS: `--require ${hook}` } });
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(out, 'utf8').split('\n');
}

test('a command that asks the service over HTTP/1.1 does not load node:http2', async () => {
  const loaded = await builtinsOf(['assistants', 'list', '-o', 'json']);
  assert.ok(loaded.includes('NativeModule http'), 'it made a request (node:http is loaded)');
  assert.ok(!loaded.includes('NativeModule http2'), 'node:http2 is loaded');
});
