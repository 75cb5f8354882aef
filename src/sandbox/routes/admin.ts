// Sandbox-only controls (not part of the hosted API): POST /sandbox/ring simulates an inbound call
// (to the DID given, or to the next number with an assistant linked).
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import type { SandboxContext } from '../context.js';
import { ringInSandbox, ringNextLinked } from '../ring.js';
import { idText, parseBody } from '../validate.js';

const Ring = z.strictObject({ did: idText(40).optional() });

export function adminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/sandbox/ring', async (request, reply) => {
    const { did } = parseBody(Ring, request.body);
    const { call, to } = did === undefined ? ringNextLinked(ctx) : { call: ringInSandbox(ctx, did), to: did };
    const from = (call.customer as { number: string }).number;
    const assistant = ctx.store.getAssistant(String(call.assistantId));
    // The call rings either way (a caller does dial it); the message says when nobody will pick up.
    const unanswered =
      assistant?.body.status === false ? `; its assistant ${String(assistant.body.name ?? assistant.id)} is inactive, so nobody will answer` : '';
    return reply.code(201).send({ message: `Inbound call from ${from} to ${to} is ringing${unanswered}`, call });
  });
}
