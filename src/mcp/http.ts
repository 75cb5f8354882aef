// The MCP server on the protocol's Streamable HTTP transport: loopback only, every request carrying
// the bearer token, one SDK server and transport per client session over the shared backend.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InputError } from '../api/errors.js';
import { jsonText } from '../format/escape.js';
import { buildServer, type McpBackend } from './server.js';

/** `[host:]port` → where to listen; any host but a loopback one is refused (the server holds the service's key). */
export function listenAddress(spec: string): { host: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(spec.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new InputError(`--http ${spec}: give a port, or host:port on loopback (like 127.0.0.1:8765)`);
  const host = (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
  if (!loopback) throw new InputError(`--http ${spec}: ${host} is not a loopback address; the MCP server listens on 127.0.0.1, ::1 or localhost only`);
  return { host, port };
}

/** A new token: what the server prints once, when no --token-file gives one. */
export const newToken = () => randomBytes(24).toString('base64url');

function authorized(req: IncomingMessage, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(jsonText({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new InputError('request body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export async function serveHttp(backend: McpBackend, where: { host: string; port: number }, token: string): Promise<{ server: Server; url: string }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const hostNames = (port: number) => [`${where.host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  let allowedHosts: string[] = [];
  const { createServer } = process.getBuiltinModule('node:http');
  const server = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return reply(res, 404, 'the MCP endpoint is /mcp');
      if (!authorized(req, token)) return reply(res, 401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
      const sid = req.headers['mcp-session-id'];
      const id = Array.isArray(sid) ? sid[0] : sid;
      let parsed: unknown;
      if (req.method === 'POST') {
        try {
          parsed = await body(req);
        } catch (err) {
          return reply(res, 400, `unreadable request: ${(err as Error).message}`);
        }
      }
      let transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        if (id) return reply(res, 404, 'no such session: initialize again');
        if (req.method !== 'POST' || !isInitializeRequest(parsed)) return reply(res, 400, 'no session: the first request must be initialize');
        const t = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          enableDnsRebindingProtection: true,
          allowedHosts,
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, t),
          onsessionclosed: (sessionId) => void sessions.delete(sessionId),
        });
        t.onclose = () => {
          if (t.sessionId) sessions.delete(t.sessionId);
        };
        await buildServer(backend).connect(t);
        transport = t;
      }
      await transport.handleRequest(req, res, parsed);
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, `the MCP server failed: ${backend.scrub((err as Error).message)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  allowedHosts = hostNames(port);
  const shownHost = where.host.includes(':') ? `[${where.host}]` : where.host;
  return { server, url: `http://${shownHost}:${port}/mcp` };
}
