// `?` help, `y` raw JSON and `!` the last message: text views any screen opens.
import { defineRoutes, type NoParams } from '../route-spec.js';
import { PAGER } from '../keys.js';
import { jsonText } from '../../../format/escape.js';

export const HELP = defineRoutes<{
  help: NoParams;
  json: { title: string; value: unknown };
  message: { text: string };
}>()({
  help: {
    title: () => 'Help',
    contexts: ['help', 'scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.Help),
    palette: { name: 'help', aliases: ['h', '?'], open: () => [{ name: 'help' }], onTop: true },
  },
  json: {
    title: (r) => `JSON ${r.title}`,
    viewKey: (r) => `json:${r.title}`,
    contexts: ['json', 'scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.JsonView),
    // The JSON as `-o json` prints it: exact, and nothing in it a terminal would act on.
    keys: { pager: { ...PAGER, run: ({ route, ui }) => ui.page(() => `${jsonText(route.value, 2)}\n`) } },
  },
  // `!`: the last flash, whole (the flash line cuts a long one at the width).
  message: {
    title: () => 'message',
    contexts: ['scroll', 'global'],
    component: () => import('./Help.js').then((m) => m.MessageView),
  },
});
