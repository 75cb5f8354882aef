// The assistants' routes: the list, one assistant, its forms, its knowledge base and its YAML changes.
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { Footer } from '../../keymap.js';
import { defineRoutes } from '../route-spec.js';
import { findRecords } from '../find.js';
import { escapeLine } from '../../../format/escape.js';
import { ASSISTANT_CALLS, NEW, OUTBOUND, copyIdKey, rowKey, type SharedKey } from '../keys.js';

type Row = { id: string };

/** One assistant's keys: on its row in the list and on its own page. */
const ASSISTANT_KEYS: Record<string, SharedKey> = {
  edit: rowKey<Row>({ keys: [{ char: 'e' }], hint: 'edit', footer: Footer.Normal, write: true }, 'assistant', ({ id }, { actions }) =>
    actions.push({ name: 'assistant-edit', id }),
  ),
  editAsCode: rowKey<Row>({ keys: [{ char: 'E' }], hint: 'edit as YAML in $EDITOR', footer: Footer.Normal, write: true }, 'assistant', ({ id }, a) =>
    a.ui.editText ? void a.actions.editAssistantAsCode(id, a.ui.editText) : a.actions.flash('No terminal to run an editor on', 'error'),
  ),
  clone: rowKey<Row>({ keys: [{ char: 'D' }], hint: 'duplicate (new, pre-filled)', write: true }, 'assistant', ({ id }, { actions }) =>
    actions.push({ name: 'assistant-new', from: id }),
  ),
  knowledgeBase: rowKey<Row>(
    { keys: [{ char: 'k', ctrl: true }, { char: 'K' }], hint: 'KB files', footer: Footer.Normal, write: true },
    'assistant',
    ({ id }, { actions }) => actions.push({ name: 'assistant-kb', id }),
  ),
  chat: rowKey<Row>({ keys: [{ char: 'c' }], hint: 'chat', footer: Footer.Normal, write: true }, 'assistant', ({ id }, { actions }) =>
    actions.push({ name: 'chat', assistantId: id }),
  ),
  outbound: rowKey<Row>(OUTBOUND, 'assistant', ({ id }, { actions }) => actions.push({ name: 'call-outbound', assistantId: id })),
  assistantCalls: rowKey<Row>(ASSISTANT_CALLS, 'assistant', ({ id }, { actions }) => actions.showRelatedCalls({ assistantId: id })),
  assistantNumbers: rowKey<Row>({ keys: [{ char: 'N' }], hint: 'its numbers', footer: Footer.Normal }, 'assistant', ({ id }, { actions }) =>
    actions.push({ name: 'numbers', assistantId: id }),
  ),
  copyId: copyIdKey('assistant'),
};

export const ASSISTANTS = defineRoutes<{
  assistants: { /** Only those whose knowledge base holds this file. */ usingFile?: string; /** Its name, for the title. */ fileName?: string };
  assistant: { id: string };
  /** Duplicate: pre-filled from this assistant. */
  'assistant-new': { from?: string };
  'assistant-edit': { id: string };
  'assistant-kb': { id: string };
  'assistant-yaml': { id: string };
}>()({
  assistants: {
    title: (r) => (r.usingFile ? `assistants using ${escapeLine(r.fileName ?? r.usingFile)}` : 'Assistants'),
    contexts: ['assistants', 'list', 'global'],
    jump: '1',
    help: 'Assistants',
    component: () => import('./AssistantsList.js').then((m) => m.AssistantsList),
    firstFrame: () => 'Loading assistants…',
    keys: { new: { ...NEW, run: ({ actions }) => actions.push({ name: 'assistant-new' }) }, ...ASSISTANT_KEYS },
    enter: (_r, a) => void a.loadAssistants({ force: true }),
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.assistants),
    palette: {
      name: 'assistants',
      aliases: ['a'],
      arg: 'id or name',
      rest: true,
      open: (id) => [{ name: 'assistants' }, id ? { name: 'assistant', id } : undefined],
      find: (arg, s) =>
        s.assistants.data && { items: findRecords(arg, s.assistants.data, (a) => a.name), what: 'assistant', open: 'assistant', complete: true },
    },
  },
  assistant: {
    title: (r) => `assistant ${r.id}`,
    contexts: ['assistant', 'detail', 'global'],
    help: 'Assistants',
    component: () => import('./AssistantDetail.js').then((m) => m.AssistantDetail),
    keys: ASSISTANT_KEYS,
    enter(r, a) {
      // Its calls, cost and last call from the archive (read again when a sync ends), its numbers.
      a.loadAssistantActivity(r.id);
      void a.loadNumbers();
      void a.syncArchive();
      void a.loadAssistant(r.id);
      void a.loadFiles();
    },
    afterSync: (r, a) => a.loadAssistantActivity(r.id),
    retried: true,
    freshness: (r, s) => freshnessOfResource(s.records[`assistant:${r.id}`]),
  },
  'assistant-new': {
    title: () => 'new assistant',
    contexts: ['form'],
    component: () => import('./AssistantForms.js').then((m) => m.AssistantCreate),
  },
  'assistant-edit': {
    title: () => 'edit',
    contexts: ['form'],
    component: () => import('./AssistantForms.js').then((m) => m.AssistantEdit),
    enter(r, a) {
      void a.loadAssistant(r.id);
      void a.loadFiles(lookup);
    },
    freshness: (r, s) => freshnessOfResource(s.records[`assistant:${r.id}`]),
  },
  'assistant-kb': {
    title: () => 'knowledge base',
    contexts: ['picker'],
    component: () => import('./AssistantForms.js').then((m) => m.AssistantKnowledgeBase),
    enter(_r, a) {
      void a.loadAssistants(lookup);
      void a.loadFiles({ force: true });
    },
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.files),
  },
  'assistant-yaml': {
    title: () => 'YAML changes',
    // No 'global': Esc discards here, and q must not quit past an unapplied edit. j/k scroll (useDetailKeys).
    contexts: ['review', 'scroll'],
    help: 'Reviewing a YAML edit',
    component: () => import('./AssistantYamlChanges.js').then((m) => m.AssistantYamlChanges),
    keys: {
      applyEdit: {
        keys: [{ key: 'return' }],
        hint: 'apply the changes',
        footer: Footer.High,
        write: true,
        run: ({ actions }) => void actions.applyAssistantEdit(),
        disabled: ({ state: { assistantEdit: edit } }) => (!edit ? 'nothing to review' : edit.status === 'applying' ? 'applying them' : undefined),
      },
      discardEdit: { keys: [{ key: 'escape' }], hint: 'discard them', footer: Footer.High, run: ({ actions }) => actions.discardAssistantEdit() },
    },
  },
});
