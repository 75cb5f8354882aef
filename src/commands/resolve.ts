// What a command's argument names: a whole id, the short id the console shows (an id's end, or
// its start), or a name (a number: its DID), matched as the console's palette matches them
// (format/short-id.ts, the one matcher of both). Several: exit 2 listing them; none: exit 2 naming it.
import type { VoiceAgentApi } from '../api/contract.js';
import { numberLabel } from '../api/records.js';
import type { Assistant, KbFile, PhoneNumber } from '../api/schemas.js';
import { matchRecords } from '../format/short-id.js';
import { failure } from '../api/errors.js';
import { escapeLine } from '../format/escape.js';
import { count } from '../format/words.js';
import { UsageError } from './exit.js';

interface Kind<T> {
  /** "assistant", "phone number" */
  what: string;
  /** what `count` calls one, for "4 assistants on this service" */
  counted: string;
  /** what its name is called: "name", "DID" */
  name: string;
  list: (api: VoiceAgentApi) => Promise<readonly T[]>;
  nameOf: (r: T) => string | null | undefined;
  command: string;
}

export const ASSISTANT: Kind<Assistant> = {
  what: 'assistant',
  counted: 'assistant',
  name: 'name',
  list: (api) => api.listAssistants(),
  nameOf: (a) => a.name,
  command: 'assistants',
};

export const PHONE_NUMBER: Kind<PhoneNumber> = {
  what: 'phone number',
  counted: 'number',
  name: 'DID',
  list: (api) => api.listPhoneNumbers(),
  nameOf: (n) => numberLabel(n),
  command: 'numbers',
};

export const FILE: Kind<KbFile> = {
  what: 'file',
  counted: 'file',
  name: 'name',
  list: async (api) => {
    const { allFiles } = await import('../api/pager.js');
    return allFiles(api);
  },
  nameOf: (f) => f.name,
  command: 'files',
};

/** The one record of `records` that `given` names, or a UsageError (exit 2) saying why not. */
function pickRecord<T extends { id: string }>(kind: Kind<T>, given: string, records: readonly T[]): T {
  const found = matchRecords(given, records, kind.nameOf).records;
  if (found.length === 1) return found[0];
  const quoted = escapeLine(JSON.stringify(given));
  if (found.length === 0)
    throw new UsageError(
      `no ${kind.what} ${quoted} by id, short id or ${kind.name} (${count(records.length, kind.counted)} on this service; ` +
        `switchboard ${kind.command} list shows them)`,
    );
  const shown = found.slice(0, 10).map((r) => {
    const name = kind.nameOf(r);
    return escapeLine(name ? `${r.id} (${name})` : r.id);
  });
  const more = found.length > shown.length ? `, and ${found.length - shown.length} more` : '';
  throw new UsageError(`${quoted} could be ${found.length} ${kind.what}s: ${shown.join(', ')}${more}; give more of the id, or the whole ${kind.name}`);
}

/** The id of the record `given` names, reading the service's list of them once. */
export async function resolveId<T extends { id: string }>(api: VoiceAgentApi, kind: Kind<T>, given: string): Promise<string> {
  let records: readonly T[];
  try {
    records = await kind.list(api);
  } catch (err) {
    // A service whose list cannot be read (another shape, no such list) still takes an id: the value
    // goes as given, as it did before names were looked up, and the request that uses it answers for it.
    if (failure(err).kind === 'auth') throw err;
    return given;
  }
  return pickRecord(kind, given, records).id;
}

/** The flags with `--assistant` and `--number` as ids, from whatever names them (an id, a short id, a name or DID). */
export async function resolvedFlags<F extends { assistant?: string; number?: string }>(api: VoiceAgentApi, flags: F): Promise<F> {
  return {
    ...flags,
    ...(flags.assistant !== undefined ? { assistant: await resolveId(api, ASSISTANT, flags.assistant) } : {}),
    ...(flags.number !== undefined ? { number: await resolveId(api, PHONE_NUMBER, flags.number) } : {}),
  };
}
