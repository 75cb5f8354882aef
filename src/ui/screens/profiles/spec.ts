// The profiles' routes (`:profiles`, `:ctx`, after k9s's contexts): the saved profiles, Enter
// switches the console to one live; `n` adds one after its key is checked.
import { defineRoutes, type NoParams } from '../route-spec.js';
import { Footer } from '../../keymap.js';
import { DELETE, NEW, rowKey, rowOf } from '../keys.js';
import { escapeLine } from '../../../format/escape.js';
import type { ProfileRow } from '../../../store/index.js';

type Row = ProfileRow;

/** Built-in profiles (the embedded sandbox, the environment's) are not in the config to remove. */
const builtIn = (p: Row) => p.kind === 'sandbox' || p.name === 'env';

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
    keys: {
      useProfile: rowKey<Row>(
        { keys: [{ key: 'return' }], hint: 'switch the console to it', footer: Footer.High },
        'profile',
        (p, { actions }) => void actions.switchProfile(p.name),
      ),
      new: { ...NEW, run: ({ actions }) => actions.push({ name: 'profile-new' }) },
      delete: {
        ...rowKey<Row>(DELETE, 'profile', (p, { actions }) =>
          // The one in use is refused at once (the store says why), not after asking.
          p.live
            ? actions.deleteProfile(p.name)
            : actions.confirm({
                title: 'Remove profile',
                message: `Remove profile "${p.name}" (${escapeLine(p.baseUrl ?? '')}) and its key from the config? The service keeps everything.`,
                confirmLabel: 'remove',
                cancelFirst: true,
                onConfirm: () => actions.deleteProfile(p.name),
              }),
        ),
        disabled: (a) => {
          const p = rowOf<Row>(a);
          return a.selected && !p ? 'no profile here' : p && builtIn(p) ? `${p.name} is built in: not in the config to remove` : undefined;
        },
      },
    },
    palette: { name: 'profiles', aliases: ['ctx'], open: () => [{ name: 'profiles' }], onTop: true },
  },
  'profile-new': {
    title: () => 'add profile',
    contexts: ['form'],
    component: () => import('./Profiles.js').then((m) => m.ProfileNew),
  },
});
