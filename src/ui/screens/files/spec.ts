// The knowledge-base files' routes: the list, one file, and an upload.
import type { KbFile } from '../../../api/schemas.js';
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { Footer } from '../../keymap.js';
import { defineRoutes, type NoParams } from '../route-spec.js';
import { findRecords } from '../find.js';

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
