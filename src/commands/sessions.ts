// switchboard sessions create | show — chat sessions for scripts (the console has its own screen).
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import type { ChatSession, Message } from '../api/schemas.js';
import type { Target } from '../target.js';
import { nonEmpty } from './input.js';
import { type Column } from '../format/column.js';
import { escapeLine, escapeText } from '../format/escape.js';
import { paint, printList, printRecord, type OutputTarget } from './output.js';
import { action, withApi } from './runtime.js';

export const SESSION_COLUMNS: Column<ChatSession>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'name', value: (s) => s.name },
  { header: 'assistant', value: (s) => s.assistantId },
  { header: 'status', value: (s) => s.status },
  { header: 'messages', value: (s) => s.messages.length },
  { header: 'created', value: (s) => s.createdAt },
];

const MESSAGE_COLUMNS: Column<Message & { id: string }>[] = [
  { header: 'role', value: (m) => m.role },
  { header: 'content', value: (m) => m.content },
];

export async function createSession(api: VoiceAgentApi, out: OutputTarget, assistantId: string, name?: string): Promise<ChatSession> {
  const session = await api.createSession(name === undefined ? { assistantId } : { assistantId, name });
  printRecord(out, session, SESSION_COLUMNS);
  return session;
}

/** A session's conversation: a transcript for people, one row per message in csv, the record in json. */
export async function showSession(api: VoiceAgentApi, out: OutputTarget, id: string): Promise<void> {
  const session = await api.getSession(id);
  if (out.format === 'json' || out.format === 'ids') {
    printRecord(out, session, SESSION_COLUMNS);
    return;
  }
  const rows = session.messages.map((m, i) => ({ ...m, id: String(i) }));
  if (out.format === 'csv' || !out.tty) {
    printList(out, rows, MESSAGE_COLUMNS);
    return;
  }
  const title = [session.name, session.id].filter(Boolean).join(' · ');
  const lines = [paint(out.color, 'bold', escapeLine(title)), ...session.messages.map((m) => `${paint(out.color, m.role === 'user' ? 'cyan' : 'green', escapeLine(m.role) + ':')} ${escapeText(m.content)}`)];
  out.write(lines.join('\n') + '\n');
}

export function sessionsCommand(): Command {
  const cmd = new Command('sessions')
    .description('start chat sessions and read their conversations')
    .addHelpText('after', '\nExamples:\n  $ switchboard sessions create --assistant asst_123\n  $ switchboard sessions show sess_123');

  cmd
    .command('create')
    .description('start a chat session with an assistant; prints the session')
    .requiredOption('--assistant <id>', 'assistant to chat with', nonEmpty)
    .option('--name <name>', 'a name to find the session by')
    .addHelpText('after', '\nExamples:\n  $ switchboard sessions create --assistant asst_123 --name "pricing test"\n  $ SESSION=$(switchboard sessions create --assistant asst_123 -o ids)')
    .action(
      action('create the session', async (o: { assistant: string; name?: string }, c: Command) =>
        withApi(c, async ({ api, out, target }) => {
          const session = await createSession(api, out, o.assistant, o.name);
          await rememberForConsole(target, session);
        }),
      ),
    );

  cmd
    .command('show')
    .description('show a session and its conversation')
    .argument('<id>', 'session id', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard sessions show sess_123\n  $ switchboard sessions show sess_123 -o json | jq \'.messages[-1].content\'')
    .action(action('show the session', async (id: string, _o: object, c: Command) => withApi(c, ({ api, out }) => showSession(api, out, id))));

  return cmd;
}

/** Sessions started from scripts show up on the console's Chat screen too. */
async function rememberForConsole(target: Target, session: ChatSession): Promise<void> {
  const { rememberSession } = await import('../config/sessions.js');
  rememberSession(target.profile, session, target.dataDir);
}
