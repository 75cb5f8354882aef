// The protocol's published conformance suite for servers, against `switchboard mcp --http` on the
// sandbox. The suite's client sends no token, so a loopback proxy in this test adds the bearer
// token; a Host header other than the proxy's own goes through unchanged, so the suite's DNS
// rebinding check still meets the server's. conformance-baseline.yml names what is not passed, and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI, builtSkip, tempHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';

const skip = builtSkip();
const sb = sandboxForFile({ seed: true }, { skip });
const SUITE = fileURLToPath(new URL('dist/index.js', import.meta.resolve('@modelcontextprotocol/conformance/package.json')));
const BASELINE = resolve('test/mcp/conformance-baseline.yml');

test('the MCP conformance suite passes every scenario but the baseline’s', { skip }, async () => {
  const home = tempHome();
  const token = 'conformance-token-0123456789abcdef';
  mkdirSync(join(home.dir, 'secrets'));
  writeFileSync(join(home.dir, 'secrets', 'token'), token);
  const server = spawn(process.execPath, [CLI, 'mcp', '--http', '127.0.0.1:0', '--token-file', join(home.dir, 'secrets', 'token')], {
    env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  const target = await new Promise<URL>((done, fail) => {
    server.stderr.on('data', (d: Buffer) => {
      said += d.toString();
      const m = /at (http:\/\/\S+\/mcp)/.exec(said);
      if (m) done(new URL(m[1]));
    });
    server.on('exit', () => fail(new Error(`switchboard mcp exited: ${said}`)));
  });
  const proxy = createServer((req, res) => {
    const own = req.headers.host === `127.0.0.1:${port()}` || req.headers.host === `localhost:${port()}`;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${token}`, ...(own ? { host: target.host } : {}) },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  const port = () => (proxy.address() as { port: number }).port;
  try {
    const suite = spawn(
      process.execPath,
      [SUITE, 'server', '--url', `http://127.0.0.1:${port()}/mcp`, '--expected-failures', BASELINE, '-o', join(home.dir, 'results')],
      {
        cwd: home.dir,
        env: { PATH: process.env.PATH, HOME: home.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    suite.stdout.on('data', (d: Buffer) => (out += d.toString()));
    suite.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((done) => suite.on('exit', done));
    assert.equal(code, 0, out.slice(-3000));
    for (const passed of ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list', 'prompts-list', 'dns-rebinding-protection'])
      assert.match(out, new RegExp(`✓ ${passed}:`), `${passed} passes`);
  } finally {
    proxy.close();
    server.kill('SIGTERM');
    await new Promise((done) => server.once('exit', done));
    home.cleanup();
  }
});
