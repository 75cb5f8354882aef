// The chat sessions this machine started, per profile, so the console can offer to reopen them
// (the service has no "list sessions" endpoint). File: <dataDir>/sessions/<profile>.json.
//
// Many writers: two consoles on one profile, `sessions create` and `chat send` all change the
// file. Every change is a patch applied to what the file holds *now*, read under a lock file
// (<file>.lock, created exclusively; a holder that died or stalls past LOCK_STALE_MS is taken
// over), and the result replaces the file by an atomic rename, so no writer loses another's
// entries. The console queues its patches (SessionIndexWriter) and writes them off the render
// path, a batch at a time with async I/O, and flushes whatever is left when it exits.
import { join } from 'node:path';
// A namespace import lets the bundler keep only what is used (`{ z }` pulls in every locale).
import * as z from 'zod';
import { ConfigError, readJsonFile, readJsonFileAsync, writePrivateFile, writePrivateFileAsync } from './files.js';
import { withLock, withLockSync } from './lock.js';
import { dataDir as defaultDataDir } from './paths.js';
import { messageText } from '../api/records.js';

/** Older entries beyond this are forgotten, so the list stays quick to read and show. */
const KEEP = 200;
const PREVIEW_CHARS = 200;
/** What to do with a sessions file that is not JSON. */
const FRESH_LIST = 'delete it to start a fresh list of sessions';

const RememberedSessionSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  assistantId: z.string().optional(),
  createdAt: z.string().optional(),
  /** When this entry last changed: the list is ordered by it, most recent first. */
  updatedAt: z.string(),
  lastMessage: z.string().optional(),
  messageCount: z.number().optional(),
  /** The sum of the costs of the turns sent from this machine (the service keeps no total). */
  totalCost: z.number().optional(),
  variableValues: z.record(z.string(), z.unknown()).optional(),
  /** When each turn was said and what it cost, by position: the service's messages carry neither. */
  turnStamps: z
    .array(
      z.looseObject({
        role: z.string().optional(),
        chars: z.number(),
        at: z.string().optional(),
        cost: z.number().optional(),
        variables: z.record(z.string(), z.string()).optional().catch(undefined),
      }),
    )
    .optional(),
  /** The service the session lives on (config's serviceOf); entries written before this have none and are always listed. */
  service: z.string().optional(),
});
export type RememberedSession = z.infer<typeof RememberedSessionSchema>;

export type TurnStamp = NonNullable<RememberedSession['turnStamps']>[number];

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
  /** the service's messages (any shape src/api/records.ts reads) or the console's turns */
  messages?: readonly unknown[] | null;
  /** the service the session lives on (config's serviceOf) */
  service?: string;
  /** each turn's time and cost as this machine saw them; given, they replace the stored ones */
  turnStamps?: TurnStamp[];
}

/**
 * One change to the index. `remember` adds the session if it is new; `update` changes it only if
 * it is remembered. `addMessages` and `addCost` count on from what the file holds when the patch
 * is applied (a turn sent by `chat send` while a console has the session open adds to its count).
 */
export interface SessionPatch {
  mode: 'remember' | 'update';
  session: SessionInput;
  addMessages?: number;
  addCost?: number;
  /** When the change was made (defaults to now). */
  at?: string;
}

/** The sessions remembered for `profile`; given `service`, only those on it (a profile pointed at another service lists none of the first one's). */
export function listSessions(profile: string, dir: string = defaultDataDir(), service?: string): RememberedSession[] {
  return onService(parseSessions(readJsonFile(fileFor(profile, dir), FRESH_LIST), fileFor(profile, dir)), service);
}

/** The entries made on `service`, and those that name none (remembered before sessions named theirs). */
export function onService(all: RememberedSession[], service: string | undefined): RememberedSession[] {
  return service === undefined ? all : all.filter((s) => s.service === undefined || s.service === service);
}

/** Adds the session, or refreshes it if already remembered; returns the stored entry. */
export function rememberSession(profile: string, session: SessionInput, dir: string = defaultDataDir()): RememberedSession {
  return applyNow(profile, dir, { mode: 'remember', session })!;
}

/** Updates a remembered session (after a message, say); returns undefined if it is not remembered. */
export function updateSession(profile: string, id: string, patch: Omit<SessionInput, 'id'>, dir: string = defaultDataDir()): RememberedSession | undefined {
  return applyNow(profile, dir, { mode: 'update', session: { ...patch, id } });
}

/** Applies one patch now, under the lock (for commands, which make one change and exit). */
export function applySessionPatch(profile: string, patch: SessionPatch, dir: string = defaultDataDir()): RememberedSession | undefined {
  return applyNow(profile, dir, patch);
}

function applyNow(profile: string, dir: string, patch: SessionPatch): RememberedSession | undefined {
  const path = fileFor(profile, dir);
  return withLockSync(path, () => {
    const all = readSessionsSync(path);
    const entry = applyPatch(all, patch);
    if (entry) writePrivateFile(path, serialize(all));
    return entry;
  });
}

/**
 * Applies a patch to a list in place (the changed entry moves to the top); returns the entry, or
 * undefined when an `update` names a session that is not in the list.
 */
