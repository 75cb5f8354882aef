// switchboard test from-call <id>: a scenario file made from a call in the archive (src/scenarios/from-call.ts).
// The MCP server's tool of the same name calls callForTest and writeTestFromCall too.
import type { CallArchive } from '../archive/index.js';
import type { VoiceAgentApi } from '../api/contract.js';
import type { Call } from '../api/schemas.js';
import { ID_END_LEAST, idQuery } from '../format/short-id.js';
import { escapeLine } from '../format/escape.js';
import { UsageError } from './runtime.js';

/**
 * The call `id` names: in the archive by id, or by a unique short id — its end, as lists show it,
 * else its start (store/calls.ts reads what is typed the same way) — else (connected) from the service.
 */
export async function callForTest(archive: CallArchive, api: VoiceAgentApi | undefined, given: string): Promise<Call> {
  const id = idQuery(given);
  const held = archive.get(id);
  if (held) return held;
  const ends = id.length >= ID_END_LEAST ? archive.withIdEnd(id, 6) : [];
  const matched = ends.length ? ends : archive.withIdPrefix(id, 6);
  if (matched.length === 1) {
    const full = archive.get(matched[0].call.id);
    if (full) return full;
  }
  if (matched.length > 1)
    throw new UsageError(
      `${escapeLine(id)} matches ${matched.length === 6 ? '6 or more' : matched.length} archived calls ` +
        `(${matched.map((p) => escapeLine(p.call.id)).join(', ')}); give more of the id`,
    );
  if (!api) throw new UsageError(`no call ${escapeLine(id)} in the archive; sync it (drop --offline) or check the id with: switchboard calls search`);
  return api.getCall(id);
}

export interface FromCallOptions {
  judge?: boolean;
  /** The file to write; default: a new file named after the call under `dir`. */
  out?: string;
  dir: string;
}

/** Writes the scenario (and its snapshots) and returns its path and text. */
export async function writeTestFromCall(call: Call, opts: FromCallOptions): Promise<{ path: string; text: string }> {
  const [{ conversationOfCall }, { saveConversation, saveConversationAs, scenarioText }] = await Promise.all([
    import('../scenarios/from-call.js'),
    import('../scenarios/save.js'),
  ]);
  const conversation = conversationOfCall(call, { judge: opts.judge });
  const path = opts.out ? saveConversationAs(opts.out, conversation) : saveConversation(opts.dir, conversation);
  return { path, text: scenarioText(conversation) };
}
