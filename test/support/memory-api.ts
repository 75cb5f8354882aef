// An in-memory VoiceAgentApi for store and UI tests that are not about HTTP: no server, no
// SQLite, no port. It holds the records a fresh sandbox holds (the sandbox's own seed, from
// assets/, through src/sandbox/seed.ts) and answers as the sandbox does through the real client:
// the same wire records (the sandbox's route functions) parsed by the client's schemas, the same
// order and paging, a 404 or 400 as the client's ApiError with the sandbox's words, the same chat
// replies. test/api/memory-api.test.ts runs one set of assertions against both, so they
// cannot drift apart. Timing, retries, envelopes and faults are HTTP's: those tests keep the sandbox.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FilesPage, VoiceAgentApi, Written } from '../../src/api/contract.js';
import { ConnectionStateFeed, stateAfter, type ConnectionListener } from '../../src/api/connection-state.js';
import { AbortedError, ApiError } from '../../src/api/errors.js';
import {
  AssistantSchema,
  CallSchema,
  ChatSchema,
  ChatSessionSchema,
  KbFileSchema,
  PhoneNumberSchema,
  reportNotApplied,
  type CallFilters,
} from '../../src/api/schemas.js';
import { limitNamedIn, mergeTraits, type ServiceTraits } from '../../src/api/traits.js';
import { chatCost, clockVariables, composeReply, knowledgeFileIds, personaOf, type KnowledgeDoc } from '../../src/sandbox/chat.js';
import { withoutFileId, type AssistantRow, type CallRow, type FileRow, type PhoneNumberRow, type SessionRow } from '../../src/sandbox/db.js';
import { mimetypeOf } from '../../src/sandbox/files.js';
import { assistantRecord } from '../../src/sandbox/routes/assistants.js';
import { DEFAULT_CALL_LIMIT, MAX_CALL_LIMIT } from '../../src/sandbox/routes/calls.js';
import { sessionRecord } from '../../src/sandbox/routes/chats.js';
import { DEFAULT_FILE_PAGE_LIMIT, MAX_FILE_PAGE_LIMIT, fileRecord } from '../../src/sandbox/routes/files.js';
import { phoneNumberRecord } from '../../src/sandbox/routes/phone-numbers.js';
import { seedStore } from '../../src/sandbox/seed.js';
import { CallScript, callView, planCall } from '../../src/sandbox/simulate.js';
import { E164 } from '../../src/sandbox/validate.js';

export interface MemoryApiOptions {
  /** The sandbox's demo records (default), or none. */
  seed?: boolean;
  /** What `baseUrl` says and file URLs start with. */
  baseUrl?: string;
  /** Milliseconds from a placed call's creation to its ringing, answer and end (the sandbox's `callPace`). */
  callPace?: number;
  traits?: ServiceTraits;
  /** Answer every operation with the sandbox's 401 for a wrong key (a console opened with a bad key). */
  wrongKey?: boolean;
}

/** The memory service, with its records open to the test (change them to set up a case). */
export interface MemoryApi extends VoiceAgentApi {
  readonly records: {
    assistants: AssistantRow[];
    numbers: PhoneNumberRow[];
    files: FileRow[];
    /** Newest first, as the sandbox orders them. */
    calls: CallRow[];
    sessions: Map<string, SessionRow>;
  };
  /** Every operation asked, by name (`listCalls`, `getFile`, …), in order. */
  readonly asked: string[];
  /** Whether close() was called (it changes nothing else: a file may share one memory api among its consoles). */
  readonly closed: boolean;
}

const byNewest = (a: CallRow, b: CallRow) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const byNewestFile = (a: FileRow, b: FileRow) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1);

