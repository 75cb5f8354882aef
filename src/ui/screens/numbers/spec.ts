// The numbers' routes: the list (all, or one assistant's), one number, and linking a number to an assistant.
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { defineRoutes } from '../route-spec.js';

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
