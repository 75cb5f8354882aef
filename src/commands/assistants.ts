// switchboard assistants list | get | create | update
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import { describeCatalog } from '../api/catalog.js';
import type { Assistant, AssistantInput } from '../api/schemas.js';
import { nonEmpty, onOff, readJsonObject } from './input.js';
import { type Column } from '../format/column.js';
import { activeWord } from '../format/words.js';
import { printList, printRecord, statusTone, type OutputTarget } from './output.js';
import { action, UsageError, withApi, writeErr } from './runtime.js';

export const ASSISTANT_COLUMNS: Column<Assistant>[] = [
  { header: 'id', value: (a) => a.id, priority: 2, id: true },
  { header: 'name', value: (a) => a.name, priority: 1, grow: true, width: 18 },
  { header: 'status', value: (a) => activeWord(a.status), tone: (a) => statusTone(a.status), priority: 2 },
  { header: 'model', value: (a) => [a.model?.provider, a.model?.model].filter(Boolean).join('/'), priority: 3, grow: true, width: 12 },
  { header: 'voice', value: (a) => a.voice?.provider, priority: 4 },
  { header: 'created', value: (a) => a.createdAt, priority: 5 },
];

export async function listAssistants(api: VoiceAgentApi, out: OutputTarget): Promise<void> {
  printList(out, await api.listAssistants(), ASSISTANT_COLUMNS);
}

export async function showAssistant(api: VoiceAgentApi, out: OutputTarget, id: string): Promise<void> {
  printRecord(out, await api.getAssistant(id), ASSISTANT_COLUMNS);
}

export async function createAssistant(api: VoiceAgentApi, out: OutputTarget, spec: AssistantInput): Promise<void> {
  printRecord(out, await api.createAssistant(spec), ASSISTANT_COLUMNS);
}

/** Updates, prints the record as stored, and warns about fields the service did not apply. */
export async function updateAssistantAndReport(api: VoiceAgentApi, out: OutputTarget, id: string, patch: AssistantInput, warn: (line: string) => void = writeErr): Promise<void> {
  const updated = await api.updateAssistant(id, patch);
  printRecord(out, updated, ASSISTANT_COLUMNS);
  if (updated.notApplied.length) {
    warn(`warning: the service did not apply: ${updated.notApplied.join(', ')} (it answered the update, but a re-read shows ${updated.notApplied.length === 1 ? 'this field' : 'these fields'} unchanged)\n`);
  }
}

export interface UpdateFlags {
  name?: string;
  description?: string;
  status?: boolean;
  file?: string;
}

/** The patch an update sends: the file's fields, then the flags on top. */
export async function assistantPatch(flags: UpdateFlags): Promise<AssistantInput> {
  const patch: Record<string, unknown> = flags.file ? await readJsonObject(flags.file) : {};
  if (flags.name !== undefined) patch.name = flags.name;
  if (flags.description !== undefined) patch.description = flags.description;
  if (flags.status !== undefined) patch.status = flags.status;
  if (Object.keys(patch).length === 0) throw new UsageError('nothing to update: give --name, --description, --status or --file.');
  return patch as AssistantInput;
}

export function assistantsCommand(): Command {
  const cmd = new Command('assistants')
    .description('list, show, create and update assistants')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants list\n  $ switchboard assistants update asst_123 --status off');

  cmd
    .command('list')
    .description('list assistants')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants list\n  $ switchboard assistants list -o json | jq -r \'.[].name\'')
    .action(action('list assistants', async (_o: object, c: Command) => withApi(c, ({ api, out }) => listAssistants(api, out))));

  cmd
    .command('get')
    .description('show every field of one assistant')
    .argument('<id>', 'assistant id', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants get asst_123\n  $ switchboard assistants get asst_123 -o json')
    .action(action('get the assistant', async (id: string, _o: object, c: Command) => withApi(c, ({ api, out }) => showAssistant(api, out, id))));

  cmd
    .command('create')
    .description('create an assistant from a JSON spec (the fields of the service\'s assistant)')
    .requiredOption('--file <path>', 'JSON file with the assistant spec (- for stdin)')
    .addHelpText('after', `\n${describeCatalog()}\n\nExamples:\n  $ switchboard assistants create --file assistant.json\n  $ switchboard assistants create --file assistant.json -o ids`)
    .action(
      action('create the assistant', async (o: { file: string }, c: Command) => {
        const spec = (await readJsonObject(o.file)) as AssistantInput;
        await withApi(c, ({ api, out }) => createAssistant(api, out, spec));
      }),
    );

  cmd
    .command('update')
    .description('change an assistant: flags, a JSON patch file, or both (flags win)')
    .argument('<id>', 'assistant id', nonEmpty)
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--status <on|off>', 'turn the assistant on or off', onOff)
    .option('--file <path>', 'JSON file with fields to change (- for stdin)')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants update asst_123 --status off\n  $ switchboard assistants update asst_123 --name "Front desk" --file patch.json')
    .action(
      action('update the assistant', async (id: string, o: UpdateFlags, c: Command) => {
        const patch = await assistantPatch(o);
        await withApi(c, ({ api, out }) => updateAssistantAndReport(api, out, id, patch));
      }),
    );

  return cmd;
}
