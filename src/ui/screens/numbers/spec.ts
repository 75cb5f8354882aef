// The numbers' routes: the list (all, or one assistant's), one number, and linking a number to an assistant.
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { defineRoutes } from '../route-spec.js';
import { Footer } from '../../keymap.js';
import { ASSISTANT_CALLS, COPY_NUMBER, OPEN_ASSISTANT, copyIdKey, rowKey, selectedOf, type SharedKey } from '../keys.js';
import type { Selected } from '../../hooks/selection.js';

type Row = { id: string };

/** What Numbers.tsx gives a number's keys: the number, its label and DID, its linked assistant as the list shows it. */
export interface NumberSelection extends Selected {
  row?: Row;
  label?: string;
  did?: string;
  assistantId?: string;
}

/** A number's keys, on its row in the list and on its own page (Numbers.tsx gives its label and linked assistant). */
const NUMBER_KEYS: Record<string, SharedKey> = {
  link: rowKey<Row>({ keys: [{ char: 'l' }], hint: 'link assistant', footer: Footer.Normal, write: true }, 'number', ({ id }, { actions }) =>
    actions.push({ name: 'number-link', id }),
  ),
  openAssistant: rowKey<Row>(OPEN_ASSISTANT, 'number', (n, a) => {
    const { assistantId, label } = selectedOf<NumberSelection>(a) ?? {};
    if (assistantId) a.actions.push({ name: 'assistant', id: assistantId });
    else a.actions.flash(`${label ?? n.id} has no assistant: l links one`, 'error');
  }),
  assistantCalls: rowKey<Row>(ASSISTANT_CALLS, 'number', ({ id }, { actions }) => actions.showRelatedCalls({ phoneNumberId: id })),
};

export const NUMBERS = defineRoutes<{
  numbers: { /** Only those linked to this assistant. */ assistantId?: string };
  number: { id: string };
  'number-link': { id: string };
}>()({
  numbers: {
    title: (r) => (r.assistantId ? `numbers of ${r.assistantId}` : 'Numbers'),
    contexts: ['numbers', 'list', 'global'],
    jump: '2',
    help: 'Numbers',
    component: () => import('./Numbers.js').then((m) => m.Numbers),
    firstFrame: () => 'Loading numbers…',
    keys: {
      ...NUMBER_KEYS,
      copyId: copyIdKey('number'),
      copyNumber: rowKey(COPY_NUMBER, 'number', (_n, a) => a.ui.copy('DID', selectedOf<NumberSelection>(a)?.did)),
    },
    enter(_r, a) {
      void a.loadAssistants(lookup);
      void a.loadNumbers({ force: true });
    },
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.numbers),
    palette: { name: 'numbers', aliases: ['n'], open: () => [{ name: 'numbers' }] },
  },
  number: {
    title: (r) => `number ${r.id}`,
    contexts: ['number', 'detail', 'global'],
    help: 'Numbers',
    component: () => import('./Numbers.js').then((m) => m.NumberDetail),
    keys: NUMBER_KEYS,
    enter(_r, a) {
      void a.loadAssistants(lookup);
      void a.loadNumbers({ force: true });
    },
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.numbers),
  },
  'number-link': {
    title: () => 'link assistant',
    contexts: ['picker'],
    component: () => import('./Numbers.js').then((m) => m.NumberLink),
    enter: (_r, a) => void a.loadAssistants({ force: true }),
    retried: true,
    freshness: (_r, s) => freshnessOfResource(s.assistants),
  },
});
