// switchboard numbers list | link
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import type { PhoneNumber } from '../api/schemas.js';
import { ASSISTANT, PHONE_NUMBER, resolveId } from './resolve.js';
import { nonEmpty } from './input.js';
import { type Column } from '../format/column.js';
import { escapeLine, jsonText } from '../format/escape.js';
import { printList, printRecord, statusTone, type OutputTarget } from './output.js';
import { action, withApi, writeErr } from './runtime.js';
import { linkOfNumber, linkWords, numberActive, numberDid, numberStatusWord } from '../api/records.js';
import { failure } from '../api/errors.js';
import { loadLinks, rememberLink, type NumberLinks } from '../config/links.js';
import type { Target } from '../target.js';

/**
 * The columns of a number. `links`: the numbers this profile linked itself; where the service's
 * record does not name its assistant, that one is shown, marked "(linked here)".
 */
function numberColumns(links?: NumberLinks): Column<PhoneNumber>[] {
  return [
    { header: 'id', value: (n) => n.id, priority: 2, id: true },
    { header: 'did', value: (n) => numberDid(n), priority: 1 },
    { header: 'name', value: (n) => n.name, priority: 5, hideWhenSame: true },
    { header: 'provider', value: (n) => n.provider, priority: 3 },
    { header: 'domain', value: (n) => n.domain, priority: 4, grow: true, width: 12 },
    { header: 'status', value: (n) => numberStatusWord(n), tone: (n) => statusTone(numberActive(n) ?? n.status), priority: 2 },
    { header: 'assistant', value: (n) => linkWords(linkOfNumber(n, links), (id) => id), priority: 1, grow: true, width: 12 },
  ];
}

const NUMBER_COLUMNS: Column<PhoneNumber>[] = numberColumns();

export async function listNumbers(api: VoiceAgentApi, out: OutputTarget, target?: Pick<Target, 'profile'>): Promise<void> {
  const numbers = await api.listPhoneNumbers();
  printList(out, numbers, numberColumns(target ? loadLinks(target.profile, api.baseUrl) : undefined));
}

/** The id of a number given by id, short id or DID (`+12125550142`, as `sandbox ring` takes it). */
export function phoneNumberIdOf(api: VoiceAgentApi, given: string): Promise<string> {
  return resolveId(api, PHONE_NUMBER, given);
}

export async function linkNumber(
  api: VoiceAgentApi,
  out: OutputTarget,
  idOrDid: string,
  assistantGiven: string,
  target?: Pick<Target, 'profile' | 'kind'>,
): Promise<void> {
  const phoneNumberId = await phoneNumberIdOf(api, idOrDid);
  const assistantId = await resolveId(api, ASSISTANT, assistantGiven);
  const res = await api.linkNumber({ phoneNumberId, assistantId });
  // Kept for `numbers list` and the console, for a service whose numbers do not say their
  // assistant (the embedded sandbox's do, and its address changes every run).
  if (target?.kind === 'remote') {
    try {
      rememberLink(target.profile, api.baseUrl, phoneNumberId, assistantId);
    } catch (err) {
      writeErr(`note: the link was made, but this machine could not remember it: ${failure(err).message}\n`);
    }
  }
  if (out.format === 'json') out.write(jsonText(res, 2) + '\n');
  else if (res.phoneNumber && out.format !== 'table') printRecord(out, res.phoneNumber, NUMBER_COLUMNS);
  else if (out.format === 'ids') out.write(escapeLine(phoneNumberId) + '\n');
  else out.write(`${escapeLine(res.message || `linked ${phoneNumberId} to ${assistantId}`)}\n`);
}

export function numbersCommand(): Command {
  const cmd = new Command('numbers')
    .description('list phone numbers and link them to assistants')
    .addHelpText('after', '\nExamples:\n  $ switchboard numbers list\n  $ switchboard numbers link pn_123 --assistant asst_456');

  cmd
    .command('list')
    .description('list phone numbers with their linked assistant')
    .addHelpText('after', '\nExamples:\n  $ switchboard numbers list\n  $ switchboard numbers list -o csv > numbers.csv')
    .action(action('list phone numbers', async (_o: object, c: Command) => withApi(c, ({ api, out, target }) => listNumbers(api, out, target))));

  cmd
    .command('link')
    .description('link an assistant to a phone number for inbound calls')
    .argument('<number>', 'phone number: its id, short id or DID (+12125550142)', nonEmpty)
    .requiredOption('--assistant <id|name>', 'assistant that answers calls to this number: its id, short id or name', nonEmpty)
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard numbers link pn_123 --assistant asst_456\n  $ switchboard numbers link +12125550142 --assistant asst_456',
    )
    .action(
      action('link the phone number', async (id: string, o: { assistant: string }, c: Command) =>
        withApi(c, ({ api, out, target }) => linkNumber(api, out, id, o.assistant, target)),
      ),
    );

  return cmd;
}
