// --cors <origin>: a browser app under development (on that origin, or any with "*") may call the
// sandbox. Preflights are answered before the key check (browsers send them without it); every
// other answer, errors included, carries the origin so the app can read why a call failed.
import type { FastifyInstance } from 'fastify';

const METHODS = 'GET, HEAD, POST, PATCH, DELETE';
const HEADERS = 'x-api-key, content-type';

export function installCors(app: FastifyInstance, allowed: string): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || (allowed !== '*' && origin !== allowed)) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .code(204)
        .header('access-control-allow-methods', METHODS)
        .header('access-control-allow-headers', HEADERS)
        .header('access-control-max-age', '600')
        .send();
    }
    reply.header('access-control-expose-headers', 'content-disposition');
  });
}

/** "*" or a browser origin: scheme, host and port only. */
export function checkCorsOrigin(value: string): string | undefined {
  if (value === '*') return value;
  try {
    const u = new URL(value);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value) return value;
  } catch {
    // not a URL
  }
  return undefined;
}
