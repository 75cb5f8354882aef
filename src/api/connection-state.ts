// How the service answered lately, as the transport (http.ts) sees each request end: the
// header's connection indicator. The transport sets it; the console's store subscribes. One
// typed value instead of guessing from errors as they pass by.
import { AbortedError, ApiError, type RequestError } from './errors.js';

/**
 * connecting: nothing answered yet; online: the service answers; offline: it cannot be reached;
 * unauthorized: it refused the key; restarting: the embedded sandbox stopped and the console is
 * starting it again (set by its supervisor, src/target.ts, not by a request).
 */
export type ConnectionState = 'connecting' | 'online' | 'offline' | 'unauthorized' | 'restarting';
export type ConnectionListener = (state: ConnectionState) => void;

/** What one finished request says about the service; undefined when it says nothing (we cancelled it). */
export function stateAfter(outcome: { status: number } | RequestError): ConnectionState | undefined {
  if (outcome instanceof AbortedError) return undefined;
  const status = outcome instanceof ApiError || !(outcome instanceof Error) ? outcome.status : undefined;
  if (status === undefined) return 'offline'; // refused, reset, DNS, TLS, a timeout: no answer
  return status === 401 || status === 403 ? 'unauthorized' : 'online';
}

/** The current state and who wants to hear when it changes. */
export class ConnectionStateFeed {
  #state: ConnectionState;
  readonly #listeners = new Set<ConnectionListener>();

  constructor(initial: ConnectionState = 'connecting') {
    this.#state = initial;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  set(next: ConnectionState | undefined): void {
    if (next === undefined || next === this.#state) return;
    this.#state = next;
    for (const listener of [...this.#listeners]) listener(next);
  }

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: ConnectionListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}
