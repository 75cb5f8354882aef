// A chat conversation saved as a scenario file: the user's turns as typed, each expecting its
// reply as snapshotted, and the snapshot file beside it, so the file passes as saved.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { InputError } from '../api/errors.js';
import { messageRole, messageText } from '../api/records.js';
import { writeSnapshots } from './files.js';

/** A message of the chat: the console's turn or the service's message, read by src/api/records.ts. */
type SavedMessage = unknown;

export interface ConversationToSave {
  /** The assistant as the file names it: its exact name, or its id. */
  assistant: string;
  /** The scenario's name; the file is named after it. */
  name: string;
  variables?: Record<string, string>;
  messages: readonly SavedMessage[];
}

/** Each user message with the assistant's words that answered it (an opening line before the first is not a reply). */
function exchanges(messages: readonly SavedMessage[]): { user: string; reply: string }[] {
  const out: { user: string; reply: string[] }[] = [];
  for (const m of messages) {
    const role = messageRole(m);
    if (role === 'user') out.push({ user: messageText(m), reply: [] });
    else if (out.length && role !== 'system') out[out.length - 1].reply.push(messageText(m));
  }
  return out.map((e) => ({ user: e.user, reply: e.reply.join('\n') }));
}

/** A file name from the scenario's name: letters, digits and dashes. */
function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'chat'
  );
}

/**
 * Writes `<dir>/<slug>.test.yaml` (never over an existing file: -2, -3… are added) and its
 * `<slug>.snap.yaml`. Returns the scenario file's path, relative to the working directory when inside it.
 */
export function saveConversation(dir: string, c: ConversationToSave): string {
  const turns = exchanges(c.messages);
  if (turns.length === 0) throw new InputError('nothing to save yet: send a message first');
  mkdirSync(dir, { recursive: true });
  const scenario = {
    name: c.name,
    assistant: c.assistant,
    ...(c.variables && Object.keys(c.variables).length ? { variables: c.variables } : {}),
    turns: turns.map((t) => ({ user: t.user, expect: { snapshot: true } })),
  };
  const text = `# Saved from a chat in the Switchboard console; run it with: switchboard test\n${stringify(scenario, { lineWidth: 0 })}`;
  for (let n = 1; ; n++) {
    const path = join(dir, `${slug(c.name)}${n > 1 ? `-${n}` : ''}.test.yaml`);
    try {
      writeFileSync(path, text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw err;
    }
    writeSnapshots(path, { [c.name]: turns.map((t) => ({ user: t.user, reply: t.reply })) });
    const rel = relative(process.cwd(), path);
    return rel && !rel.startsWith('..') ? rel : path;
  }
}
