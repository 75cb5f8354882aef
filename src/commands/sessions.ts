// switchboard sessions create | list | show — chat sessions for scripts (the console has its own screen).
import { ASSISTANT, resolveId } from './resolve.js';
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import type { ChatSession, Message } from '../api/schemas.js';
import type { Target } from '../target.js';
import { nonEmpty } from './input.js';
import { type Column } from '../format/column.js';
import { escapeLine, escapeText } from '../format/escape.js';
import { paint, printList, printRecord, type OutputTarget } from './output.js';
import { action, withApi, writeErr } from './runtime.js';
import { failure } from '../api/errors.js';
import { noteUnread } from './written.js';
import { messageRole, messageText } from '../api/records.js';
import type { RememberedSession } from '../config/sessions.js';

const SESSION_COLUMNS: Column<ChatSession>[] = [
  { header: 'id', value: (s) => s.id, priority: 2, id: true },
  { header: 'name', value: (s) => s.name, priority: 1, grow: true, width: 12 },
  { header: 'assistant', value: (s) => s.assistantId, priority: 5, grow: true, width: 12 },
  { header: 'status', value: (s) => s.status, priority: 3 },
  { header: 'messages', value: (s) => (s.messages ?? []).length, priority: 2, align: 'right' },
  { header: 'created', value: (s) => s.createdAt, priority: 4 },
];

const MESSAGE_COLUMNS: Column<{ id: string; m: Message }>[] = [
  { header: 'role', value: (r) => messageRole(r.m) },
  { header: 'content', value: (r) => messageText(r.m) },
];

/** A row of `sessions list`: the local index's entry, with status and message count from the service. */
interface ListedSession {
  id: string;
  name?: string;
  assistantId?: string;
  status?: string;
  /** From the service; the remembered count when the service could not be asked. */
  messageCount?: number;
  /** The sum of the costs of the turns sent from this machine. */
  totalCost?: number;
  createdAt?: string;
  updatedAt?: string;
  /** Why the service's answer is missing (404: the session is gone). */
  error?: string;
}

const LISTED_SESSION_COLUMNS: Column<ListedSession>[] = [
  { header: 'id', value: (s) => s.id, priority: 2, id: true },
  { header: 'name', value: (s) => s.name, priority: 1, grow: true, width: 12 },
  { header: 'assistant', value: (s) => s.assistantId, priority: 5, grow: true, width: 12 },
  { header: 'status', value: (s) => s.status ?? (s.error ? 'unknown' : ''), tone: (s) => (s.error ? 'red' : undefined), priority: 3 },
  { header: 'messages', value: (s) => s.messageCount, priority: 2, align: 'right' },
  { header: 'cost', value: (s) => (s.totalCost == null ? '' : s.totalCost), priority: 4 },
  { header: 'updated', value: (s) => s.updatedAt, priority: 4 },
];

/** At most this many sessions are read from the service at once. */
const LIST_CONCURRENCY = 4;

/**
 * The sessions this profile started (the local index: the service has no "list sessions"), each
 * read from the service for its status and message count; a session the service cannot give
 * keeps its remembered count and says why on stderr.
 */
