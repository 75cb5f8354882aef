// x-api-key on every route but GET (and HEAD) /openapi.json. The comparison hashes both sides first so
// timingSafeEqual sees equal-length buffers and the key's length does not leak through timing.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';
import { INSTANCE_HEADER } from './registry.js';

/** Names the scheme on every 401 (RFC 9110 asks for it): the key goes in the x-api-key header. */
export const WWW_AUTHENTICATE = 'ApiKey header="x-api-key"';

const PUBLIC_PATHS = new Set(['/openapi.json']);

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

function keyMatches(expectedDigest: Buffer, given: unknown): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(expectedDigest, digest(given));
}

/** A fresh key for a sandbox that was not given one. */
export function generateApiKey(): string {
  return `sk-sandbox-${randomBytes(20).toString('hex')}`;
}

/**
 * `registered`: a registered sandbox's token, accepted as a key too, and its nonce, sent back to
 * any request with the key or the token (src/sandbox/registry.ts).
 */
export function installAuth(app: FastifyInstance, apiKey: string, registered?: { token: string; instance: string }): void {
  const expected = digest(apiKey);
  const token = registered ? digest(registered.token) : undefined;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    const given = request.headers['x-api-key'];
    const matches = keyMatches(expected, given) || (token !== undefined && keyMatches(token, given));
    if (matches && registered) reply.header(INSTANCE_HEADER, registered.instance);
    if ((request.method === 'GET' || request.method === 'HEAD') && PUBLIC_PATHS.has(path)) return;
    if (given === undefined) return sendError(reply.header('www-authenticate', WWW_AUTHENTICATE), 401, 'missing x-api-key header');
    if (!matches) return sendError(reply.header('www-authenticate', WWW_AUTHENTICATE), 401, 'invalid API key in x-api-key header');
  });
}
