// switchboard assistants list | get | create | update | pull | diff | push | clone
import { ASSISTANT, resolveId } from './resolve.js';
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import { describeCatalog } from '../api/catalog.js';
import type { Assistant, AssistantInput } from '../api/schemas.js';
import { nonEmpty, onOff, readJsonObject } from './input.js';
import { type Column } from '../format/column.js';
import { activeWord } from '../format/words.js';
import { printList, printRecord, statusTone, type OutputTarget } from './output.js';
import { action, EXIT, setExitCode, UsageError, withApi, writeErr } from './runtime.js';
import { noteUnread } from './written.js';

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

export async function showAssistant(api: VoiceAgentApi, out: OutputTarget, given: string): Promise<void> {
  printRecord(out, await api.getAssistant(await resolveId(api, ASSISTANT, given)), ASSISTANT_COLUMNS);
}

export async function createAssistantAndReport(
  api: VoiceAgentApi,
  out: OutputTarget,
  spec: AssistantInput,
  warn: (line: string) => void = writeErr,
): Promise<void> {
  const created = await api.createAssistant(spec);
  if (created.record) printRecord(out, created.record, ASSISTANT_COLUMNS);
  noteUnread('the assistant was created', created, `its id is unknown; look for it in: switchboard assistants list`, warn);
}

/** Updates, prints the record as stored, and warns about fields the service did not apply. */
export async function updateAssistantAndReport(
  api: VoiceAgentApi,
  out: OutputTarget,
  id: string,
  patch: AssistantInput,
  warn: (line: string) => void = writeErr,
): Promise<void> {
  const written = await api.updateAssistant(id, patch);
  const updated = written.record;
  if (updated) printRecord(out, updated, ASSISTANT_COLUMNS);
  noteUnread('the assistant was updated', written, `to see it as stored: switchboard assistants get ${id}`, warn);
  if (updated?.notApplied.length) {
    warn(
      `warning: the service did not apply: ${updated.notApplied.join(', ')} (it answered the update, but a re-read ` +
        `shows ${updated.notApplied.length === 1 ? 'this field' : 'these fields'} unchanged)\n`,
    );
  }
}

interface UpdateFlags {
  name?: string;
  description?: string;
  status?: boolean;
  file?: string;
}

/** The patch an update sends: the file's fields, then the flags on top. */
async function assistantPatch(flags: UpdateFlags): Promise<AssistantInput> {
  const patch: Record<string, unknown> = flags.file ? await readJsonObject(flags.file) : {};
  if (flags.name !== undefined) patch.name = flags.name;
  if (flags.description !== undefined) patch.description = flags.description;
  if (flags.status !== undefined) patch.status = flags.status;
  if (Object.keys(patch).length === 0) throw new UsageError('nothing to update: give --name, --description, --status or --file.');
  return patch as AssistantInput;
}

