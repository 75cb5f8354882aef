// switchboard files list | get | upload | delete
import { FILE, resolveId } from './resolve.js';
import { serviceOfRecord, serviceWords } from '../api/records.js';
import { Command } from 'commander';
import type { VoiceAgentApi, Written } from '../api/contract.js';
import { noteUnread } from './written.js';
import type { KbFile } from '../api/schemas.js';
import { nonEmpty, positiveIntUpTo } from './input.js';
import { knownUploadLimit, uploadProblem } from '../api/upload-check.js';

/** The most files one page holds (the service's limit). */
const MAX_FILE_PAGE = 100;
/** The highest page number asked for (the sandbox's bound; 100 files a page, a hundred million files). */
const MAX_PAGE_NUMBER = 1_000_000;
import { type Column } from '../format/column.js';
import { escapeLine, jsonText } from '../format/escape.js';
import { count, grouped } from '../format/words.js';
import { noteMore, printList, printRecord, statusTone, toCsv, type OutputTarget } from './output.js';
import { action, UsageError, withApi, writeErr } from './runtime.js';
import { io } from './io.js';

const FILE_COLUMNS: Column<KbFile>[] = [
  { header: 'id', value: (f) => f.id, priority: 2, id: true },
  { header: 'name', value: (f) => f.name, priority: 1, grow: true, width: 16 },
  { header: 'bytes', value: (f) => f.bytes, priority: 2, align: 'right' },
  { header: 'type', value: (f) => f.mimetype, priority: 4, grow: true, width: 10 },
  { header: 'status', value: (f) => f.status, tone: (f) => statusTone(f.status), priority: 3 },
  { header: 'created', value: (f) => f.createdAt, priority: 5 },
  // "The service" object: `organization` on the hosted platform, `service` in our spec.
  { header: 'service', value: (f) => serviceWords(serviceOfRecord(f)), priority: 7, grow: true, width: 10 },
];

export async function listFiles(
  api: VoiceAgentApi,
  out: OutputTarget,
  query: { page?: number; limit?: number; all?: boolean },
  note: (line: string) => void = writeErr,
): Promise<void> {
  if (query.all) {
    // Every page, until one is empty or adds no new file (a page count from the service only ends it early).
    const { allFiles } = await import('../api/pager.js');
    printList(out, await allFiles(api, { limit: query.limit ?? MAX_FILE_PAGE }), FILE_COLUMNS);
    return;
  }
  const { files, pagination } = await api.listFiles(query);
  printList(out, files, FILE_COLUMNS);
  // Whether more pages exist goes to stderr, in every format: stdout stays the records alone, so
  // pipes and parsers are unchanged, and a script or a person still learns the list is not whole.
  const { page, totalPages, total } = pagination;
  if (page < totalPages) noteMore(note, 'files', `this is page ${page} of ${totalPages} (${count(total, 'file')})`, `--page ${page + 1} for the next`);
  else if (page > totalPages && page > 1) note(`page ${page} is past the last page (${Math.max(1, totalPages)}, ${count(total, 'file')})`);
}

async function uploadFile(api: VoiceAgentApi, out: OutputTarget, path: string): Promise<void> {
  // Progress only for a person watching; a script's stderr stays quiet.
  const progress = io().stderr.isTTY
    ? (sent: number, total: number) => io().stderr.write(`\ruploading ${escapeLine(path)}: ${total > 0 ? Math.floor((sent / total) * 100) : 0}%`)
    : undefined;
  let uploaded: Written<KbFile>;
  try {
    uploaded = await api.uploadFile(path, { onProgress: progress });
  } finally {
    if (progress) io().stderr.write('\r\u001b[K');
  }
  if (uploaded.record) printRecord(out, uploaded.record, FILE_COLUMNS);
  noteUnread(`${path} was uploaded`, uploaded, 'its id is unknown; look for it in: switchboard files list');
}

function refuseUpload(problem: string | null): void {
  if (problem) throw new UsageError(`${problem}.`.replace(/\.\.$/, '.'));
}

/** Asks on the terminal; resolves true only for an explicit yes. */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: io().stdin, output: io().stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

const DELETED_COLUMNS: Column<{ id: string; message: string }>[] = [
  { header: 'id', value: (r) => r.id, id: true },
  { header: 'message', value: (r) => r.message },
];

