// Tiny real HTTP servers for the transport tests: each answers the way some service or proxy
// really does (bare arrays, 503 then 200, stalls, resets, HTML pages). Not mocks: the client
// talks to them over loopback like to anything else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The client's port: requests on one kept-alive connection share it. */
  port: number | undefined;
}

export interface TestServer {
  url: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, port: req.socket.remotePort });
    void handler(req, res, requests.length);
  });
  const state = { connections: 0 };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Reads and discards the request body, returning how many bytes arrived. */
export async function drain(req: IncomingMessage): Promise<number> {
  let n = 0;
  for await (const chunk of req) n += (chunk as Buffer).length;
  return n;
}
