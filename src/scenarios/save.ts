// A chat conversation saved as a scenario file: the user's turns as typed, with the variables
// each was sent with, each expecting its reply as snapshotted, and the snapshot file beside it,
// so the file passes as saved. A call is saved the same way (from-call.ts), or judged whole.
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Document } from 'yaml';
import { inertYaml } from '../yaml.js';
import { escapeLine } from '../format/escape.js';
import { InputError } from '../api/errors.js';
import { isToolTurn, messageRole, messageText } from '../api/records.js';
import { makeDirs } from '../config/private-dir.js';
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
  /** A judge's rubric instead of snapshots: the turns are replayed and the whole conversation judged. */
  rubric?: string;
  /** The first line of the file, a comment saying where it came from. */
  origin?: string;
}

type Variables = Record<string, string>;

/** The variables a console's user turn was sent with; undefined for a message that does not say (one read from the service). */
function variablesSent(m: SavedMessage): Variables | undefined {
  const v = m && typeof m === 'object' ? (m as { variables?: unknown }).variables : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Variables) : undefined;
}

/**
 * Each user message with the assistant's words that answered it (an opening line before the first
 * is not a reply) and the variables it was sent with (`fallback` where the message does not say).
 */
function exchanges(messages: readonly SavedMessage[], fallback: Variables): { user: string; reply: string; variables: Variables }[] {
  const out: { user: string; reply: string[]; variables: Variables }[] = [];
  for (const m of messages) {
    const role = messageRole(m);
    if (role === 'user') out.push({ user: messageText(m), reply: [], variables: variablesSent(m) ?? fallback });
    else if (out.length && role !== 'system' && !isToolTurn(role)) out[out.length - 1].reply.push(messageText(m));
  }
  return out.map((e) => ({ ...e, reply: e.reply.join('\n') }));
}

const sameVariables = (a: Variables, b: Variables) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** The stored replies of a conversation, for its snapshot file. */
const snapshotsOf = (c: ConversationToSave) => ({ [c.name]: exchanges(c.messages, c.variables ?? {}).map((t) => ({ user: t.user, reply: t.reply })) });

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

/** The scenario file's text: the user's turns, each expecting its snapshot, or judged whole against the rubric. */
export function scenarioText(c: ConversationToSave): string {
  const turns = exchanges(c.messages, c.variables ?? {});
  if (turns.length === 0) throw new InputError('nothing to save yet: send a message first');
  // The test sends what the chat sent: one set for the whole file when every turn had the same,
  // else each turn its own (variables set part-way through leave the turns before them without).
  const shared = turns.every((t) => sameVariables(t.variables, turns[0].variables)) ? turns[0].variables : undefined;
  const scenario = {
    name: c.name,
    assistant: c.assistant,
    ...(shared && Object.keys(shared).length ? { variables: shared } : {}),
    turns: turns.map((t) => ({
      user: t.user,
      ...(!shared && Object.keys(t.variables).length ? { variables: t.variables } : {}),
      ...(c.rubric === undefined ? { expect: { snapshot: true } } : {}),
    })),
    ...(c.rubric === undefined ? {} : { judge: [{ rubric: c.rubric }] }),
  };
  const origin = c.origin ?? 'Saved from a chat in the Switchboard console';
  return `# ${escapeLine(origin)}; run it with: switchboard test\n${inertYaml(new Document(scenario), { lineWidth: 0 })}`;
}

const relativeToCwd = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
};

/**
 * Writes the scenario to `file` (a new file: an existing one is refused) and, for snapshots, its
 * `.snap.yaml` beside it. Returns the path, relative to the working directory when inside it.
 */
export function saveConversationAs(file: string, c: ConversationToSave): string {
  if (!/\.test\.ya?ml$/.test(file)) throw new InputError(`${file}: a scenario file's name ends in .test.yaml, so switchboard test finds it`);
  const text = scenarioText(c);
  makeDirs(dirname(file));
  try {
    writeFileSync(file, text, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new InputError(`${file} exists already; name another file, or remove it first`);
    throw err;
  }
  if (c.rubric === undefined) writeSnapshots(file, snapshotsOf(c));
  return relativeToCwd(file);
}

/**
 * Writes `<dir>/<slug>.test.yaml` (never over an existing file: -2, -3… are added) and its
 * `<slug>.snap.yaml`. Returns the scenario file's path, relative to the working directory when inside it.
 */
export function saveConversation(dir: string, c: ConversationToSave): string {
  const text = scenarioText(c);
  makeDirs(dir);
  for (let n = 1; ; n++) {
    const path = join(dir, `${slug(c.name)}${n > 1 ? `-${n}` : ''}.test.yaml`);
    try {
      writeFileSync(path, text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw err;
    }
    if (c.rubric === undefined) writeSnapshots(path, snapshotsOf(c));
    return relativeToCwd(path);
  }
}