function refuseWithoutTerminal(id: string): void {
  if (!io().stdin.isTTY) throw new UsageError(`refusing to delete file ${id} without a terminal to confirm on; add --yes to delete it.`);
}

/**
 * Deleting cannot be undone: on a terminal we ask; without one (scripts, CI) we refuse unless
 * the caller said --yes, so a pipe can never delete by accident.
 */
async function deleteFile(api: VoiceAgentApi, out: OutputTarget, id: string, yes: boolean): Promise<void> {
  if (!yes) {
    refuseWithoutTerminal(id);
    const file = await api.getFile(id);
    if (!(await confirm(`Delete file ${file.name ?? ''} (${id})? This cannot be undone.`))) {
      writeErr('not deleted');
      return;
    }
  }
  const res = await api.deleteFile(id);
  if (out.format === 'json') out.write(jsonText({ id, ...res }, 2) + '\n');
  else if (out.format === 'ids') out.write(escapeLine(id) + '\n');
  else if (out.format === 'csv') out.write(toCsv([{ id, message: res.message }], DELETED_COLUMNS));
  else out.write(`${escapeLine(res.message || `deleted ${id}`)}\n`);
}

export function filesCommand(): Command {
  const cmd = new Command('files')
    .description('knowledge-base files: list, show, upload, delete')
    .addHelpText('after', '\nExamples:\n  $ switchboard files upload ./faq.md\n  $ switchboard files list -o ids');

  cmd
    .command('list')
    .description('list files, one page at a time')
    .option('--page <n>', `page number, from 1 (at most ${grouped(MAX_PAGE_NUMBER)}); stderr says when more pages exist`, positiveIntUpTo(MAX_PAGE_NUMBER))
    .option('--limit <n>', `files per page (the service default is 20, at most ${MAX_FILE_PAGE})`, positiveIntUpTo(MAX_FILE_PAGE))
    .option('--all', 'every page, one list (not with --page)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard files list\n  $ switchboard files list --page 2 --limit 50 -o json\n  $ switchboard files list --all -o ids',
    )
    .action(
      action('list files', async (o: { page?: number; limit?: number; all?: boolean }, c: Command) => {
        if (o.all && o.page !== undefined) throw new UsageError('--all lists every page: leave out --page.');
        await withApi(c, ({ api, out }) => listFiles(api, out, { page: o.page, limit: o.limit, all: o.all }));
      }),
    );

  cmd
    .command('get')
    .description("show one file's record")
    .argument('<id>', 'file: its id, short id or name', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard files get file_123\n  $ switchboard files get opening-hours.md')
    .action(
      action('get the file', async (id: string, _o: object, c: Command) =>
        withApi(c, async ({ api, out }) => printRecord(out, await api.getFile(await resolveId(api, FILE, id)), FILE_COLUMNS)),
      ),
    );

  cmd
    .command('upload')
    .description("upload a file for assistants' knowledge bases")
    .argument('<path>', 'file to upload')
    .addHelpText('after', '\nExamples:\n  $ switchboard files upload ./faq.md\n  $ switchboard files upload ./prices.csv -o ids')
    .action(
      action('upload the file', async (path: string, _o: object, c: Command) => {
        // The console's check too (src/api/upload-check.ts): the path first, the size limit once the target is known.
        refuseUpload(uploadProblem(path));
        await withApi(c, ({ api, out, target }) => {
          refuseUpload(uploadProblem(path, knownUploadLimit(target.kind)));
          return uploadFile(api, out, path);
        });
      }),
    );

  cmd
    .command('delete')
    .description('delete a file (asks first on a terminal; scripts must pass --yes)')
    .argument('<id>', 'file id', nonEmpty)
    .option('-y, --yes', 'delete without asking')
    .addHelpText('after', '\nExamples:\n  $ switchboard files delete file_123\n  $ switchboard files delete file_123 --yes')
    .action(
      action('delete the file', async (id: string, o: { yes?: boolean }, c: Command) => {
        if (!o.yes) refuseWithoutTerminal(id);
        await withApi(c, ({ api, out }) => deleteFile(api, out, id, o.yes === true));
      }),
    );

  return cmd;
}