export function createMemoryApi(opts: MemoryApiOptions = {}): MemoryApi {
  const baseUrl = opts.baseUrl ?? 'http://memory.invalid';
  const records: MemoryApi['records'] = { assistants: [], numbers: [], files: [], calls: [], sessions: new Map() };
  const texts = new Map<string, string>();
  const asked: string[] = [];
  const feed = new ConnectionStateFeed();
  const traits: ServiceTraits = { ...opts.traits };
  let closed = false;
  /** Rings so far without a DID: the next linked number's turn. */
  let rings = 0;

  const fileById = (id: string) => records.files.find((f) => f.id === id);
  const knowledge = (assistant: Record<string, unknown>): KnowledgeDoc[] =>
    knowledgeFileIds(assistant).flatMap((id) => {
      const f = fileById(id);
      const text = texts.get(id);
      return f && f.status === 'done' && text !== undefined ? [{ name: f.name, text }] : [];
    });

  if (opts.seed !== false) {
    seedStore({
      insertFile: (f) => void records.files.push(f),
      saveText: (id, text) => void texts.set(id, text),
      insertAssistant: (a) => void records.assistants.push(a),
      insertPhoneNumber: (n) => void records.numbers.push(n),
      listAssistants: () => records.assistants,
      listPhoneNumbers: () => records.numbers,
      countFiles: () => records.files.length,
      insertCalls: (calls) => records.calls.push(...calls),
      knowledge,
    });
    records.calls.sort(byNewest);
  }

  /** One operation: answered after the caller's turn (as a request is), its outcome fed to connectionState. */
  async function op<T>(name: string, method: string, path: string, signal: AbortSignal | undefined, run: () => T): Promise<T> {
    asked.push(name);
    await new Promise((r) => setImmediate(r));
    if (signal?.aborted) throw new AbortedError(method, path, baseUrl);
    try {
      if (opts.wrongKey) throw new ApiError(401, 'invalid API key in x-api-key header', method, path, baseUrl, 'Unauthorized');
      const out = run();
      feed.set('online');
      return out;
    } catch (err) {
      if (err instanceof ApiError) feed.set(stateAfter(err));
      throw err;
    }
  }
  const fail = (status: 400 | 404 | 409, method: string, path: string, message: string) =>
    new ApiError(status, message, method, path, baseUrl, { 400: 'Bad Request', 404: 'Not Found', 409: 'Conflict' }[status]);
  const assistantOr404 = (method: string, path: string, id: string) => {
    const a = records.assistants.find((x) => x.id === id);
    if (!a) throw fail(404, method, path, `no assistant with id ${id}`);
    return a;
  };
  const file = (f: FileRow) => KbFileSchema.parse(fileRecord({ baseUrl: () => baseUrl }, f));

  /**
   * The client's page-size rule (src/api/client.ts, `capped`): never above a cap it learned; a
   * size over the service's maximum gets the sandbox's 400, which the client asks again at the
   * size that 400 names (else its fallback, 100) and learns.
   */
  function capped(limit: number, max: number, cap: 'callPageCap' | 'filesPageCap'): number {
    const known = traits[cap];
    const asked = known !== undefined && limit > known ? known : limit;
    if (asked <= max) return asked;
    const named = limitNamedIn(`limit must be a whole number from 1 to ${max}`) ?? 100;
    api.learn({ [cap]: named });
    return named;
  }

  function callsFor(filters: CallFilters | undefined, path: string, full: boolean) {
    const limit = capped(filters?.limit ?? DEFAULT_CALL_LIMIT, MAX_CALL_LIMIT, 'callPageCap');
    if (!Number.isInteger(limit) || limit < 1) throw fail(400, 'GET', path, `limit must be a whole number from 1 to ${MAX_CALL_LIMIT}`);
    const from = filters?.createdAtGt === undefined ? -Infinity : Date.parse(filters.createdAtGt);
    const to = filters?.createdAtLt === undefined ? Infinity : Date.parse(filters.createdAtLt);
    const now = Date.now();
    return records.calls
      .filter(
        (c) =>
          (!filters?.id || c.id === filters.id) &&
          (!filters?.assistantId || c.assistantId === filters.assistantId) &&
          (!filters?.phoneNumberId || c.phoneNumberId === filters.phoneNumberId) &&
          c.createdAt >= from &&
          c.createdAt <= to,
      )
      .slice(0, limit)
      .map((c) => CallSchema.parse(callView(c, now, full)));
  }

  const api: MemoryApi = {
    baseUrl,
    get connectionState() {
      return feed.state;
    },
    onConnectionState: (listener: ConnectionListener) => feed.subscribe(listener),
    traits,
    learn(patch) {
      Object.assign(traits, mergeTraits(traits, patch));
    },
    records,
    asked,
    get closed() {
      return closed;
    },

    listCalls: (filters, ro) => op('listCalls', 'GET', '/calls', ro?.signal, () => callsFor(filters, '/calls', false)),
    callDetails: (filters, ro) => op('callDetails', 'GET', '/calls/details', ro?.signal, () => callsFor(filters, '/calls/details', true)),
    getCall: (id, ro) =>
      op('getCall', 'GET', `/calls/details?id=${id}`, ro?.signal, () => {
        const found = callsFor({ id }, '/calls/details', true)[0];
        if (!found) throw fail(404, 'GET', `/calls/details?id=${encodeURIComponent(id)}`, `no call with id ${id}`);
        return found;
      }),
    placeOutboundCall: (input, ro) =>
      op('placeOutboundCall', 'POST', '/calls/outbound', ro?.signal, (): Written<ReturnType<typeof CallSchema.parse>> => {
        const path = '/calls/outbound';
        if (!E164.test(input.customer.number)) {
          throw fail(400, 'POST', path, 'customer.number must be E.164 like +14155550100 (a +, the country code, then the number)');
        }
        const assistant = assistantOr404('POST', path, input.assistantId);
        const number = records.numbers.find((n) => n.id === input.phoneNumberId);
        if (!number) throw fail(404, 'POST', path, `no phone number with id ${input.phoneNumberId}`);
        const call = planCall({
          type: 'outboundPhoneCall',
          assistantId: assistant.id,
          phoneNumberId: number.id,
          script: new CallScript(assistant.body, knowledge(assistant.body)),
          customer: { number: input.customer.number, name: input.customer.name },
          createdAt: Date.now(),
          pace: opts.callPace ?? 1000,
        });
        records.calls.push(call);
        records.calls.sort(byNewest);
        return { record: CallSchema.parse(callView(call, Date.now(), true)), message: `Call to ${input.customer.number} queued` };
      }),

    createSession: (input, ro) =>
      op('createSession', 'POST', '/sessions', ro?.signal, () => {
        const assistant = assistantOr404('POST', '/sessions', input.assistantId);
        const at = new Date();
        const persona = personaOf(assistant.body, clockVariables(at));
        const session: SessionRow = {
          id: randomUUID(),
          name: input.name?.trim() || `Chat with ${persona.name}`,
          assistantId: assistant.id,
          status: 'active',
          messages: persona.speaksFirst && persona.firstMessage.trim() ? [{ role: 'assistant', content: persona.firstMessage }] : [],
          variableValues: {},
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
        };
        records.sessions.set(session.id, session);
        return { record: ChatSessionSchema.parse(sessionRecord(session)), message: 'Session created successfully' };
      }),
    getSession: (sessionId, ro) =>
      op('getSession', 'GET', `/chats/session/${sessionId}`, ro?.signal, () => {
        const s = records.sessions.get(sessionId);
        if (!s) throw fail(404, 'GET', `/chats/session/${encodeURIComponent(sessionId)}`, `no chat session with id ${sessionId}`);
        return ChatSessionSchema.parse(sessionRecord(s));
      }),
    sendChat: ({ sessionId, input, variableValues: given }, ro) =>
      op('sendChat', 'POST', '/chats', ro?.signal, () => {
        const session = records.sessions.get(sessionId);
        if (!session) throw fail(404, 'POST', '/chats', `no chat session with id ${sessionId}`);
        if (!input.trim()) throw fail(400, 'POST', '/chats', 'input must not be empty');
        const assistant = assistantOr404('POST', '/chats', session.assistantId);
        const variableValues = { ...session.variableValues, ...(given ?? {}) };
        const at = new Date();
        const persona = personaOf(assistant.body, { ...clockVariables(at), ...variableValues });
        const output = composeReply(persona, knowledge(assistant.body), input);
        const now = at.toISOString();
        const id = randomUUID();
        const chat = {
          id,
          externalChatId: `sandbox-chat-${id}`,
          sessionId,
          input,
          output: [{ role: 'assistant', content: output }],
          assistantId: assistant.id,
          status: 'completed',
          cost: chatCost(input, output),
          createdAt: now,
          updatedAt: now,
          assistantOverrides: { variableValues },
        };
        records.sessions.set(sessionId, {
          ...session,
          messages: [...session.messages, { role: 'user', content: input }, { role: 'assistant', content: output }],
          variableValues,
          updatedAt: now,
        });
        return { record: ChatSchema.parse(chat), message: 'Chat message sent successfully' };
      }),

    listAssistants: (ro) =>
      op('listAssistants', 'GET', '/assistants', ro?.signal, () => records.assistants.map((a) => AssistantSchema.parse(assistantRecord(a)))),
    getAssistant: (id, ro) =>
      op('getAssistant', 'GET', `/assistants/${id}`, ro?.signal, () =>
        AssistantSchema.parse(assistantRecord(assistantOr404('GET', `/assistants/${encodeURIComponent(id)}`, id))),
      ),
    createAssistant: (input, ro) =>
      op('createAssistant', 'POST', '/assistants', ro?.signal, () => {
        if (typeof input.name !== 'string' || !input.name.trim()) throw fail(400, 'POST', '/assistants', 'name is required');
        const now = new Date().toISOString();
        const row: AssistantRow = { id: randomUUID(), body: { ...input }, createdAt: now, updatedAt: now };
        records.assistants.push(row);
        return { record: AssistantSchema.parse(assistantRecord(row)), message: 'Assistant created successfully' };
      }),
    updateAssistant: (id, patch, ro) =>
      op('updateAssistant', 'PATCH', `/assistants/${id}`, ro?.signal, () => {
        const path = `/assistants/${encodeURIComponent(id)}`;
        const current = assistantOr404('PATCH', path, id);
        const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        if (Object.keys(given).length === 0) throw fail(400, 'PATCH', path, 'the body names no assistant field to change');
        current.body = { ...current.body, ...given };
        current.updatedAt = new Date().toISOString();
        const stored = AssistantSchema.parse(assistantRecord(current));
        return { record: reportNotApplied(stored, patch), message: 'Assistant updated successfully' };
      }),

    // As src/sandbox/ring.ts: the DID given (or a number's id), else the linked numbers in turn by DID.
    ringSandbox: (did, ro) =>
      op('ringSandbox', 'POST', '/sandbox/ring', ro?.signal, () => {
        const path = '/sandbox/ring';
        let number: PhoneNumberRow | undefined;
        if (did === undefined) {
          const linked = records.numbers.filter((n) => n.assistantId).sort((a, b) => (a.did < b.did ? -1 : a.did > b.did ? 1 : 0));
          if (!linked.length) throw fail(409, 'POST', path, 'no number of this sandbox has an assistant linked for inbound calls; link one first');
          number = linked[rings++ % linked.length];
        } else {
          const digits = did.replace(/[\s\-().]/g, '');
          const dialled = digits.startsWith('+') ? digits : `+${digits}`;
          number = records.numbers.find((n) => n.did === dialled) ?? records.numbers.find((n) => n.id === did);
          if (!number) throw fail(404, 'POST', path, `no phone number ${did} in this sandbox`);
        }
        if (!number.assistantId) throw fail(409, 'POST', path, `${number.did} has no assistant linked for inbound calls; link one first`);
        const assistant = assistantOr404('POST', path, number.assistantId);
        const from = `+1415555${String(1000 + rings).slice(-4)}`;
        const call = planCall({
          type: 'inboundPhoneCall',
          assistantId: assistant.id,
          phoneNumberId: number.id,
          script: new CallScript(assistant.body, knowledge(assistant.body)),
          customer: { number: from, name: 'Jordan Lee' },
          createdAt: Date.now(),
          pace: opts.callPace ?? 1000,
          ...(assistant.body.status === false ? { endedReason: 'assistant-not-valid' as const } : {}),
        });
        records.calls.push(call);
        records.calls.sort(byNewest);
        const unanswered =
          assistant.body.status === false ? `; its assistant ${String(assistant.body.name ?? assistant.id)} is inactive, so nobody will answer` : '';
        return { message: `Inbound call from ${from} to ${number.did} is ringing${unanswered}`, call: CallSchema.parse(callView(call, Date.now(), true)) };
      }),
    listPhoneNumbers: (ro) =>
      op('listPhoneNumbers', 'GET', '/phone-numbers', ro?.signal, () => records.numbers.map((n) => PhoneNumberSchema.parse(phoneNumberRecord(n)))),
    linkNumber: (input, ro) =>
      op('linkNumber', 'POST', '/phone-numbers/inbound/setup', ro?.signal, () => {
        const path = '/phone-numbers/inbound/setup';
        const assistant = assistantOr404('POST', path, input.assistantId);
        const number = records.numbers.find((n) => n.id === input.phoneNumberId);
        if (!number) throw fail(404, 'POST', path, `no phone number with id ${input.phoneNumberId}`);
        number.assistantId = assistant.id;
        number.updatedAt = new Date().toISOString();
        return { message: 'Inbound agent configured successfully', phoneNumber: PhoneNumberSchema.parse(phoneNumberRecord(number)) };
      }),

    listFiles: (query, ro) =>
      op('listFiles', 'GET', '/files', ro?.signal, (): FilesPage => {
        const page = query?.page ?? 1;
        const limit = capped(query?.limit ?? DEFAULT_FILE_PAGE_LIMIT, MAX_FILE_PAGE_LIMIT, 'filesPageCap');
        if (!Number.isInteger(page) || page < 1) throw fail(400, 'GET', '/files', 'page must be a whole number from 1 to 1000000');
        if (!Number.isInteger(limit) || limit < 1) {
          throw fail(400, 'GET', '/files', `limit must be a whole number from 1 to ${MAX_FILE_PAGE_LIMIT}`);
        }
        const all = [...records.files].sort(byNewestFile);
        const total = all.length;
        const pagination = { total, page, limit, totalPages: Math.ceil(total / limit) };
        return { files: all.slice((page - 1) * limit, page * limit).map(file), pagination };
      }),
    getFile: (id, ro) =>
      op('getFile', 'GET', `/files/${id}`, ro?.signal, () => {
        const f = fileById(id);
        if (!f) throw fail(404, 'GET', `/files/${encodeURIComponent(id)}`, `no file with id ${id}`);
        return file(f);
      }),
    async uploadFile(path, o) {
      const bytes = await readFile(path);
      return op('uploadFile', 'POST', '/files', o?.signal, () => {
        o?.onProgress?.(bytes.length, bytes.length);
        const now = new Date().toISOString();
        const row: FileRow = {
          id: randomUUID(),
          name: o?.name ?? basename(path),
          bytes: bytes.length,
          mimetype: mimetypeOf(o?.name ?? path),
          status: 'processing',
          parsedTextBytes: null,
          createdAt: now,
          updatedAt: now,
        };
        records.files.push(row);
        // As in the sandbox, the text is extracted right after the answer: the new file reads `processing`, then `done`.
        setImmediate(() => {
          texts.set(row.id, bytes.toString('utf8'));
          Object.assign(row, { status: 'done', parsedTextBytes: bytes.length, updatedAt: new Date().toISOString() });
        });
        return { record: file(row), message: 'File uploaded successfully' };
      });
    },
    deleteFile: (id, ro) =>
      op('deleteFile', 'DELETE', `/files/${id}`, ro?.signal, () => {
        const at = records.files.findIndex((f) => f.id === id);
        if (at < 0) throw fail(404, 'DELETE', `/files/${encodeURIComponent(id)}`, `no file with id ${id}`);
        records.files.splice(at, 1);
        texts.delete(id);
        const now = new Date().toISOString();
        for (const a of records.assistants) {
          const body = withoutFileId(a.body, id);
          if (body) Object.assign(a, { body, updatedAt: now });
        }
        return { message: 'File deleted successfully' };
      }),

    async close() {
      closed = true;
    },
  };
  return api;
}
