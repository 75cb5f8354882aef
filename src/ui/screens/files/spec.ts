// The knowledge-base files' routes: the list, one file, and an upload; `d` on a file, after a confirmation naming it.
import type { KbFile } from '../../../api/schemas.js';
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { Footer } from '../../keymap.js';
import { defineRoutes, type NoParams } from '../route-spec.js';
import { findRecords } from '../find.js';
import { humanBytes } from '../../../format/display.js';
import { DELETE, copyIdKey, rowKey, rowOf, selectedOf, type KeyArgs, type KeyShape } from '../keys.js';
import type { Selected } from '../../hooks/selection.js';

/** What Files.tsx gives a file's keys: the file, and the names of the assistants using it (none while they load), worked out when asked. */
export interface FileSelection extends Selected {
  row?: KbFile;
  users?: () => string[] | undefined;
}

const FILE_ASSISTANTS: KeyShape = { keys: [{ char: 'a' }], hint: 'assistants using it', footer: Footer.Normal };

/**
 * `d`: asks first, naming the file and the assistants that lose it (the screen gives their names:
 * none while the assistants are not in), then deletes it; `after` once it is gone (a file's page goes back).
 */
function askDelete(f: KbFile, a: KeyArgs, after?: () => void) {
  const { actions } = a;
  const users = selectedOf<FileSelection>(a)?.users?.();
  const losers = !users ? 'Assistants using it lose it' : users.length ? `${users.join(', ')} lose it` : 'No assistant uses it';
  actions.confirm({
    title: 'Delete file',
    message: `Delete "${f.name ?? f.id}" (${humanBytes(f.bytes)})? ${losers}${users?.length === 0 ? '.' : ' from their knowledge base.'}`,
    confirmLabel: 'delete',
    cancelFirst: true,
    onConfirm: async () => {
      if ((await actions.deleteFile(f.id)) && after) after();
    },
  });
}

export const FILES = defineRoutes<{
  files: NoParams;
  file: { id: string };
  'file-upload': NoParams;
}>()({
  files: {
    title: () => 'Files',
    contexts: ['files', 'list', 'global'],
    jump: '5',
    help: 'Files',
    component: () => import('./Files.js').then((m) => m.Files),
    firstFrame: () => 'Loading files…',
    keys: {
      upload: { keys: [{ char: 'u' }], hint: 'upload', footer: Footer.Normal, write: true, run: ({ actions }) => actions.push({ name: 'file-upload' }) },
      delete: rowKey<KbFile>(DELETE, 'file', (f, a) => askDelete(f, a)),
      fileAssistants: rowKey<KbFile>(FILE_ASSISTANTS, 'file', (f, { actions }) =>
        actions.push({ name: 'assistants', usingFile: f.id, fileName: f.name ?? undefined }),
      ),
      copyId: copyIdKey('file'),
    },
    enter(_r, a) {
      void a.loadFiles({ force: true });
      void a.loadAssistants(lookup); // the delete dialog names the assistants that lose the file
    },
    // A file being processed moves to done (or failed) without `r`.
    poll: (_r, s) => (s.files.data?.files.some((f) => f.status === 'processing') ? () => s.actions.loadFiles({ force: true, quiet: true }) : null),
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.files),
    palette: {
      name: 'files',
      aliases: ['f'],
      arg: 'id or name',
      rest: true,
      open: (id) => [{ name: 'files' }, id ? { name: 'file', id } : undefined],
      find: (arg, s) =>
        s.files.data && {
          items: findRecords(arg, s.files.data.files, (f) => f.name),
          what: 'file',
          open: 'file',
          complete: s.files.data.files.length >= (s.files.data.pagination?.total ?? 0),
        },
    },
  },
  file: {
    title: (r) => `file ${r.id}`,
    contexts: ['file', 'detail', 'global'],
    help: 'Files',
    component: () => import('./Files.js').then((m) => m.FileDetail),
    keys: {
      delete: rowKey<KbFile>(DELETE, 'file', (f, a) => askDelete(f, a, a.actions.back)),
      // Its id is the route's: on before the file is in.
      fileAssistants: {
        ...FILE_ASSISTANTS,
        run: (a) => a.actions.push({ name: 'assistants', usingFile: a.route.id, fileName: rowOf<KbFile>(a)?.name ?? undefined }),
      },
      copyId: copyIdKey('file'),
    },
    enter(r, a) {
      void a.loadAssistants(lookup);
      void a.loadFile(r.id);
    },
    poll: (r, s) => ((s.records[`file:${r.id}`]?.data as KbFile | undefined)?.status === 'processing' ? () => s.actions.loadFile(r.id, { quiet: true }) : null),
    retried: true,
    freshness: (r, s) => freshnessOfResource(s.records[`file:${r.id}`]),
  },
  'file-upload': {
    title: () => 'upload',
    contexts: ['form'],
    component: () => import('./Files.js').then((m) => m.FileUpload),
  },
});
