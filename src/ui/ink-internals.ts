// The two parts of Ink the console needs that Ink does not export: its stdin context (to give an
// input component a private stdin, components/forwarded-keys.tsx) and its renderer (to render
// between the keys of one read). Imported from Ink's build by path, so they are the very modules
// Ink itself uses; test/ui/inputs.test.tsx fails if a new Ink moves or changes them.
import StdinContext from '../../node_modules/ink/build/components/StdinContext.js';
import reconciler from '../../node_modules/ink/build/reconciler.js';

export { StdinContext };

/** Renders what the last key changed now, so the next key of the same read meets its result. */
export function renderNow(): void {
  reconciler.flushSyncWork();
}

/** Runs pending passive effects now (an input mounted by the last key subscribes in one). */
export function runPendingEffects(): void {
  reconciler.flushPassiveEffects();
}
