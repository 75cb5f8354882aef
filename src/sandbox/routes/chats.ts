// POST /sessions, GET /chats/session/{id}, POST /chats. A session keeps its messages; a chat is
// one exchange: the user's input and the assistant's deterministic reply (chat.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import type { SandboxContext } from '../context.js';
import type { SessionRow } from '../db.js';
import { notFound } from '../errors.js';
import { loadKnowledge } from '../files.js';
import { chatCost, clockVariables, composeReply, personaOf, unsetVariables } from '../chat.js';
import { helperReply } from '../evals.js';
import { idText, parseBody, requiredText, text } from '../validate.js';
import { getAssistantOr404 } from './assistants.js';

/** Session status: 'active' while it can take messages (sessions never close in the sandbox). */
export const SESSION_STATUSES = ['active'] as const;
/** Chat status: 'completed' once the reply is in (replies are synchronous in the sandbox). */
export const CHAT_STATUSES = ['completed'] as const;

const CreateSession = z.strictObject({ name: text(200).optional(), assistantId: idText(200) });
const SendChat = z.strictObject({
  sessionId: idText(200),
  input: requiredText(10_000),
  assistantOverrides: z.looseObject({ variableValues: z.record(z.string(), z.unknown()).optional() }).optional(),
});

export const sessionRecord = (s: SessionRow) => ({
  id: s.id,
  name: s.name,
  assistantId: s.assistantId,
  status: s.status,
  messages: s.messages,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export function chatRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/sessions', async (request, reply) => {
    const body = parseBody(CreateSession, request.body);
    const assistant = getAssistantOr404(ctx, body.assistantId);
    const at = new Date();
    const persona = personaOf(assistant.body, clockVariables(at));
    const now = at.toISOString();
    const session: SessionRow = {
      id: randomUUID(),
      name: body.name?.trim() || `Chat with ${persona.name}`,
      assistantId: assistant.id,
      status: 'active',
      messages: persona.speaksFirst && persona.firstMessage.trim() ? [{ role: 'assistant', content: persona.firstMessage }] : [],
      variableValues: {},
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.insertSession(session);
    return reply.code(201).send({ message: 'Session created successfully', session: sessionRecord(session) });
  });

  app.get<{ Params: { sessionId: string } }>('/chats/session/:sessionId', async (request) => {
    const session = ctx.store.getSession(request.params.sessionId);
    if (!session) throw notFound(`no chat session with id ${request.params.sessionId}`);
    return { message: 'Session retrieved successfully', session: sessionRecord(session) };
  });

  app.post('/chats', async (request, reply) => {
    const body = parseBody(SendChat, request.body);
    const session = ctx.store.getSessionHead(body.sessionId);
    if (!session) throw notFound(`no chat session with id ${body.sessionId}`);
    const assistant = getAssistantOr404(ctx, session.assistantId);
    // Variable values given once hold for the rest of the session; later ones override.
    const variableValues = { ...session.variableValues, ...(body.assistantOverrides?.variableValues ?? {}) };
    const at = new Date();
    const persona = personaOf(assistant.body, { ...clockVariables(at), ...variableValues });
    // A caller's or judge's reply reads the session's messages; any other turn never reads them.
    const output =
      helperReply(persona.systemPrompt, () => ctx.store.getSession(session.id)?.messages ?? [], body.input) ??
      composeReply(persona, loadKnowledge(ctx.store, ctx.dataDir, assistant.body), body.input);
    // A hosted service leaves an unset {{variable}} as written; the sandbox also says which.
    const missing = unsetVariables(output);
    const now = at.toISOString();
    const id = randomUUID();
    const chat = {
      id,
      externalChatId: `sandbox-chat-${id}`,
      sessionId: session.id,
      input: body.input,
      output: [{ role: 'assistant', content: output }],
      assistantId: assistant.id,
      status: 'completed',
      cost: chatCost(body.input, output),
      createdAt: now,
      updatedAt: now,
      assistantOverrides: { variableValues },
      ...(missing.length ? { missingVariables: missing } : {}),
    };
    const added = [
      { role: 'user', content: body.input },
      { role: 'assistant', content: output },
    ];
    ctx.store.recordChat({ ...session, variableValues, updatedAt: now }, added, chat);
    const unset = missing.map((v) => `{{${v}}}`).join(', ');
    const note = missing.length ? `; ${unset} ${missing.length === 1 ? 'has' : 'have'} no value (give it in assistantOverrides.variableValues)` : '';
    return reply.code(201).send({ message: `Chat message sent successfully${note}`, chat });
  });
}
