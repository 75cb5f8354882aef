// The console's profiles (`:profiles`, after k9s's contexts): the saved profiles read from the
// config, a new one added after its key is checked with one request (api/key-check.ts), one
// removed, and a switch of the whole console to another profile, live. The switch itself is the
// console's (ui/live-console.ts): it connects to the profile and replaces this store with one
// made for it, so every request, poller, cache, archive and the header follow the new target.
import { failure } from '../api/errors.js';
import { checkKey, keyRefused } from '../api/key-check.js';
import { checkProfile, listProfiles, removeProfile, saveProfile, ENV_PROFILE, type ProfileSummary } from '../config/config.js';
import { maskKey } from '../config/mask.js';
import type { Env } from '../config/paths.js';
import type { ConsoleTarget, Resource, SliceCreator } from './types.js';
import type { UiActions } from './ui.js';
import type { NavigationActions } from './navigation.js';

/** What the console gives the store to reach its profiles: where the config is, and how to switch. */
export interface ProfileSwitch {
  /** The environment the config file is found from (XDG_CONFIG_HOME, HOME). */
  env?: Env;
  /** Connects to the profile and shows the console on it; rejects (nothing changed) when it cannot. */
  switchTo(name: string): Promise<void>;
}

/** A profile as the list shows it: the key masked, `live` the one this console talks to. */
export type ProfileRow = Omit<ProfileSummary, 'current'> & { live: boolean; isDefault: boolean };

interface NewProfile {
  name: string;
  baseUrl: string;
  apiKey: string;
}

/** Why a new profile was not saved, and the field to fix when one is to blame. */
interface ProfileRefusal {
  error: string;
  field?: keyof NewProfile;
}

export interface ProfilesState {
  profiles: Resource<ProfileRow[]>;
  /** A switch under way: to this profile. */
  switching: string | null;
}

export interface ProfilesActions {
  loadProfiles(): void;
  /** Checks the key with one request, then saves; resolves with why not when it did not save. */
  addProfile(p: NewProfile): Promise<ProfileRefusal | null>;
  deleteProfile(name: string): void;
  switchProfile(name: string): Promise<void>;
}

type Needs = ProfilesState & { target: ConsoleTarget; actions: ProfilesActions & UiActions & NavigationActions };

export const createProfilesSlice: SliceCreator<ProfilesState, ProfilesActions, Needs> = (set, get, deps) => {
  const env = deps.profiles?.env ?? process.env;
  // A switch that succeeds disposes this store before its action ends: nothing to set then.
  let disposed = false;
  deps.onDispose(() => (disposed = true));
  const rows = (): ProfileRow[] => {
    const live = get().target;
    const listed: ProfileRow[] = listProfiles(env).map(({ current, ...p }) => ({ ...p, isDefault: current, live: p.name === live.profile }));
    // SWITCHBOARD_BASE_URL + SWITCHBOARD_API_KEY: a profile of this console's environment, not of the config.
    if (live.profile === ENV_PROFILE)
      listed.push({ name: ENV_PROFILE, kind: live.kind, baseUrl: live.baseUrl, apiKey: live.maskedKey, isDefault: false, live: true });
    return listed;
  };
  return {
    state: { profiles: { status: 'idle' }, switching: null },
    actions: {
      loadProfiles() {
        try {
          set({ profiles: { status: 'ready', data: rows(), fetchedAt: Date.now() } });
        } catch (err) {
          set({ profiles: { status: 'error', error: failure(err).message } });
        }
      },
      async addProfile(p) {
        let checked: { baseUrl: string; apiKey: string };
        try {
          checked = checkProfile(p.name, p);
          // Said before the request; the save checks again under the config's lock.
          if (listProfiles(env).some((x) => x.name === p.name))
            return { error: `there is a profile named "${p.name}" already; choose another name`, field: 'name' };
        } catch (err) {
          const error = failure(err).message;
          return { error, field: error.startsWith('the base URL') ? 'baseUrl' : error.startsWith('the API key') ? 'apiKey' : 'name' };
        }
        try {
          await checkKey(checked.baseUrl, checked.apiKey);
        } catch (err) {
          if (keyRefused(err)) return { error: `${checked.baseUrl} refused the key (${err.status}); nothing was saved`, field: 'apiKey' };
          return { error: `${failure(err).message}; nothing was saved`, field: 'baseUrl' };
        }
        try {
          saveProfile(p.name, checked, env, { onlyNew: true });
        } catch (err) {
          return { error: failure(err).message, field: 'name' };
        }
        get().actions.loadProfiles();
        get().actions.flash(`Profile ${p.name} added: ${checked.baseUrl} (key ${maskKey(checked.apiKey)}); Enter on it switches to it`);
        return null;
      },
      deleteProfile(name) {
        const { flash } = get().actions;
        if (name === get().target.profile) return flash(`${name} is the profile in use; switch to another one first`, 'error');
        try {
          removeProfile(name, env);
          flash(`Profile ${name} removed`);
        } catch (err) {
          flash(failure(err).message, 'error');
        }
        get().actions.loadProfiles();
      },
      async switchProfile(name) {
        const { flash } = get().actions;
        if (name === get().target.profile) return flash(`The console is on profile ${name} already`);
        if (!deps.profiles) return flash('This console cannot switch profiles; start it with --profile instead', 'error');
        if (get().switching) return;
        set({ switching: name });
        flash(`Switching to profile ${name}…`);
        try {
          // On success this store is replaced and disposed; what follows runs only on failure.
          await deps.profiles.switchTo(name);
        } catch (err) {
          flash(`Could not switch to profile ${name}: ${failure(err).message}`, 'error');
        } finally {
          if (!disposed) set({ switching: null });
        }
      },
    },
  };
};
