// The console's target, switched live (`:profiles`, Enter): one store per target, as the store is
// made for one (its api, caches, archive, pollers and header), replaced whole by a switch. The new
// profile is connected first; only then does its store take the screen, on its home list, and the
// old one is flushed, disposed (pollers, the sync, timers) and disconnected (requests in flight
// are dropped with its client). A switch that cannot connect leaves the console as it was.
//
//   const live = new LiveConsole({ env, readOnly, open }, (profiles) => ({ store, disconnect }));
//   <LiveApp live={live} />          // app.tsx: renders App with live.store, follows each switch
//   await live.close();              // on exit: the store in use, flushed and disposed, then disconnected
import { resolveTarget, type Target } from '../config/config.js';
import type { Env } from '../config/paths.js';
import type { ConsoleStore, ProfileSwitch } from '../store/index.js';

/** A store made for one target, and how to close that target's connection. */
export interface OpenedConsole {
  store: ConsoleStore;
  disconnect(): Promise<void>;
}

export interface LiveConsoleOptions {
  /** Where the config is read from. */
  env?: Env;
  /** --read-only: every profile switched to is read-only too (a profile's own setting adds to it). */
  readOnly?: boolean;
  /** Connects to `resolved` and makes its store (on the home list), giving it `profiles`; rejects when it cannot connect. */
  open(resolved: Target, profiles: ProfileSwitch): Promise<OpenedConsole>;
}

export class LiveConsole {
  readonly profiles: ProfileSwitch;
  #current: OpenedConsole;
  #listeners = new Set<() => void>();
  #closed = false;

  constructor(
    private readonly opts: LiveConsoleOptions,
    first: (profiles: ProfileSwitch) => OpenedConsole,
  ) {
    this.profiles = { env: opts.env, switchTo: (name) => this.switchTo(name) };
    this.#current = first(this.profiles);
  }

  /** The store of the target the console is on now. */
  get store(): ConsoleStore {
    return this.#current.store;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  async switchTo(name: string): Promise<void> {
    const resolved = resolveTarget({ profile: name, env: this.opts.env, readOnly: this.opts.readOnly });
    const next = await this.opts.open(resolved, this.profiles);
    if (this.#closed) return next.disconnect();
    const old = this.#current;
    const { columns, rows } = old.store.getState();
    next.store.getState().actions.resize(columns, rows);
    this.#current = next;
    this.#listeners.forEach((l) => l());
    next.store.getState().actions.flash(`Switched to profile ${resolved.profile}${resolved.readOnly ? ' (read-only)' : ''}`);
    await retire(old);
  }

  /** Flushes and disposes the store in use; `thenBeforeDisconnect` runs before its connection closes (the terminal is given back first). */
  async close(thenBeforeDisconnect?: () => void): Promise<void> {
    this.#closed = true;
    const { store } = this.#current;
    await store.getState().actions.flushSessionIndex();
    store.getState().actions.dispose();
    // After dispose no list's rows are cached any more; those being written are waited for.
    await store.getState().actions.flushCachedLists();
    thenBeforeDisconnect?.();
    await this.#current.disconnect();
  }
}

async function retire(o: OpenedConsole): Promise<void> {
  const { actions } = o.store.getState();
  await actions.flushSessionIndex();
  actions.dispose();
  await actions.flushCachedLists();
  await o.disconnect();
}
