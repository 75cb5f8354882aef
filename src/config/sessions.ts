// The chat sessions this machine started, per profile, so the console can offer to reopen them
// (the service has no "list sessions" endpoint). File: <dataDir>/sessions/<profile>.json.
import { join } from 'node:path';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale: 755 KB vs 170 KB).
import * as z from 'zod';
import { ConfigError, readJsonFile, writePrivateFile } from './files.js';
import { dataDir as defaultDataDir } from './paths.js';

/** Older entries beyond this are forgotten, so the list stays quick to read and show. */
const KEEP = 200;
const PREVIEW_CHARS = 200;

const RememberedSessionSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  assistantId: z.string().optional(),
  createdAt: z.string().optional(),
  /** When this entry last changed: the list is ordered by it, most recent first. */
  updatedAt: z.string(),
  lastMessage: z.string().optional(),
  messageCount: z.number().optional(),
  variableValues: z.record(z.string(), z.unknown()).optional(),
});
export type RememberedSession = z.infer<typeof RememberedSessionSchema>;

const SessionsFileSchema = z.looseObject({ sessions: z.array(RememberedSessionSchema) });

/** What can be remembered: a session record from the service works as is (its messages give the count and preview). */
export interface SessionInput {
  id: string;
  name?: string | null;
  assistantId?: string | null;
  createdAt?: string | null;
  lastMessage?: string;
  messageCount?: number;
  variableValues?: Record<string, unknown>;
  messages?: readonly { content?: string | null }[];
}

export function listSessions(profile: string, dir: string = defaultDataDir()): RememberedSession[] {
  return readSessions(fileFor(profile, dir));
}

/** Adds the session, or refreshes it if already remembered; returns the stored entry. */
export function rememberSession(profile: string, session: SessionInput, dir: string = defaultDataDir()): RememberedSession {
  const path = fileFor(profile, dir);
  const all = readSessions(path);
  const existing = all.find((s) => s.id === session.id);
  const entry: RememberedSession = { ...existing, ...summarize(session), updatedAt: new Date().toISOString() };
  writeSessions(path, [entry, ...all.filter((s) => s.id !== session.id)]);
  return entry;
}

/** Updates a remembered session (after a message, say); returns undefined if it is not remembered. */
export function updateSession(
  profile: string,
  id: string,
  patch: Omit<SessionInput, 'id'>,
  dir: string = defaultDataDir(),
): RememberedSession | undefined {
  const path = fileFor(profile, dir);
  const all = readSessions(path);
  const existing = all.find((s) => s.id === id);
  if (!existing) return undefined;
  const entry: RememberedSession = { ...existing, ...summarize({ ...patch, id }), updatedAt: new Date().toISOString() };
  writeSessions(path, [entry, ...all.filter((s) => s.id !== id)]);
  return entry;
}

/** Only the fields worth keeping; null from the service means "not given". */
function summarize(s: SessionInput): Partial<RememberedSession> & { id: string } {
  const out: Partial<RememberedSession> & { id: string } = { id: s.id };
  if (s.name != null) out.name = s.name;
  if (s.assistantId != null) out.assistantId = s.assistantId;
  if (s.createdAt != null) out.createdAt = s.createdAt;
  if (s.variableValues) out.variableValues = s.variableValues;
  if (s.messages) {
    out.messageCount = s.messages.length;
    const last = s.messages.at(-1)?.content;
    if (last) out.lastMessage = last;
  }
  if (s.messageCount !== undefined) out.messageCount = s.messageCount;
  if (s.lastMessage !== undefined) out.lastMessage = s.lastMessage;
  if (out.lastMessage && out.lastMessage.length > PREVIEW_CHARS) out.lastMessage = `${out.lastMessage.slice(0, PREVIEW_CHARS - 1)}…`;
  return out;
}

function fileFor(profile: string, dir: string): string {
  return join(dir, 'sessions', `${encodeURIComponent(profile)}.json`);
}

function readSessions(path: string): RememberedSession[] {
  const raw = readJsonFile(path, 'delete it to start a fresh list of sessions');
  if (raw === undefined) return [];
  const parsed = SessionsFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${path} is not a list of chat sessions; delete it to start a fresh list`);
  return parsed.data.sessions;
}

function writeSessions(path: string, sessions: RememberedSession[]): void {
  writePrivateFile(path, `${JSON.stringify({ sessions: sessions.slice(0, KEEP) }, null, 2)}\n`);
}
