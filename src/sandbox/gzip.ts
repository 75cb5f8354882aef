// Large answers (a page of calls is a lot of JSON) are gzipped for clients that ask.
// Streams (file bytes) and small answers go as they are.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

const gzipAsync = promisify(gzip);
/** Below this, compressing costs more than it saves. */
const GZIP_MIN_BYTES = 1024;

function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function addVary(reply: FastifyReply, field: string): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (
    !vary
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(field.toLowerCase())
  )
    reply.header('vary', vary ? `${vary}, ${field}` : field);
}

export function installGzip(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (Buffer.byteLength(payload) < GZIP_MIN_BYTES || reply.getHeader('content-encoding')) return payload;
    addVary(reply, 'Accept-Encoding');
    if (request.method === 'HEAD' || !acceptsGzip(request.headers['accept-encoding'])) return payload;
    reply.header('content-encoding', 'gzip');
    reply.removeHeader('content-length');
    return gzipAsync(payload);
  });
}