export function assistantsCommand(): Command {
  const cmd = new Command('assistants')
    .description('list, show, create, update and clone assistants; pull, diff and push them as YAML files')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants list\n  $ switchboard assistants update asst_123 --status off');

  cmd
    .command('list')
    .description('list assistants')
    .addHelpText('after', "\nExamples:\n  $ switchboard assistants list\n  $ switchboard assistants list -o json | jq -r '.[].name'")
    .action(action('list assistants', async (_o: object, c: Command) => withApi(c, ({ api, out }) => listAssistants(api, out))));

  cmd
    .command('get')
    .description('show every field of one assistant')
    .argument('<id>', 'assistant: its id, short id or name', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants get asst_123\n  $ switchboard assistants get asst_123 -o json')
    .action(action('get the assistant', async (id: string, _o: object, c: Command) => withApi(c, ({ api, out }) => showAssistant(api, out, id))));

  cmd
    .command('create')
    .description("create an assistant from a JSON spec (the fields of the service's assistant)")
    .requiredOption('--file <path>', 'JSON file with the assistant spec (- for stdin)')
    .addHelpText(
      'after',
      `\n${describeCatalog()}\n\nExamples:\n  $ switchboard assistants create --file assistant.json\n` +
        `  $ switchboard assistants create --file assistant.json -o ids`,
    )
    .action(
      action('create the assistant', async (o: { file: string }, c: Command) => {
        const spec = (await readJsonObject(o.file)) as AssistantInput;
        await withApi(c, ({ api, out }) => createAssistantAndReport(api, out, spec));
      }),
    );

  cmd
    .command('update')
    .description('change an assistant: flags, a JSON patch file, or both (flags win)')
    .argument('<id>', 'assistant: its id, short id or name', nonEmpty)
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--status <on|off>', 'turn the assistant on or off', onOff)
    .option('--file <path>', 'JSON file with fields to change (- for stdin)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard assistants update asst_123 --status off\n  $ switchboard assistants update asst_123 --name "Front desk" --file patch.json',
    )
    .action(
      action('update the assistant', async (id: string, o: UpdateFlags, c: Command) => {
        const patch = await assistantPatch(o);
        await withApi(c, ({ api, out }) => updateAssistantAndReport(api, out, id, patch));
      }),
    );

  addAssistantsAsCode(cmd);
  return cmd;
}

const DIR_OPTION = ['--dir <dir>', 'the directory of assistant files', './assistants'] as const;

/** pull | diff | push | clone: the work is in assistants-code.ts, loaded only when one of them runs. */
function addAssistantsAsCode(cmd: Command): void {
  const code = () => import('./assistants-code.js');
  cmd
    .command('pull')
    .description('write each assistant (or those named) to DIR as <name>.assistant.yaml, with a base copy for drift checks')
    .argument('[ids...]', 'assistant ids (default: every assistant)')
    .option(...DIR_OPTION)
    .option('--force', 'overwrite files that have changes not pushed (otherwise they are left alone, exit 1)')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants pull\n  $ switchboard assistants pull --dir agents asst_123')
    .action(
      action('pull the assistants', async (ids: string[], o: { dir: string; force?: boolean }, c: Command) => {
        const { pullAssistants } = await code();
        setExitCode(await withApi(c, ({ api, out }) => pullAssistants(api, out, o.dir, ids, o.force === true)));
      }),
    );

  cmd
    .command('diff')
    .description('show the fields that differ between the files in DIR and the service')
    .option(...DIR_OPTION)
    .option('--exit-code', 'exit 1 when anything differs (as git diff --exit-code)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard assistants diff\n  $ switchboard assistants diff --exit-code   # in CI: fail when the repository and the service differ',
    )
    .action(
      action('diff the assistants', async (o: { dir: string; exitCode?: boolean }, c: Command) => {
        const { diffAssistants } = await code();
        const differs = await withApi(c, ({ api, out }) => diffAssistants(api, out, o.dir));
        if (differs && o.exitCode) setExitCode(EXIT.failed);
      }),
    );

  cmd
    .command('push')
    .description("create new files' assistants and send changed fields; refuses assistants changed on the service since the pull")
    .option(...DIR_OPTION)
    .option('--dry-run', 'print what would be sent; send nothing')
    .option('-y, --yes', 'push without asking (needed without a terminal)')
    .option('--force', 'push even when the service changed since the pull (the file wins)')
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants push --dry-run\n  $ switchboard assistants push --yes')
    .action(
      action('push the assistants', async (o: { dir: string; dryRun?: boolean; yes?: boolean; force?: boolean }, c: Command) => {
        const { pushAssistants } = await code();
        setExitCode(await withApi(c, ({ api, out }) => pushAssistants(api, out, o.dir, o)));
      }),
    );

  cmd
    .command('clone')
    .description('create a copy of an assistant')
    .argument('<id>', 'assistant: its id, short id or name', nonEmpty)
    .option('--name <name>', 'name of the copy (default: "<name> (copy)")', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard assistants clone asst_123 --name "Front desk (staging)"')
    .action(
      action('clone the assistant', async (id: string, o: { name?: string }, c: Command) => {
        const { cloneAssistant } = await code();
        await withApi(c, ({ api, out }) => cloneAssistant(api, out, id, o.name));
      }),
    );
}
