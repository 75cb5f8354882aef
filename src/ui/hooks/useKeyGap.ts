// A component's own timer (a spinner's next frame, a "12s" that counts, a mark shown once work has
// lasted) makes a frame of its own. Landing just before a key, that frame holds the key's frame
// back behind Ink's frame rate limit; so the timer's change goes through the store's key gaps
// (store/key-gaps.ts): at once when no key is coming, else just after the next key is drawn.
import { useOptionalActions } from '../../store/index.js';

const now = (fn: () => void) => fn();

/** Runs a timer's change in a key gap; at once outside a console (a component rendered alone). */
export function useKeyGap(): (fn: () => void) => void {
  return useOptionalActions()?.inKeyGap ?? now;
}
