// The assistant's words in a chat exchange, for the commands and the conversation tests. Its own
// file (no zod): the commands' parser imports it before anything heavy is loaded.
import { messageRole, messageText } from './records.js';
import type { Chat } from './schemas.js';

/** A chat's output without the user's turn, one message a line (a message naming no role is the assistant's). */
export function replyText(chat: Pick<Chat, 'output'>): string {
  return replyMessages(chat).map(messageText).join('\n');
}

/** The messages of a chat's output that are not the user's. */
export function replyMessages(chat: Pick<Chat, 'output'>): NonNullable<Chat['output']> {
  return (chat.output ?? []).filter((m) => messageRole(m) !== 'user');
}
