// GET /phone-numbers and POST /phone-numbers/inbound/setup (link an assistant for inbound calls).
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import type { SandboxContext } from '../context.js';
import type { PhoneNumberRow } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { idText, parseBody } from '../validate.js';
import { getAssistantOr404 } from './assistants.js';

export const phoneNumberRecord = (n: PhoneNumberRow) => ({
  id: n.id,
  ...n.body,
  did: n.did,
  assistantId: n.assistantId,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
});

const InboundSetup = z.looseObject({ assistantId: idText(200), phoneNumberId: idText(200) });

export function phoneNumberRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/phone-numbers', async () => ({ phoneNumbers: ctx.store.listPhoneNumbers().map(phoneNumberRecord) }));

  app.post('/phone-numbers/inbound/setup', async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const missing = ['assistantId', 'phoneNumberId'].filter((k) => body[k] === undefined || body[k] === null);
      if (missing.length) throw badRequest(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required`);
    }
    const { assistantId, phoneNumberId } = parseBody(InboundSetup, body);
    const assistant = getAssistantOr404(ctx, assistantId);
    const number = ctx.store.getPhoneNumber(phoneNumberId);
    if (!number) throw notFound(`no phone number with id ${phoneNumberId}`);
    const updatedAt = new Date().toISOString();
    ctx.store.linkPhoneNumber(number.id, assistant.id, updatedAt);
    return {
      message: 'Inbound agent configured successfully',
      phoneNumber: phoneNumberRecord({ ...number, assistantId: assistant.id, updatedAt }),
    };
  });
}
