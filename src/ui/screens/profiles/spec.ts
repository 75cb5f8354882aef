// The profiles' routes (`:profiles`, `:ctx`, after k9s's contexts): the saved profiles, Enter
// switches the console to one live; `n` adds one after its key is checked.
import { defineRoutes, type NoParams } from '../route-spec.js';

export const PROFILES = defineRoutes<{
  profiles: NoParams;
  'profile-new': NoParams;
}>()({
  profiles: {
    title: () => 'Profiles',
    contexts: ['profiles', 'list', 'global'],
    help: 'Profiles',
    component: () => import('./Profiles.js').then((m) => m.Profiles),
    enter: (_r, a) => a.loadProfiles(),
    palette: { name: 'profiles', aliases: ['ctx'], open: () => [{ name: 'profiles' }], onTop: true },
  },
  'profile-new': {
    title: () => 'add profile',
    contexts: ['form'],
    component: () => import('./Profiles.js').then((m) => m.ProfileNew),
  },
});
