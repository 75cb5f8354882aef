// A deliberately faulty Voice Agent Service: a real node:http server whose behaviour is
// switched by mode, to test how the commands and the console take every kind of failure.
// 'healthy' forwards to a real upstream (a test sandbox), so a retry can be seen to succeed.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | 'healthy'
  /** the port is closed: connection refused */
  | 'refuse'
  /** headers and part of the body, then the connection is reset */
  | 'reset'
  /** never answers (slower than any timeout) */
  | 'slow'
  | '500'
  | '502'
  | '503'
  /** 200 with a body that is not valid JSON */
  | 'malformed-json'
  /** a proxy's HTML error page */
  | 'html'
  /** 200 with JSON of the wrong shape */
  | 'wrong-shape';

/** Not a fault the client can name: forwards to the upstream, which does the work, but holds a POST's answer (never sent, like 'slow'). */
export type ServerMode =
  | FaultMode
  | 'late'
  /** 200, chunked, a body that never ends (64 KiB chunks as fast as they are taken) */
  | 'endless'
  /** 200, one byte of a body every 100 ms: never silent, never done */
  | 'trickle';

export const FAULT_MODES: readonly FaultMode[] = ['refuse', 'reset', 'slow', '500', '502', '503', 'malformed-json', 'html', 'wrong-shape'];

export interface FaultyServer {
  url: string;
  mode: ServerMode;
  /** Requests seen (method and path), oldest first. */
  seen: string[];
  /** The same requests with their bodies (once read), oldest first. */
  requests: { method: string; url: string; body: string }[];
  /** Requests the upstream has answered (method and path), whether or not the answer was passed on yet. */
  answered: string[];
  setMode(mode: ServerMode): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultyServer(opts: {
  mode: ServerMode;
  upstream?: string;
  /** 'healthy': how long to hold the upstream's answer to a request before passing it on (ms; 0 or none: at once). */
  holdAnswer?: (method: string, url: string) => number;
}): Promise<FaultyServer> {
  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();
  const seen: string[] = [];
  const requests: FaultyServer['requests'] = [];
  const answered: string[] = [];
  let mode = opts.mode;

  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const entry = { method: req.method ?? '', url: req.url ?? '', body: '' };
    requests.push(entry);
    req.on('data', (c: Buffer) => (entry.body += c.toString()));
    answer(mode, req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function answer(m: ServerMode, req: IncomingMessage, res: ServerResponse) {
    switch (m) {
      case 'healthy':
        return forward(req, res);
      case 'late':
        if (req.method !== 'POST') return forward(req, res);
        held.add(res);
        res.on('close', () => held.delete(res));
        return forward(req, res, true);
      case 'refuse': // a request that got in just before the port closed
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"assistants": [{"id": "a1", "name": "half');
        setImmediate(() => req.socket.resetAndDestroy());
        return;
      case 'slow':
        held.add(res);
        res.on('close', () => held.delete(res));
        return; // answered only when the mode changes or the server closes
      case '500':
      case '502':
      case '503': {
        const status = Number(m);
        const body = JSON.stringify({ statusCode: status, error: 'Server Error', message: `faulty server answering ${status}` });
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
        return;
      }
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"assistants": [{"id": "a1", "name": ');
        return;
      case 'html':
        res
          .writeHead(502, { 'content-type': 'text/html' })
          .end('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>');
        return;
      case 'endless': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.write('{"assistants": [');
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
        return;
      }
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'wrong-shape':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ hello: 'world', assistants: 'not a list', phoneNumbers: 7, files: null, calls: {} }));
        return;
    }
  }

  /** `hold`: the upstream's answer is read and dropped; the client gets none. */
  function forward(req: IncomingMessage, res: ServerResponse, hold = false) {
    if (!opts.upstream) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ assistants: [], phoneNumbers: [], calls: [], files: [], pagination: { total: 0, page: 1, limit: 20, totalPages: 0 } }));
      return;
    }
    const up = new URL(opts.upstream);
    const proxied = httpRequest(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
      (upRes) => {
        answered.push(`${req.method} ${req.url}`);
        if (hold) return void upRes.resume();
        const pass = () => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        };
        const ms = opts.holdAnswer?.(req.method ?? '', req.url ?? '') ?? 0;
        if (ms > 0) setTimeout(pass, ms);
        else pass();
      },
    );
    proxied.on('error', () => res.destroy());
    req.pipe(proxied);
  }

  const listen = (port: number) =>
    new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', fail);
        done();
      });
    });
  const stopListening = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
    });
  const releaseHeld = () => {
    for (const res of held) res.destroy();
    held.clear();
  };

  await listen(0);
  const port = (server.address() as AddressInfo).port;
  if (mode === 'refuse') await stopListening();

  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    seen,
    requests,
    answered,
    async setMode(next) {
      if (next === mode) return;
      const was = mode;
      mode = next;
      releaseHeld();
      if (next === 'refuse') await stopListening();
      else if (was === 'refuse') await listen(port);
    },
    async close() {
      releaseHeld();
      if (mode !== 'refuse') await stopListening();
    },
  };
}
