// HTTP/1.1 over a bare socket, so a test can send what no well-behaved client would: raw
// unicode in the path, odd header values, a body shorter than its Content-Length.
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target exactly as it goes on the wire. */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Send only this many bytes of the body (a client that died mid-request). */
  cutAt?: number;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer, or 'closed' when the server hung up without one (allowed only for cut bodies). */
export function sendRaw(host: string, port: number, req: RawRequest): Promise<RawAnswer | 'closed'> {
  return new Promise((done, fail) => {
    const socket = connect({ host, port });
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may reset a connection whose request it refused before reading it all.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
      fail(err);
    });
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      if (all.length === 0) return done('closed');
      try {
        done(parseAnswer(all));
      } catch (err) {
        fail(err);
      }
    });
    socket.on('connect', () => {
      const head = [`${req.method} ${req.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...req.headers.map(([k, v]) => `${k}: ${v}`)];
      socket.write(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'));
      if (req.body) socket.write(req.cutAt === undefined ? req.body : req.body.subarray(0, req.cutAt));
      // A cut body ends like a client that died: it closes its side. Otherwise the server
      // closes once it has answered (Connection: close).
      if (req.cutAt !== undefined) socket.end();
    });
  });
}

export function parseAnswer(all: Buffer): RawAnswer {
  const split = all.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(all.subarray(0, 200).toString())}`);
  const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
  // An interim answer (100 Continue) comes before the real one.
  if (m[1].startsWith('1')) return parseAnswer(all.subarray(split + 4));
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = all.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: Number(m[1]), headers, body };
}

function dechunk(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
