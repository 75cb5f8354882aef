// Sandbox-only controls (not part of the hosted API): POST /sandbox/ring simulates an inbound call.
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import type { SandboxContext } from '../context.js';
import { ringInSandbox } from '../ring.js';
import { idText, parseBody } from '../validate.js';

const Ring = z.strictObject({ did: idText(40) });

export function adminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/sandbox/ring', async (request, reply) => {
    const { did } = parseBody(Ring, request.body);
    const call = ringInSandbox(ctx, did);
    const from = (call.customer as { number: string }).number;
    return reply.code(201).send({ message: `Inbound call from ${from} to ${did} is ringing`, call });
  });
}
