// GET /calls, GET /calls/details, POST /calls/outbound.
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import { CALL_FILTER_KEYS } from '../../api/schemas.js';
import type { SandboxContext } from '../context.js';
import type { CallQuery } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { loadKnowledge } from '../files.js';
import { CallScript, callView, listViewChangesAt, planCall } from '../simulate.js';
import { DetailedCallJson, ListedCallJson, PageCache } from '../page-cache.js';
import { checkQuery, dateParam, E164, EMPTY_ID, idText, intParam, parseBody, text } from '../validate.js';
import { getAssistantOr404 } from './assistants.js';

export const DEFAULT_CALL_LIMIT = 100;
export const MAX_CALL_LIMIT = 1000;

const msOf = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

function callQuery(raw: unknown): CallQuery {
  const q = checkQuery(raw, CALL_FILTER_KEYS);
  for (const name of ['id', 'assistantId', 'phoneNumberId']) if (q[name] === '') throw badRequest(`${name} ${EMPTY_ID}`);
  return {
    id: q.id as string | undefined,
    assistantId: q.assistantId as string | undefined,
    phoneNumberId: q.phoneNumberId as string | undefined,
    createdFrom: msOf(dateParam(q, 'createdAtGt', false)),
    createdTo: msOf(dateParam(q, 'createdAtLt', true)),
    limit: intParam(q, 'limit', 1, MAX_CALL_LIMIT, DEFAULT_CALL_LIMIT),
  };
}

const OutboundCall = z.strictObject({
  assistantId: idText(200),
  phoneNumberId: idText(200),
  customer: z.looseObject({
    number: z.string().regex(E164, 'must be E.164 like +14155550100 (a +, the country code, then the number)'),
    name: text(200).optional(),
  }),
});

export function callRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const pages = new PageCache();
  const listed = new ListedCallJson();
  app.get('/calls', async (request, reply) => {
    // Read before the query: a write landing in between leaves the page stale-marked, not stale.
    const version = ctx.store.callsVersion();
    const now = Date.now();
    let body = pages.get(request.url, version, now);
    if (!body) {
      const calls = ctx.store.queryCalls(callQuery(request.query), false);
      const message = `Found ${calls.length} call${calls.length === 1 ? '' : 's'}`;
      body = Buffer.from(`{"message":${JSON.stringify(message)},"calls":[${calls.map((c) => listed.of(c, now)).join(',')}]}`);
      const validUntil = calls.reduce((t, c) => Math.min(t, listViewChangesAt(c, now)), Infinity);
      pages.set(request.url, { body, version, builtAt: now, validUntil });
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });

  const detailed = new DetailedCallJson((id) => ctx.store.conversation(id));
  app.get('/calls/details', async (request, reply) => {
    // The spec describes `id` as a filter: an unknown id is an empty list, as on /calls.
    const calls = ctx.store.queryCallsWithConversation(callQuery(request.query));
    const now = Date.now();
    const message = `Found ${calls.length} call${calls.length === 1 ? '' : 's'}`;
    // The bytes JSON.stringify({ message, calls: callView(…) }) would be, built from each
    // conversation's pieces: a page of full records is large.
    return reply.type('application/json; charset=utf-8').send(detailed.page(message, calls, now));
  });

  app.post('/calls/outbound', async (request, reply) => {
    const body = parseBody(OutboundCall, request.body);
    const assistant = getAssistantOr404(ctx, body.assistantId);
    const number = ctx.store.getPhoneNumber(body.phoneNumberId);
    if (!number) throw notFound(`no phone number with id ${body.phoneNumberId}`);
    const call = planCall({
      type: 'outboundPhoneCall',
      assistantId: assistant.id,
      phoneNumberId: number.id,
      script: new CallScript(assistant.body, loadKnowledge(ctx.store, ctx.dataDir, assistant.body)),
      customer: { number: body.customer.number, name: body.customer.name },
      createdAt: Date.now(),
      pace: ctx.callPace,
    });
    ctx.store.insertCall(call);
    return reply.code(201).send({ message: `Call to ${body.customer.number} queued`, call: callView(call, Date.now(), true) });
  });
}
