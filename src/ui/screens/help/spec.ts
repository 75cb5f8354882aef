// `?` help, `y` raw JSON and `!` the last message: text views any screen opens.
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
  // `!`: the last flash, whole (the flash line cuts a long one at the width).
  message: {
    title: () => 'message',
    contexts: ['scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.MessageView),
  },
} satisfies RouteSpecs<'help' | 'json' | 'message'>;
