// switchboard chat --assistant <id>   (the console, straight into a new chat)
// switchboard chat send --session <id> [--var k=v]… <text|->
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import type { Chat } from '../api/schemas.js';
import { replyMessages, replyText } from '../api/reply.js';
import { messageText as textOf } from '../api/records.js';
import { collectVar, nonEmpty, readStdin } from './input.js';
import { type Column } from '../format/column.js';
import { escapeText } from '../format/escape.js';
import { printRecord, type OutputTarget } from './output.js';
import { openConsole } from './console.js';
import { action, globalsOf, rejectStrayWords, UsageError, withApi, writeErr } from './runtime.js';
import { failure } from '../api/errors.js';
import { noteUnread } from './written.js';
import type { Target } from '../target.js';

const CHAT_COLUMNS: Column<Chat>[] = [
  { header: 'id', value: (c) => c.id, id: true },
  { header: 'session', value: (c) => c.sessionId },
  { header: 'status', value: (c) => c.status },
  { header: 'cost', value: (c) => c.cost },
  { header: 'reply', value: replyText },
];

export async function sendChat(
  api: VoiceAgentApi,
  out: OutputTarget,
  sessionId: string,
  input: string,
  vars?: Record<string, string>,
): Promise<Chat | undefined> {
  const sent = await api.sendChat({ sessionId, input, ...(vars ? { variableValues: vars } : {}) });
  const chat = sent.record;
  noteUnread('the message was sent', sent, `to read the reply: switchboard sessions get ${sessionId}`);
  if (!chat) return undefined;
  if (out.format === 'table') out.write(escapeText(replyText(chat)) + '\n');
  else printRecord(out, chat, CHAT_COLUMNS);
  return chat;
}

/**
 * A turn sent from a script counts in the session index like one sent from the console: the
 * message and its replies are added to the remembered count, its cost to the total (only for a
 * session this profile remembers; the next console to open it recounts from the service).
 */
async function recordTurn(target: Target, chat: Chat, input: string): Promise<void> {
  const { applySessionPatch } = await import('../config/sessions.js');
  const replies = replyMessages(chat);
  const last = replies.length ? textOf(replies.at(-1)) : input;
  applySessionPatch(
    target.profile,
    {
      mode: 'update',
      session: { id: chat.sessionId ?? '', lastMessage: last },
      addMessages: 1 + replies.length,
      ...(chat.cost != null ? { addCost: chat.cost } : {}),
    },
    target.dataDir,
  );
}

/** The message to send: the argument, or all of stdin for `-`; never empty. */
async function messageText(arg: string): Promise<string> {
  const text = arg === '-' ? (await readStdin()).replace(/\r?\n$/, '') : arg;
  if (text.trim() === '') throw new UsageError(arg === '-' ? 'the message read from stdin is empty.' : 'the message is empty.');
  return text;
}

export function chatCommand(): Command {
  const cmd = new Command('chat')
    .description('chat with an assistant: in the console (--assistant) or one message at a time (send)')
    .option('--assistant <id>', 'open the console in a new chat with this assistant', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard chat --assistant asst_123\n  $ switchboard chat send --session sess_123 "What are your opening hours?"')
    .allowExcessArguments(true)
    .action(
      action('open the chat', async (o: { assistant?: string }, c: Command) => {
        rejectStrayWords(c);
        if (!o.assistant) {
          c.help({ error: true });
          return;
        }
        await openConsole(globalsOf(c), {
          what: 'the chat console',
          forScripts: 'switchboard sessions create and switchboard chat send.',
          initialRoute: { screen: 'chat', assistantId: o.assistant },
        });
      }),
    );

  cmd
    .command('send')
    .description('send one message into a session and print the reply')
    .requiredOption('--session <id>', 'session id (from switchboard sessions create)', nonEmpty)
    .option('--var <key=value>', "a variable value for the assistant's {{key}}; repeatable", collectVar)
    .argument('<text>', 'the message, or - to read it from stdin')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard chat send --session sess_123 "Do you open on Sundays?"\n' +
        '  $ switchboard chat send --session sess_123 --var name=Ada --var city=Oslo "Hello"\n' +
        '  $ echo "Hello" | switchboard chat send --session sess_123 - -o json',
    )
    .action(
      action('send the message', async (text: string, o: { session: string; var?: Record<string, string> }, c: Command) => {
        const input = await messageText(text);
        await withApi(c, async ({ api, out, target }) => {
          const chat = await sendChat(api, out, o.session, input, o.var);
          if (!chat) return;
          try {
            await recordTurn(target, { ...chat, sessionId: chat.sessionId ?? o.session }, input);
          } catch (err) {
            writeErr(`warning: the reply is in, but the local session index was not updated: ${failure(err).message}`);
          }
        });
      }),
    );

  return cmd;
}
