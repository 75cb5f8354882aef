// A pick list of the records a palette argument could mean (`:a walk` when two assistants start
// with "walk"): choosing one opens it in the picker's place.
import type { RouteSpecs } from '../route-spec.js';

export const PICK = {
  pick: {
    title: (r) => r.title,
    contexts: ['picker'],
    component: () => import('./Pick.js').then((m) => m.Pick),
  },
} satisfies RouteSpecs<'pick'>;
