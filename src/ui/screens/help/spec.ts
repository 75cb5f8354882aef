// `?` help and `y` raw JSON: text views any screen opens.
import type { RouteSpecs } from '../route-spec.js';

export const HELP = {
  help: {
    title: () => 'Help',
    contexts: ['help', 'scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.Help),
    palette: { name: 'help', aliases: ['h', '?'], open: () => [{ name: 'help' }], onTop: true },
  },
  json: {
    title: (r) => `JSON ${r.title}`,
    contexts: ['json', 'scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.JsonView),
  },
} satisfies RouteSpecs<'help' | 'json'>;
