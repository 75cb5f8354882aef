// The assistant's words in a chat exchange, for the commands and the conversation tests. Its own
// file (no zod): the commands' parser imports it before anything heavy is loaded.
import type { Chat } from './schemas.js';

/** A chat's output without the user's turn, one message a line. */
export function replyText(chat: Pick<Chat, 'output'>): string {
  return chat.output
    .filter((m) => m.role !== 'user')
    .map((m) => m.content)
    .join('\n');
}