export function applyPatch(all: RememberedSession[], patch: SessionPatch): RememberedSession | undefined {
  const i = all.findIndex((s) => s.id === patch.session.id);
  const existing = i === -1 ? undefined : all[i];
  if (!existing && patch.mode === 'update') return undefined;
  const entry: RememberedSession = { ...existing, ...summarize(patch.session), updatedAt: patch.at ?? new Date().toISOString() };
  if (patch.addMessages && patch.session.messageCount === undefined && !patch.session.messages) {
    if (existing?.messageCount !== undefined) entry.messageCount = existing.messageCount + patch.addMessages;
  }
  if (patch.addCost) entry.totalCost = round((existing?.totalCost ?? 0) + patch.addCost);
  if (i !== -1) all.splice(i, 1);
  all.unshift(entry);
  return entry;
}

/** Costs are sums of decimals: keep them from drifting (0.1 + 0.2). */
const round = (n: number) => Math.round(n * 1e9) / 1e9;

/**
 * The console's writer: patches are queued and written together a moment later (one lock, one
 * read, one rename for a burst of messages), with async I/O, so nothing on the render path waits
 * for the disk. `flushSync()` writes what is left when the console exits.
 */
export class SessionIndexWriter {
  private pending: SessionPatch[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  /** The batch the running write is applying (written again by flushSync if the process exits before it lands). */
  private inflight: SessionPatch[] = [];
  private inflightWritten = false;
  private readonly path: string;
  private readonly onExit = () => this.flushSync(true);

  constructor(
    profile: string,
    dir: string = defaultDataDir(),
    private readonly opts: { delayMs?: number; onWritten?(all: RememberedSession[]): void; onError?(err: unknown): void } = {},
  ) {
    this.path = fileFor(profile, dir);
  }

  /** Queues a patch; it is written within `delayMs` (default 50 ms). */
  queue(patch: SessionPatch): void {
    this.pending.push({ ...patch, at: patch.at ?? new Date().toISOString() });
    if (this.pending.length === 1) process.once('exit', this.onExit);
    if (!this.timer && !this.running) this.schedule();
  }

  /** Writes everything queued so far; resolves when it is on disk (or the write failed and was reported). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.running || this.pending.length) {
      if (this.running) await this.running;
      else await this.run();
    }
  }

  /**
   * Writes what is queued, synchronously: for dispose (the console awaits flush() first) and for
   * the process's exit (a crash). While a write is under way, dispose leaves the rest to it (it
   * takes what is queued when it ends). At exit a write under way never resumes: its batch is
   * written again unless it landed, and a lock with this process's pid is this process's own.
   */
  flushSync(exiting = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!exiting && this.running) return;
    process.removeListener('exit', this.onExit);
    const batch = [...(exiting && this.running && !this.inflightWritten ? this.inflight : []), ...this.pending.splice(0)];
    if (!batch.length) return;
    try {
      withLockSync(
        this.path,
        () => {
          const all = readSessionsSync(this.path);
          if (batch.map((p) => applyPatch(all, p)).some(Boolean)) writePrivateFile(this.path, serialize(all));
        },
        exiting,
      );
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  private schedule(delayMs = this.opts.delayMs ?? 50): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delayMs);
    this.timer.unref?.();
  }

  private run(): Promise<void> {
    const batch = this.pending.splice(0);
    if (!batch.length) return Promise.resolve();
    this.inflight = batch;
    this.inflightWritten = false;
    this.running = (async () => {
      try {
        const all = await withLock(this.path, async () => {
          const list = parseSessions(await readJsonFileAsync(this.path, FRESH_LIST), this.path);
          if (batch.map((p) => applyPatch(list, p)).some(Boolean)) await writePrivateFileAsync(this.path, serialize(list));
          this.inflightWritten = true;
          return list;
        });
        this.opts.onWritten?.(all.slice(0, KEEP));
      } catch (err) {
        this.opts.onError?.(err);
      } finally {
        this.running = undefined;
        this.inflight = [];
        if (!this.pending.length) process.removeListener('exit', this.onExit);
        else if (!this.timer) this.schedule(0);
      }
    })();
    return this.running;
  }
}

/** Only the fields worth keeping; null from the service means "not given". */
function summarize(s: SessionInput): Partial<RememberedSession> & { id: string } {
  const out: Partial<RememberedSession> & { id: string } = { id: s.id };
  if (s.name != null) out.name = s.name;
  if (s.assistantId != null) out.assistantId = s.assistantId;
  if (s.createdAt != null) out.createdAt = s.createdAt;
  if (s.variableValues) out.variableValues = s.variableValues;
  if (s.service) out.service = s.service;
  if (s.turnStamps) out.turnStamps = s.turnStamps;
  if (s.messages) {
    out.messageCount = s.messages.length;
    const last = s.messages.length ? messageText(s.messages.at(-1)) : '';
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

function parseSessions(raw: unknown, path: string): RememberedSession[] {
  if (raw === undefined) return [];
  const parsed = SessionsFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${path} is not a list of chat sessions; delete it to start a fresh list`);
  return parsed.data.sessions;
}

function readSessionsSync(path: string): RememberedSession[] {
  return parseSessions(readJsonFile(path, FRESH_LIST), path);
}

function serialize(sessions: RememberedSession[]): string {
  return `${JSON.stringify({ sessions: sessions.slice(0, KEEP) }, null, 2)}\n`;
}
