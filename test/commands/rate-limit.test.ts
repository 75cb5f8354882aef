// `calls list --all` against a service that rate-limits every other request: a real sandbox
// behind a small real proxy that answers 429 (with and without Retry-After) in between.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxForFile } from '../support/sandbox.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';

const sb = sandboxForFile();
let home: CliHome;
let proxy: Server;
let proxyUrl: string;
const seen: number[] = [];

before(async () => {
  await sb.started;
  home = tempHome();
  const up = new URL(sb.url);
  let n = 0;
  proxy = createServer((req, res) => {
    n++;
    if (n % 2 === 0) {
      seen.push(429);
      // Every other 429 says how long to wait; the rest leave it to the client.
      res.writeHead(429, { 'content-type': 'application/json', ...(n % 4 === 0 ? { 'retry-after': '0' } : {}) });
      res.end(JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'rate limit exceeded' }));
      return;
    }
    seen.push(200);
    const upstream = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
after(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  home.cleanup();
});

test('calls list --all survives a rate-limited service and lists the same calls as without one', async () => {
  const direct = await runCli(['calls', 'list', '--all', '--limit', '40', '-o', 'ids'], {
    env: { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey },
  });
  assert.equal(direct.code, 0, direct.stderr);
  const limited = await runCli(['calls', 'list', '--all', '--limit', '40', '-o', 'ids'], {
    env: { ...home.env, SWITCHBOARD_BASE_URL: proxyUrl, SWITCHBOARD_API_KEY: sb.apiKey },
  });
  assert.equal(limited.code, 0, limited.stderr);
  assert.ok(seen.filter((s) => s === 429).length >= 3, `rate limited ${seen.filter((s) => s === 429).length} times`);
  assert.equal(limited.stdout, direct.stdout);
  assert.ok(direct.stdout.split('\n').filter(Boolean).length > 80, 'several pages');
});
