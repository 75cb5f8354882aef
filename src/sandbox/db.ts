// The sandbox's records in SQLite (Node's built-in node:sqlite, WAL). Every SQL statement lives here.
// Durability: journal_mode=WAL with synchronous=FULL, so a write is fsynced before its
// transaction returns; an acknowledged write survives kill -9 (and power loss).
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { openSqlite, pragmaValue, transaction } from './sqlite.js';

export type Db = DatabaseSync;

/** A chat session's message (the spec's `{ role, content }`). */
interface ChatMessage {
  role: string;
  content: string;
}

/** A call's message as the platform's call record has it: text in `message`, role bot, user or system. */
export interface CallMessage {
  role: string;
  message: string;
}

export interface AssistantRow {
  id: string;
  body: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface PhoneNumberRow {
  id: string;
  did: string;
  body: Record<string, unknown>;
  assistantId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A call as stored: its whole planned timeline. What a reader sees is derived in simulate.ts. */
export interface CallRow {
  id: string;
  type: 'outboundPhoneCall' | 'inboundPhoneCall';
  assistantId: string;
  phoneNumberId: string;
  customer: { number: string; name?: string };
  // Epoch milliseconds: small integer index keys; API answers show ISO 8601.
  createdAt: number;
  ringingAt: number;
  answeredAt: number | null; // null: never answered
  endedAt: number;
  endedReason: string;
  cost: number;
  summary: string;
  /** the whole conversation; the transcript is derived from it when read */
  messages: readonly CallMessage[];
}

export interface FileRow {
  id: string;
  name: string;
  bytes: number;
  mimetype: string;
  status: 'processing' | 'done' | 'failed';
  parsedTextBytes: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionRow {
  id: string;
  name: string;
  assistantId: string;
  status: string;
  messages: ChatMessage[];
  variableValues: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface CallQuery {
  id?: string;
  assistantId?: string;
  phoneNumberId?: string;
  /** inclusive lower bound, epoch ms */
  createdFrom?: number;
  /** inclusive upper bound, epoch ms */
  createdTo?: number;
  limit: number;
}

// A session's messages one row each: a turn appends two rows, so its cost does not grow with the
// session (a JSON array in the session's row was read and written whole on every turn).
const SESSION_MESSAGES = `CREATE TABLE session_messages (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;`;

const SCHEMA_VERSION = 6;

const SCHEMA = `
CREATE TABLE assistants (
  id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX assistants_by_created ON assistants(created_at, id);
CREATE TABLE phone_numbers (
  id TEXT PRIMARY KEY, did TEXT NOT NULL UNIQUE, body TEXT NOT NULL, assistant_id TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE calls (
  id TEXT PRIMARY KEY, type TEXT NOT NULL, assistant_id TEXT NOT NULL, phone_number_id TEXT NOT NULL,
  customer TEXT NOT NULL, created_at INTEGER NOT NULL, ringing_at INTEGER NOT NULL, answered_at INTEGER,
  ended_at INTEGER NOT NULL, ended_reason TEXT NOT NULL, cost REAL NOT NULL, summary TEXT NOT NULL,
  conversation_id TEXT NOT NULL);
-- Conversations stored once by content hash: seeded calls repeat a few thousand of them,
-- which keeps a 100,000-call log small and quick to write.
CREATE TABLE conversations (id TEXT PRIMARY KEY, messages TEXT NOT NULL);
CREATE INDEX calls_by_created ON calls(created_at DESC, id DESC);
CREATE INDEX calls_by_assistant ON calls(assistant_id, created_at DESC, id DESC);
CREATE INDEX calls_by_number ON calls(phone_number_id, created_at DESC, id DESC);
CREATE TABLE files (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, bytes INTEGER NOT NULL, mimetype TEXT NOT NULL,
  status TEXT NOT NULL, parsed_text_bytes INTEGER, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX files_by_created ON files(created_at DESC, id DESC);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, assistant_id TEXT NOT NULL, status TEXT NOT NULL,
  variable_values TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
${SESSION_MESSAGES}
CREATE TABLE chats (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX chats_by_session ON chats(session_id, created_at);
`;

export const dataPaths = (dataDir: string) => ({
  db: join(dataDir, 'sandbox.db'),
  files: join(dataDir, 'files'),
  uploads: join(dataDir, 'uploads'),
});

/**
 * Opens (creating if needed, 0700 dir / 0600 file) the data dir's database. `onCreate` runs in
 * the same transaction as the new schema, so a crash while seeding leaves a dir that seeds again.
 */
export function openDatabase(dataDir: string, onCreate?: (db: Db) => void): { db: Db; created: boolean } {
  const paths = dataPaths(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(paths.files, { recursive: true, mode: 0o700 });
  mkdirSync(paths.uploads, { recursive: true, mode: 0o700 });
  if (!existsSync(paths.db)) closeSync(openSync(paths.db, 'a', 0o600));
  chmodSync(paths.db, 0o600); // SQLite gives its -wal/-shm files the same mode
  // busy_timeout: another process (a command, `switchboard sandbox ring`) may write while a server runs.
  const db = openSqlite(paths.db, { timeout: 5000 });
  let created = false;
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON');
    db.exec('PRAGMA cache_size = -32000'); // 32 MB: keeps the call indexes hot on large logs
    // Several processes may open a fresh data dir at once: the schema is created or migrated
    // under a write lock, by whichever gets it first; the others read the version it left.
    transaction(db, () => {
      const version = pragmaValue(db, 'user_version') as number;
      if (version === 0) {
        db.exec(SCHEMA);
        onCreate?.(db);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
        created = true;
      } else if (version >= 3 && version < SCHEMA_VERSION) {
        if (version === 3) moveConversationsOut(db);
        if (version <= 4) toPlatformShapes(db);
        moveSessionMessagesOut(db);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      } else if (version !== SCHEMA_VERSION) {
        throw new Error(
          `the sandbox data in ${dataDir} was written by a ${version < SCHEMA_VERSION ? 'older' : 'newer'} build (schema ${version}, this one ` +
            `reads ${SCHEMA_VERSION}); use another --data-dir, or remove that directory to start fresh`,
        );
      }
    });
  } catch (err) {
    db.close();
    throw err;
  }
  return { db, created };
}

const json = (v: unknown) => JSON.stringify(v);
const conversationKey = (messages: string) => createHash('sha1').update(messages).digest('base64url');

/** Schema 3 → 4: call messages move to the conversations table, stored once by content. */
function moveConversationsOut(db: Db): void {
  db.exec('CREATE TABLE conversations (id TEXT PRIMARY KEY, messages TEXT NOT NULL); ALTER TABLE calls ADD COLUMN conversation_id TEXT');
  const keep = db.prepare('INSERT OR IGNORE INTO conversations (id, messages) VALUES (?, ?)');
  const point = db.prepare('UPDATE calls SET conversation_id = ? WHERE id = ?');
  for (const r of db.prepare('SELECT id, messages FROM calls').all() as { id: string; messages: string }[]) {
    const key = conversationKey(r.messages);
    keep.run(key, r.messages);
    point.run(key, r.id);
  }
  db.exec('ALTER TABLE calls DROP COLUMN messages');
}

/** A call message of schema 4 (`{ role: 'assistant' | 'user', content }`) in the platform's shape; others as they are. */
function platformMessage(m: unknown): unknown {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return m;
  const { role, content, ...rest } = m as Record<string, unknown>;
  if (typeof content !== 'string' || 'message' in rest) return m;
  return { role: role === 'assistant' ? 'bot' : role, message: content, ...rest };
}

/**
 * Schema 4 → 5: the records take the shapes the hosted service's reference gives. Call messages
 * move their text to `message` with role `bot` for the assistant (each conversation keeps its
 * id, which is only a key); a phone number's `service` object is named `organization`. Nothing
 * else in a row changes.
 */
function toPlatformShapes(db: Db): void {
  const setMessages = db.prepare('UPDATE conversations SET messages = ? WHERE id = ?');
  for (const r of db.prepare('SELECT id, messages FROM conversations').all() as { id: string; messages: string }[]) {
    const messages = JSON.parse(r.messages) as unknown;
    if (!Array.isArray(messages)) continue;
    const next = JSON.stringify(messages.map(platformMessage));
    if (next !== r.messages) setMessages.run(next, r.id);
  }
  const setBody = db.prepare('UPDATE phone_numbers SET body = ? WHERE id = ?');
  for (const r of db.prepare('SELECT id, body FROM phone_numbers').all() as { id: string; body: string }[]) {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    if (!('service' in body) || 'organization' in body) continue;
    const { service, ...rest } = body;
    setBody.run(JSON.stringify({ ...rest, organization: service }), r.id);
  }
}

/** Schema 5 → 6: a session's messages move from a JSON array in its row to a row each, in order. */
function moveSessionMessagesOut(db: Db): void {
  db.exec(SESSION_MESSAGES);
  db.exec(`INSERT INTO session_messages (session_id, seq, body)
    SELECT s.id, m.key, m.value FROM sessions s, json_each(s.messages) m`);
  db.exec('ALTER TABLE sessions DROP COLUMN messages');
}

/** Typed access to the records; one prepared statement per query. */
export class SandboxStore {
  private readonly s;

  constructor(readonly db: Db) {
    this.s = {
      assistantGet: db.prepare('SELECT * FROM assistants WHERE id = ?'),
      assistantList: db.prepare('SELECT * FROM assistants ORDER BY created_at, id'),
      assistantInsert: db.prepare('INSERT INTO assistants (id, body, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      assistantUpdate: db.prepare('UPDATE assistants SET body = ?, updated_at = ? WHERE id = ?'),
      numberGet: db.prepare('SELECT * FROM phone_numbers WHERE id = ?'),
      numberByDid: db.prepare('SELECT * FROM phone_numbers WHERE did = ?'),
      numberList: db.prepare('SELECT * FROM phone_numbers ORDER BY created_at, id'),
      numberInsert: db.prepare('INSERT INTO phone_numbers (id, did, body, assistant_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)'),
      numberLink: db.prepare('UPDATE phone_numbers SET assistant_id = ?, updated_at = ? WHERE id = ?'),
      // Positional: binding by name costs an object and a lookup per column, on every seeded call.
      callInsert: db.prepare(
        `INSERT INTO calls (id, type, assistant_id, phone_number_id, customer, created_at, ringing_at, answered_at,
           ended_at, ended_reason, cost, summary, conversation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      conversationInsert: db.prepare('INSERT OR IGNORE INTO conversations (id, messages) VALUES (?, ?)'),
      conversationGet: db.prepare('SELECT messages FROM conversations WHERE id = ?'),
      dataVersion: db.prepare('PRAGMA data_version'),
      fileGet: db.prepare('SELECT * FROM files WHERE id = ?'),
      fileCount: db.prepare('SELECT count(*) AS n FROM files'),
      filePage: db.prepare('SELECT * FROM files ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?'),
      fileProcessing: db.prepare("SELECT * FROM files WHERE status = 'processing'"),
      fileInsert: db.prepare(
        `INSERT INTO files (id, name, bytes, mimetype, status, parsed_text_bytes, created_at, updated_at)
         VALUES (@id, @name, @bytes, @mimetype, @status, @parsedTextBytes, @createdAt, @updatedAt)`,
      ),
      fileFinish: db.prepare('UPDATE files SET status = ?, parsed_text_bytes = ?, updated_at = ? WHERE id = ?'),
      fileDelete: db.prepare('DELETE FROM files WHERE id = ?'),
      sessionGet: db.prepare('SELECT * FROM sessions WHERE id = ?'),
      sessionInsert: db.prepare(
        `INSERT INTO sessions (id, name, assistant_id, status, variable_values, created_at, updated_at)
         VALUES (@id, @name, @assistantId, @status, @variableValues, @createdAt, @updatedAt)`,
      ),
      sessionUpdate: db.prepare('UPDATE sessions SET variable_values = ?, updated_at = ? WHERE id = ?'),
      sessionMessages: db.prepare('SELECT body FROM session_messages WHERE session_id = ? ORDER BY seq'),
      sessionNextSeq: db.prepare('SELECT coalesce(max(seq) + 1, 0) AS seq FROM session_messages WHERE session_id = ?'),
      sessionMessageInsert: db.prepare('INSERT INTO session_messages (session_id, seq, body) VALUES (?, ?, ?)'),
      chatInsert: db.prepare('INSERT INTO chats (id, session_id, body, created_at) VALUES (?, ?, ?, ?)'),
    };
  }

  // --- assistants
  getAssistant(id: string): AssistantRow | undefined {
    const r = this.s.assistantGet.get(id) as Record<string, string> | undefined;
    return r && toAssistant(r);
  }
  listAssistants(): AssistantRow[] {
    return (this.s.assistantList.all() as Record<string, string>[]).map(toAssistant);
  }
  insertAssistant(a: AssistantRow): void {
    this.s.assistantInsert.run(a.id, json(a.body), a.createdAt, a.updatedAt);
  }
  updateAssistant(id: string, body: Record<string, unknown>, updatedAt: string): void {
    this.s.assistantUpdate.run(json(body), updatedAt, id);
  }

  // --- phone numbers
  getPhoneNumber(id: string): PhoneNumberRow | undefined {
    const r = this.s.numberGet.get(id) as Record<string, string> | undefined;
    return r && toNumber(r);
  }
  getPhoneNumberByDid(did: string): PhoneNumberRow | undefined {
    const r = this.s.numberByDid.get(did) as Record<string, string> | undefined;
    return r && toNumber(r);
  }
  listPhoneNumbers(): PhoneNumberRow[] {
    return (this.s.numberList.all() as Record<string, string>[]).map(toNumber);
  }
  insertPhoneNumber(n: PhoneNumberRow): void {
    this.s.numberInsert.run(n.id, n.did, json(n.body), n.assistantId, n.createdAt, n.updatedAt);
  }
  linkPhoneNumber(id: string, assistantId: string, updatedAt: string): void {
    this.s.numberLink.run(assistantId, updatedAt, id);
  }

  // --- calls
  insertCall(c: CallRow): void {
    this.insertCalls([c]);
  }
  /** Inserts calls in one transaction (one for a placed call; a seed chunk when seeding). */
  insertCalls(calls: Iterable<CallRow>): number {
    let n = 0;
    try {
      transaction(this.db, () => {
        for (const c of calls) {
          this.s.callInsert.run(
            c.id,
            c.type,
            c.assistantId,
            c.phoneNumberId,
            json(c.customer),
            c.createdAt,
            c.ringingAt,
            c.answeredAt,
            c.endedAt,
            c.endedReason,
            c.cost,
            c.summary,
            this.conversationIdOf(c.messages),
          );
          n++;
        }
      });
    } catch (err) {
      this.storedConversations = new WeakMap(); // rolled back: the rows it remembers may be gone
      throw err;
    }
    this.callWrites++;
    return n;
  }
  /** Stores a conversation (once per content) and gives its id; a frozen one (a seed's, shared by many calls) is hashed once. */
  private conversationIdOf(messages: readonly CallMessage[]): string {
    const frozen = Object.isFrozen(messages);
    let id = frozen ? this.storedConversations.get(messages) : undefined;
    if (id !== undefined) return id;
    const said = json(messages);
    id = conversationKey(said);
    this.s.conversationInsert.run(id, said);
    if (frozen) this.storedConversations.set(messages, id);
    return id;
  }
  private storedConversations = new WeakMap<readonly CallMessage[], string>();
  private callWrites = 0;
  /**
   * Changes whenever the calls may have changed: a write through this store, or a commit by
   * another connection (`switchboard sandbox ring` writes while a server runs), which SQLite's
   * data_version counts. Cached call pages are valid only while it stays the same.
   */
  callsVersion(): string {
    return `${this.callWrites}:${(this.s.dataVersion.get() as { data_version: number }).data_version}`;
  }
  /**
   * Newest first (created_at desc, id desc), served from the created_at indexes. `full` adds
   * the transcript and messages, which list answers leave out.
   */
  queryCalls(q: CallQuery, full: boolean): CallRow[] {
    return this.selectCalls(
      q,
      full ? `${CALL_COLUMNS}, v.messages FROM calls c JOIN conversations v ON v.id = c.conversation_id` : `${CALL_COLUMNS} FROM calls c`,
    ).map(toCall);
  }

  /**
   * Like queryCalls(q, true) but each call without its messages and with its conversation's id
   * instead (messages by `conversation(id)`): most calls share a few thousand conversations, so
   * a details page can read and parse each once, not once per call.
   */
  queryCallsWithConversation(q: CallQuery): { call: CallRow; conversationId: string }[] {
    return this.selectCalls(q, `${CALL_COLUMNS}, c.conversation_id FROM calls c`).map((r) => ({
      call: toCall(r.slice(0, -1)),
      conversationId: r[r.length - 1] as string,
    }));
  }

  private selectCalls(q: CallQuery, from: string): unknown[][] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit };
    // Only the filters given are bound: node:sqlite refuses a parameter the statement lacks.
    for (const [key, clause] of CALL_FILTERS) {
      if (q[key] === undefined) continue;
      where.push(clause);
      params[key] = q[key];
    }
    const sql = `SELECT ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.created_at DESC, c.id DESC LIMIT @limit`;
    // Statements are reused only when we keep them; the 32 filter combinations are few, so keep
    // a small map. Rows come as arrays: building a keyed object per row took much of the query's
    // time.
    let stmt = this.callQueries.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      stmt.setReturnArrays(true);
      this.callQueries.set(sql, stmt);
    }
    return stmt.all(params as Record<string, string | number>) as unknown as unknown[][];
  }
  private readonly callQueries = new Map<string, StatementSync>();

  /** A conversation's messages by id (calls keep them apart, stored once by content). */
  conversation(id: string): CallMessage[] | undefined {
    const row = this.s.conversationGet.get(id) as { messages: string } | undefined;
    return row ? (JSON.parse(row.messages) as CallMessage[]) : undefined;
  }

  // --- files
  getFile(id: string): FileRow | undefined {
    const r = this.s.fileGet.get(id) as Record<string, unknown> | undefined;
    return r && toFile(r);
  }
  countFiles(): number {
    return (this.s.fileCount.get() as { n: number }).n;
  }
  pageFiles(limit: number, offset: number): FileRow[] {
    return (this.s.filePage.all(limit, offset) as Record<string, unknown>[]).map(toFile);
  }
  filesStillProcessing(): FileRow[] {
    return (this.s.fileProcessing.all() as Record<string, unknown>[]).map(toFile);
  }
  /** Runs `fn` holding the database's write lock (BEGIN IMMEDIATE), which every process on this data dir shares. */
  underWriteLock<T>(fn: () => T): T {
    return transaction(this.db, fn);
  }
  insertFile(f: FileRow): void {
    this.s.fileInsert.run({ ...f });
  }
  finishFile(id: string, status: FileRow['status'], parsedTextBytes: number | null, updatedAt: string): void {
    this.s.fileFinish.run(status, parsedTextBytes, updatedAt, id);
  }
  /** Deletes the record and drops its id from every assistant's knowledge bases, in one transaction. */
  deleteFile(id: string, now: string): void {
    transaction(this.db, () => {
      this.s.fileDelete.run(id);
      for (const a of this.listAssistants()) {
        const body = withoutFileId(a.body, id);
        if (body) this.updateAssistant(a.id, body, now);
      }
    });
  }

  // --- sessions and chats
  /** The session with its messages. */
  getSession(id: string): SessionRow | undefined {
    const head = this.getSessionHead(id);
    if (!head) return undefined;
    const messages = (this.s.sessionMessages.all(id) as { body: string }[]).map((m) => JSON.parse(m.body) as ChatMessage);
    return { ...head, messages };
  }
  /** The session without its messages: what a turn needs, whatever the session's length. */
  getSessionHead(id: string): Omit<SessionRow, 'messages'> | undefined {
    const r = this.s.sessionGet.get(id) as Record<string, string> | undefined;
    return r && toSessionHead(r);
  }
  insertSession(s: SessionRow): void {
    transaction(this.db, () => {
      const { messages, ...head } = s;
      this.s.sessionInsert.run({ ...head, variableValues: json(s.variableValues) });
      this.appendMessages(s.id, messages);
    });
  }
  /** Stores the chat, the session's new messages after the ones it has, and its new variables together. */
  recordChat(session: Omit<SessionRow, 'messages'>, added: ChatMessage[], chat: { id: string; createdAt: string } & Record<string, unknown>): void {
    transaction(this.db, () => {
      this.s.chatInsert.run(chat.id, session.id, json(chat), chat.createdAt);
      this.s.sessionUpdate.run(json(session.variableValues), session.updatedAt, session.id);
      this.appendMessages(session.id, added);
    });
  }
  private appendMessages(sessionId: string, messages: ChatMessage[]): void {
    let seq = (this.s.sessionNextSeq.get(sessionId) as { seq: number }).seq;
    for (const m of messages) this.s.sessionMessageInsert.run(sessionId, seq++, json(m));
  }
}

const toAssistant = (r: Record<string, string>): AssistantRow => ({
  id: r.id,
  body: JSON.parse(r.body),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toNumber = (r: Record<string, string>): PhoneNumberRow => ({
  id: r.id,
  did: r.did,
  body: JSON.parse(r.body),
  assistantId: r.assistant_id ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Each call filter's WHERE clause, named by its CallQuery field. */
const CALL_FILTERS: [Exclude<keyof CallQuery, 'limit'>, string][] = [
  ['id', 'c.id = @id'],
  ['assistantId', 'c.assistant_id = @assistantId'],
  ['phoneNumberId', 'c.phone_number_id = @phoneNumberId'],
  ['createdFrom', 'c.created_at >= @createdFrom'],
  ['createdTo', 'c.created_at <= @createdTo'],
];

/** The columns toCall reads, in its order; a query for the full record adds the messages last. */
const CALL_COLUMNS =
  'c.id, c.type, c.assistant_id, c.phone_number_id, c.customer, c.created_at, c.ringing_at, c.answered_at, c.ended_at, c.ended_reason, c.cost, c.summary';

const toCall = (r: unknown[]): CallRow => ({
  id: r[0] as string,
  type: r[1] as CallRow['type'],
  assistantId: r[2] as string,
  phoneNumberId: r[3] as string,
  customer: JSON.parse(r[4] as string),
  createdAt: r[5] as number,
  ringingAt: r[6] as number,
  answeredAt: (r[7] as number | null) ?? null,
  endedAt: r[8] as number,
  endedReason: r[9] as string,
  cost: r[10] as number,
  summary: r[11] as string,
  messages: r.length > 12 ? JSON.parse(r[12] as string) : [],
});

const toFile = (r: Record<string, unknown>): FileRow => ({
  id: r.id as string,
  name: r.name as string,
  bytes: r.bytes as number,
  mimetype: r.mimetype as string,
  status: r.status as FileRow['status'],
  parsedTextBytes: (r.parsed_text_bytes as number | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toSessionHead = (r: Record<string, string>): Omit<SessionRow, 'messages'> => ({
  id: r.id,
  name: r.name,
  assistantId: r.assistant_id,
  status: r.status,
  variableValues: JSON.parse(r.variable_values),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The assistant body without `fileId` in its knowledge bases, or undefined when it had none. */
export function withoutFileId(body: Record<string, unknown>, fileId: string): Record<string, unknown> | undefined {
  let changed = false;
  const strip = (kb: unknown) => {
    if (!kb || typeof kb !== 'object' || !Array.isArray((kb as { fileIds?: unknown }).fileIds)) return kb;
    const ids = (kb as { fileIds: unknown[] }).fileIds;
    if (!ids.includes(fileId)) return kb;
    changed = true;
    return { ...kb, fileIds: ids.filter((x) => x !== fileId) };
  };
  const next: Record<string, unknown> = { ...body, knowledgeBase: strip(body.knowledgeBase) };
  if (body.knowledgeBase === undefined) delete next.knowledgeBase;
  if (body.model && typeof body.model === 'object') {
    next.model = { ...(body.model as object), knowledgeBase: strip((body.model as { knowledgeBase?: unknown }).knowledgeBase) };
    if ((body.model as { knowledgeBase?: unknown }).knowledgeBase === undefined) delete (next.model as Record<string, unknown>).knowledgeBase;
  }
  return changed ? next : undefined;
}