async function listRememberedSessions(
  api: VoiceAgentApi,
  out: OutputTarget,
  remembered: readonly RememberedSession[],
  warn: (line: string) => void,
): Promise<ListedSession[]> {
  const rows: ListedSession[] = remembered.map((r) => ({
    id: r.id,
    name: r.name,
    assistantId: r.assistantId,
    messageCount: r.messageCount,
    totalCost: r.totalCost,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i];
      try {
        const s = await api.getSession(row.id);
        rows[i] = {
          ...row,
          name: s.name ?? row.name,
          assistantId: s.assistantId ?? row.assistantId,
          status: s.status ?? undefined,
          messageCount: (s.messages ?? []).length,
          updatedAt: s.updatedAt ?? row.updatedAt,
        };
      } catch (err) {
        const f = failure(err);
        rows[i] = { ...row, error: f.message };
        warn(`warning: session ${row.id}: ${f.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, rows.length) }, worker));
  printList(out, rows, LISTED_SESSION_COLUMNS);
  return rows;
}

async function createSession(api: VoiceAgentApi, out: OutputTarget, assistant: string, name?: string): Promise<ChatSession | undefined> {
  const assistantId = await resolveId(api, ASSISTANT, assistant);
  const created = await api.createSession(name === undefined ? { assistantId } : { assistantId, name });
  noteUnread('the session was created', created, 'its id is unknown (the service has no list of sessions to look it up in); create another if you need one');
  if (created.record) printRecord(out, created.record, SESSION_COLUMNS);
  return created.record;
}

/** A session's conversation: a transcript for people, one row per message in csv, the record in json. */
export async function showSession(api: VoiceAgentApi, out: OutputTarget, id: string): Promise<void> {
  const session = await api.getSession(id);
  if (out.format === 'json' || out.format === 'ids') {
    printRecord(out, session, SESSION_COLUMNS);
    return;
  }
  const messages = session.messages ?? [];
  const rows = messages.map((m, i) => ({ m, id: String(i) }));
  if (out.format === 'csv' || !out.tty) {
    printList(out, rows, MESSAGE_COLUMNS);
    return;
  }
  const title = [session.name, session.id].filter(Boolean).join(' · ');
  const lines = [
    paint(out.color, 'bold', escapeLine(title)),
    ...messages.map((m) => {
      const role = messageRole(m);
      return `${paint(out.color, role === 'user' ? 'cyan' : 'green', escapeLine(role ?? '—') + ':')} ${escapeText(messageText(m))}`;
    }),
  ];
  out.write(lines.join('\n') + '\n');
}

export function sessionsCommand(): Command {
  const cmd = new Command('sessions')
    .description('start chat sessions and read their conversations')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard sessions create --assistant asst_123\n  $ switchboard sessions list\n  $ switchboard sessions show sess_123',
    );

  cmd
    .command('create')
    .description('start a chat session with an assistant; prints the session')
    .requiredOption('--assistant <id|name>', 'assistant to chat with: its id, short id or name', nonEmpty)
    .option('--name <name>', 'a name to find the session by')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard sessions create --assistant asst_123 --name "pricing test"\n' +
        '  $ SESSION=$(switchboard sessions create --assistant asst_123 -o ids)',
    )
    .action(
      action('create the session', async (o: { assistant: string; name?: string }, c: Command) =>
        withApi(c, async ({ api, out, target }) => {
          const session = await createSession(api, out, o.assistant, o.name);
          // The session exists now: the exit code says so whatever happens to the bookkeeping,
          // or a script that retries on failure would make a second one.
          if (session) {
            try {
              await rememberForConsole(target, session);
            } catch (err) {
              writeErr(`warning: the session was created, but the local session index was not updated: ${failure(err).message}`);
            }
          }
        }),
      ),
    );

  cmd
    .command('list')
    .description('the sessions this profile started, with their message counts from the service')
    .addHelpText(
      'after',
      '\nThe service has no list of sessions: this is the local index the console and these commands keep\n' +
        "(sessions create, chat send, the console's chats), per profile; counts are read from the service.\n\nExamples:\n  $ switchboard sessions list\n" +
        "  $ switchboard sessions list -o json | jq '.[] | {id, messageCount}'",
    )
    .action(
      action('list the sessions', async (_o: object, c: Command) =>
        withApi(c, async ({ api, out, target }) => {
          const [{ listSessions }, { serviceOf }] = await Promise.all([import('../config/sessions.js'), import('../config/config.js')]);
          await listRememberedSessions(api, out, listSessions(target.profile, target.dataDir, serviceOf(target)), writeErr);
        }),
      ),
    );

  cmd
    .command('show')
    .description('show a session and its conversation')
    .argument('<id>', 'session id', nonEmpty)
    .addHelpText('after', "\nExamples:\n  $ switchboard sessions show sess_123\n  $ switchboard sessions show sess_123 -o json | jq '.messages[-1].content'")
    .action(action('show the session', async (id: string, _o: object, c: Command) => withApi(c, ({ api, out }) => showSession(api, out, id))));

  return cmd;
}

/** Sessions started from scripts show up on the console's Chat screen too. */
async function rememberForConsole(target: Target, session: ChatSession): Promise<void> {
  const [{ rememberSession }, { serviceOf }] = await Promise.all([import('../config/sessions.js'), import('../config/config.js')]);
  rememberSession(target.profile, { ...session, service: serviceOf(target) }, target.dataDir);
}
