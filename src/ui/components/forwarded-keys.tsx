// ink-select-input read keys with Ink's own useInput, every keypress, and keep
// their state (cursor, highlighted row) in React state that their handler reads as of the last
// render. Two things go wrong with that in the console: they would see keys the dispatcher gave
// to someone else (Ctrl-S would type an "s"), and a burst of keys in one read (a held Backspace,
// arrows queued behind a slow frame) reaches them before React re-renders, so all but one are
// lost. So such a component listens to a private stdin instead: the dispatcher's handler decides
// which keys it gets and sends them here one at a time, each rendered before the next is sent.

import { EventEmitter } from 'node:events';
import { useMemo, useState, type ContextType, type ReactNode } from 'react';
import { useStdin } from 'ink';
import { StdinContext, renderNow, runPendingEffects } from '../ink-internals.js';

/** Terminal bytes for the keys the console forwards (Ink's parser turns them back into the same Key). */
export const KEY_BYTES = {
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  enter: '\r',
  backspace: '\x7f',
} as const;

type StdinValue = ContextType<typeof StdinContext>;

/** A private stdin for one Ink input component, and `send` to give it a key. */
export function useForwardedKeys() {
  const stdin = useStdin() as StdinValue;
  const [emitter] = useState(() => new EventEmitter());
  const context = useMemo<StdinValue>(() => ({ ...stdin, internal_eventEmitter: emitter }), [stdin, emitter]);
  const send = (bytes: string) => {
    // A component mounted in this same burst subscribes in a passive effect: run those first.
    if (emitter.listenerCount('input') === 0) runPendingEffects();
    emitter.emit('input', bytes);
    renderNow();
  };
  return { context, send };
}

export function ForwardedStdin({ context, children }: { context: StdinValue; children: ReactNode }) {
  return <StdinContext.Provider value={context}>{children}</StdinContext.Provider>;
}
