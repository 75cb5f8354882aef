// A pick list of the records a palette argument could mean (`:a walk` when two assistants start
// with "walk"): choosing one opens it in the picker's place.
import { defineRoutes } from '../route-spec.js';

export const PICK = defineRoutes<{
  /** The records a palette argument could mean, to pick one and open it as `open`. */
  pick: { title: string; items: { id: string; label: string; detail?: string }[]; open: 'assistant' | 'call' | 'file' | 'session' };
}>()({
  pick: {
    title: (r) => r.title,
    viewKey: (r) => `pick:${r.title}`,
    contexts: ['picker'],
    component: () => import('./Pick.js').then((m) => m.Pick),
  },
});
